package dev.stint.core.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.stint.core.model.JobEvent;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class EventRecorderTest {
  static final Pod JOB = new PodBuilder().withApiVersion("v1").withKind("Pod").withNewMetadata().withName("j")
      .withNamespace("ns").withUid("u-1").endMetadata().build();

  @Nested
  @EnableKubernetesMockClient(crud = true)
  class OnAServer {
    KubernetesClient client;

    @Test
    void sendsTheEventInTheBackgroundWithTheTimeItWasRecorded() {
      Clock clock = Clock.fixed(Instant.parse("2026-12-01T10:00:00.750Z"), ZoneOffset.UTC);
      SimpleMeterRegistry meters = new SimpleMeterRegistry();
      EventRecorder events = new EventRecorder(client, clock, "stint", meters);
      try {
        events.record(JOB, JobEvent.warning("JFailed", "j failed"));
        assertThat(events.awaitSent(Duration.ofSeconds(10))).isTrue();
      } finally {
        events.close();
      }
      Event e = client.v1().events().inNamespace("ns").list().getItems().get(0);
      assertThat(e.getType()).isEqualTo("Warning");
      assertThat(e.getReason()).isEqualTo("JFailed");
      assertThat(e.getMessage()).isEqualTo("j failed");
      assertThat(e.getInvolvedObject().getUid()).isEqualTo("u-1");
      assertThat(e.getInvolvedObject().getKind()).isEqualTo("Pod");
      assertThat(e.getFirstTimestamp()).isEqualTo("2026-12-01T10:00:00Z");
      assertThat(e.getSource().getComponent()).isEqualTo("stint");
      assertThat(events.dropped()).isZero();
      assertThat(meters.get(EventRecorder.SENT).tag("kind", "Pod").counter().count()).isEqualTo(1);
      assertThat(meters.find(EventRecorder.FAILED).counters()).isEmpty();
      assertThat(meters.find(EventRecorder.DROPPED).counters()).isEmpty();
    }
  }

  @Nested
  @EnableKubernetesMockClient(crud = true)
  class Repeated {
    KubernetesClient client;

    @Test
    void anEventSeenBeforeBumpsTheCountOfTheEventSentThen() {
      EventRecorder events = new EventRecorder(client, Clock.systemUTC(), "stint", new SimpleMeterRegistry(),
          EventRecorder.QUEUE_BYTES, 1);
      try {
        events.normal(JOB, "SuccessfulCreatePod", "Created pod: j-worker-0");
        events.normal(JOB, "SuccessfulDeletePod", "Deleted pod: j-worker-0");
        events.normal(JOB, "SuccessfulCreatePod", "Created pod: j-worker-0");
        assertThat(events.awaitSent(Duration.ofSeconds(10))).isTrue();
      } finally {
        events.close();
      }
      assertThat(client.v1().events().inNamespace("ns").list().getItems())
          .extracting(Event::getMessage, Event::getCount)
          .containsExactlyInAnyOrder(tuple("Created pod: j-worker-0", 2), tuple("Deleted pod: j-worker-0", 1));
    }

    @Test
    void childEventsBeyondTheJobsBudgetAreCountedNotSentAndTheJobsOwnStillGo() {
      SimpleMeterRegistry meters = new SimpleMeterRegistry();
      EventRecorder events = new EventRecorder(client, Clock.systemUTC(), "stint", meters, EventRecorder.QUEUE_BYTES,
          1);
      try {
        for (int i = 0; i < EventCorrelator.BURST + 2; i++) {
          events.normal(JOB, "SuccessfulDeletePod", "Deleted pod: j-worker-0");
        }
        assertThat(events.awaitSent(Duration.ofSeconds(10))).isTrue();
        events.record(JOB, JobEvent.normal("JSuspended", "j is suspended"));
        assertThat(events.awaitSent(Duration.ofSeconds(10))).isTrue();
      } finally {
        events.close();
      }
      assertThat(client.v1().events().inNamespace("ns").list().getItems())
          .extracting(Event::getReason, Event::getCount)
          .containsExactlyInAnyOrder(tuple("SuccessfulDeletePod", EventCorrelator.BURST), tuple("JSuspended", 1));
      assertThat(meters.get(EventRecorder.FILTERED).tag("kind", "Pod").counter().count()).isEqualTo(2);
      assertThat(meters.get(EventRecorder.SENT).tag("kind", "Pod").counter().count())
          .isEqualTo(EventCorrelator.BURST + 1);
    }
  }

  /** A server that accepts connections and never answers: both senders hang on their first event. */
  @Test
  void aFullQueueDropsEventsInsteadOfBlockingTheReconcile() throws IOException {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
         KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
             .withMasterUrl("http://127.0.0.1:" + silent.getLocalPort()).withRequestTimeout(60_000)
             .withRequestRetryBackoffLimit(0).build()).build()) {
      SimpleMeterRegistry meters = new SimpleMeterRegistry();
      EventRecorder events = new EventRecorder(client, Clock.systemUTC(), "stint", meters, 1, EventRecorder.SENDERS);
      for (int i = 0; i < 10; i++) {
        events.normal(JOB, "R", "event " + i); // a blocking queue would hang here
      }
      // ten events, two taken by the hanging senders at most, one queued: at least seven dropped
      assertThat(events.dropped()).isBetween(7L, 9L);
      assertThat(meters.get(EventRecorder.DROPPED).tag("kind", "Pod").counter().count())
          .as("every dropped event counted, by the job's kind").isEqualTo(events.dropped());
      assertThat(events.awaitSent(Duration.ofMillis(200))).isFalse();
      events.close();
    }
  }

  @Test
  void theJobsOwnEventsGoBeforeThoseOfItsChildren() throws InterruptedException {
    EventRecorder events = new EventRecorder(null, Clock.systemUTC(), "stint", new SimpleMeterRegistry(),
        EventRecorder.QUEUE_BYTES, 0);
    events.normal(JOB, "SuccessfulCreatePod", "Created pod: j-worker-0");
    events.normal(JOB, "SuccessfulCreatePod", "Created pod: j-worker-1");
    events.record(JOB, JobEvent.normal("JSucceeded", "j succeeded"));
    assertThat(events.next().getReason()).isEqualTo("JSucceeded");
    assertThat(events.next().getMessage()).isEqualTo("Created pod: j-worker-0");
    assertThat(events.next().getMessage()).isEqualTo("Created pod: j-worker-1");
    assertThat(events.next()).isNull();
  }
}
