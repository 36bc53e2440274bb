package dev.stint.core.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.testing.TestCrds;
import dev.stint.core.testing.TestJobs;
import dev.stint.spi.api.JobStatus;
import dev.stint.testdoubles.MockServerShutdown;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the status writer hands a reconcile while the cache has not seen its last write. */
@EnableKubernetesMockClient(crud = true)
class StatusWriterTest {
  KubernetesClient client;
  KubernetesMockServer server;

  @AfterEach
  void tearDown() {
    MockServerShutdown.quietly(server);
  }

  @ParameterizedTest(name = "{0} older than {1}: {2}")
  @CsvSource(nullValues = "null", value = {
      "5, 6, true",
      "6, 6, false",
      "7, 6, false",
      "99999999999, 100000000000, true", // numbers, not strings: "99..." sorts after "100..."
      "null, 6, false",
      "5, null, false",
      "a5, 6, false", // not etcd's: the cache is trusted, as before
      "5, b6, false"})
  void resourceVersionsCompareAsNumbers(String version, String than, boolean older) {
    assertThat(StatusWriter.olderThan(version, than)).isEqualTo(older);
  }

  @Test
  void aCacheOlderThanTheWriteGetsTheWrittenStatusAndKeepsItsOwnSpec() {
    StatusWriter writer = new StatusWriter(client, false, "stint");
    TestJob created = created("w");
    writer.write(created, running(), TestJob.class);

    // a user's suspension that reached the cache, from before the write
    TestJob suspendedInCache = TestJobs.job("w").workers(2).suspend(true).build();
    suspendedInCache.setMetadata(created.getMetadata());
    TestJob current = writer.current(suspendedInCache);

    assertThat(current.getStatus()).isEqualTo(running());
    assertThat(current.getSpec().getRunPolicy().getSuspend()).isTrue();
    assertThat(current.getMetadata()).isSameAs(created.getMetadata());
    assertThat(suspendedInCache.getStatus()).as("the cached job is not changed").isNull();
  }

  @Test
  void aCacheThatShowsTheWriteOrLaterIsTakenAsItIs() {
    StatusWriter writer = new StatusWriter(client, false, "stint");
    TestJob created = created("c");
    writer.write(created, running(), TestJob.class);
    TestJob onServer = client.resources(TestJob.class).inNamespace("default").withName("c").get();

    assertThat(writer.current(onServer)).isSameAs(onServer);
    TestJob later = client.resource(onServer).updateStatus(); // another client's write, after ours
    assertThat(writer.current(later)).isSameAs(later);
    assertThat(writer.isOwn(later.getMetadata().getUid(), later.getMetadata().getResourceVersion(),
        new JobStatus())).isFalse();
  }

  @Test
  void aJobNeverWrittenIsTakenAsItIs() {
    StatusWriter writer = new StatusWriter(client, false, "stint");
    TestJob created = created("n");
    assertThat(writer.current(created)).isSameAs(created);
  }

  private TestJob created(String name) {
    client.apiextensions().v1().customResourceDefinitions().resource(TestCrds.of(TestJob.class)).createOr(e -> e.update());
    return client.resource(TestJobs.job(name).workers(2).build()).create();
  }

  private static JobStatus running() {
    JobStatus status = new JobStatus();
    status.setStartTime(Instant.parse("2026-12-03T10:00:00Z").toString());
    return status;
  }
}
