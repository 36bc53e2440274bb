package dev.stint.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stint.core.LeaseFence;
import dev.stint.core.metrics.StintMetrics;
import dev.stint.operator.OperatorOptions.ApiRateLimit;
import dev.stint.operator.demo.EmbeddedApiServer;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The run's client with the {@link LeaseFence} installed, on the embedded API server: a write outside the fence never
 * reaches the server, and the caller is told why with a client exception, as for any refusal that heals.
 */
class LeaseFenceOnClientTest {
  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  /** Asks of the clock left before it jumps by 11 s, as if the process froze right after that ask; -1: never. */
  private final AtomicInteger asksBeforeFreeze = new AtomicInteger(-1);
  private final LeaseFence fence = new LeaseFence("default", "stint", "replica-a", Duration.ofSeconds(10),
      this::nanoTime, Clock.systemUTC());
  private EmbeddedApiServer server;
  private KubernetesClient client;
  private KubernetesClient admin;

  @BeforeEach
  void start() {
    server = EmbeddedApiServer.start();
    Config config = new ConfigBuilder(Config.empty()).withMasterUrl(server.url()).withNamespace("default").build();
    client = ClientConfig.client(config, ApiRateLimit.NONE, new StintMetrics(), HttpClientChoice.from(Map.of()),
        fence);
    admin = server.client();
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  @Test
  void aLeaderPastItsRenewDeadlineSendsNoWriteButReadsAndRenewsItsLease() {
    Lock lock = leading();
    client.pods().resource(pod("before")).create();

    nanos.addAndGet(Duration.ofSeconds(11).toNanos()); // frozen for 11 s

    assertThatThrownBy(() -> client.pods().resource(pod("after")).create())
        .isInstanceOf(LeaseFence.FencedWrite.class)
        .hasMessageContaining("POST /api/v1/namespaces/default/pods not sent");
    assertThatThrownBy(() -> client.pods().withName("before").delete())
        .isInstanceOf(LeaseFence.FencedWrite.class);
    assertThatThrownBy(() -> client.v1().events().resource(new EventBuilder().withNewMetadata().withName("e")
        .endMetadata().build()).create()).isInstanceOf(LeaseFence.FencedWrite.class);
    assertThat(admin.pods().inNamespace("default").list().getItems()).extracting(p -> p.getMetadata().getName())
        .as("neither the pod created nor the one deleted").containsExactly("before");
    assertThat(client.pods().list().getItems()).hasSize(1); // reads go on

    // the elector's next renewal goes through and opens the fence again
    lock.update(client, lock.get(client).toBuilder().renewTime(ZonedDateTime.now(Clock.systemUTC())).build());
    client.pods().resource(pod("renewed")).create();
    assertThat(admin.pods().inNamespace("default").withName("renewed").get()).isNotNull();
  }

  @Test
  void aWriteFrozenBetweenTheInterceptorAndItsBodyIsNotCarriedOut() {
    leading();

    asksBeforeFreeze.set(1); // the interceptor's ask passes, then the process "freezes" past the renew deadline

    assertThatThrownBy(() -> client.pods().resource(pod("late")).create())
        .hasStackTraceContaining("POST /api/v1/namespaces/default/pods not sent");
    assertThat(admin.pods().inNamespace("default").withName("late").get()).isNull();
  }

  @Test
  void aStandbyThatNeverLedSendsItsOwnEvents() {
    admin.resource(new LeaseBuilder().withNewMetadata().withName("stint").withNamespace("default").endMetadata()
        .withNewSpec().withHolderIdentity("replica-b").endSpec().build()).create();

    client.v1().events().resource(new EventBuilder().withNewMetadata().withName("kind-down").endMetadata()
        .withReason("KindNotServed").build()).create();

    assertThat(admin.v1().events().inNamespace("default").withName("kind-down").get()).isNotNull();
  }

  /** This process took the Lease (its first renewal made through the fence's lock) and leads. */
  private Lock leading() {
    Lock lock = fence.watching(new LeaseLock("default", "stint", "replica-a"));
    ZonedDateTime now = ZonedDateTime.now(Clock.systemUTC());
    lock.create(client, new LeaderElectionRecord("replica-a", Duration.ofSeconds(15), now, now, 0));
    fence.startedLeading();
    return lock;
  }

  private long nanoTime() {
    if (asksBeforeFreeze.get() >= 0 && asksBeforeFreeze.getAndDecrement() == 0) {
      nanos.addAndGet(Duration.ofSeconds(11).toNanos());
    }
    return nanos.get();
  }

  private static io.fabric8.kubernetes.api.model.Pod pod(String name) {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().addNewContainer()
        .withName("c").withImage("busybox").endContainer().endSpec().build();
  }
}
