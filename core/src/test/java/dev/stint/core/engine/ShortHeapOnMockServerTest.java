package dev.stint.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.core.StintOperator;
import dev.stint.core.heap.HeapGuard;
import dev.stint.core.heap.HeapLevel;
import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.core.testing.TestFramework;
import dev.stint.core.testing.TestJobs;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A short heap slows the operator down instead of letting it run out: jobs that have no pods yet wait, the jobs
 * running keep being served, and it says so in its metrics; once the heap frees, the waiting jobs get their pods.
 */
@EnableKubernetesMockClient(crud = true)
class ShortHeapOnMockServerTest extends MockServerEngineTest {
  private static final long MAX = 1000;
  private final AtomicLong live = new AtomicLong();
  private final HeapGuard heap = new HeapGuard(() -> new HeapGuard.Reading(live.get(), MAX));

  @Override
  StintOperator newOperator() {
    return onMockServer(client, FrameworkRegistry.of(new TestFramework())).heapGuard(heap).build();
  }

  @Test
  void newJobsWaitWhileTheHeapIsShortAndRunningOnesAreStillServed() {
    createRunning("running", 2);
    collected(950);
    assertThat(heap.level()).isEqualTo(HeapLevel.SHORT);

    create(TestJobs.job("waiting").workers(2).build());
    // a running job that lost a pod still gets it back: it is not held
    client.pods().inNamespace("default").withName(pods("running").get(0).getMetadata().getName()).delete();
    await().untilAsserted(() -> assertThat(pods("running")).hasSize(2));
    await().untilAsserted(() -> assertThat(scrape().value("stint_jobs_held_total", "reason", "heap"))
        .isGreaterThanOrEqualTo(1.0));
    assertThat(pods("waiting")).as("held back while the heap is short").isEmpty();
    assertThat(status("waiting").isTrue("Created")).as("the job is seen and says it exists").isTrue();
    assertThat(scrape().value("stint_heap_pressure")).isEqualTo(2.0);
    assertThat(scrape().value("stint_heap_live_bytes")).isEqualTo(950.0);

    collected(600);
    assertThat(heap.level()).isEqualTo(HeapLevel.NORMAL);
    await().untilAsserted(() -> assertThat(pods("waiting")).hasSize(2));
    assertThat(scrape().value("stint_heap_pressure")).isZero();
  }

  /** A collection that left {@code bytes} live. */
  private void collected(long bytes) {
    live.set(bytes);
    heap.evaluate();
  }
}
