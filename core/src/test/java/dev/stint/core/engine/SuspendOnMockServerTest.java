package dev.stint.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.core.testing.TestJobs;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.Test;

/** Suspend and resume under races: mid-creation, flapping, and an operator restart while suspended. */
@EnableKubernetesMockClient(crud = true)
class SuspendOnMockServerTest extends MockServerEngineTest {

  /** As {@code kubectl patch --type merge} does it: no resource version, so it never conflicts. */
  void suspend(String name, boolean suspend) {
    client.resources(TestJob.class).inNamespace("default").withName(name).patch(
        PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"runPolicy\":{\"suspend\":" + suspend + "}}}");
  }

  @Test
  void suspendRightAfterCreationLeavesNoPodEvenIfCreatesWereInFlight() {
    create(TestJobs.job("early").workers(4).build());
    suspend("early", true);
    await().untilAsserted(() -> assertThat(status("early").isTrue("Suspended")).isTrue());
    await().untilAsserted(() -> assertThat(pods("early")).isEmpty());
    assertThat(status("early").getReplicaStatuses().get("Worker").active()).isZero();
  }

  @Test
  void flappingConvergesToTheLastRequest() {
    create(TestJobs.job("flap").workers(3).build());
    await().untilAsserted(() -> assertThat(pods("flap")).hasSize(3));
    for (int i = 0; i < 5; i++) {
      suspend("flap", true);
      suspend("flap", false);
    }
    await().untilAsserted(() -> assertThat(pods("flap")).hasSize(3));
    kubelet.runAll(pods("flap"));
    await().untilAsserted(() -> assertThat(status("flap").isTrue("Running")).isTrue());
    assertThat(status("flap").isTrue("Suspended")).isFalse();

    suspend("flap", true);
    suspend("flap", false);
    suspend("flap", true);
    await().untilAsserted(() -> assertThat(pods("flap")).isEmpty());
    await().untilAsserted(() -> assertThat(status("flap").isTrue("Suspended")).isTrue());
    await().untilAsserted(() -> assertThat(scrape().value("stint_suspend_to_no_pods_seconds_count", "kind", "TestJob"))
        .isPositive());
    assertThat(scrape().value("stint_resume_to_running_seconds_count", "kind", "TestJob")).isPositive();
  }

  @Test
  void operatorRestartWhileSuspendedKeepsTheJobSuspendedAndCountsNothingTwice() {
    createRunning("asleep", 2);
    suspend("asleep", true);
    await().untilAsserted(() -> assertThat(status("asleep").getSuspensions()).isEqualTo(1));
    restartOperator();
    create(TestJobs.job("marker").workers(1).build());
    await().untilAsserted(() -> assertThat(pods("marker")).hasSize(1));
    assertThat(pods("asleep")).isEmpty();
    assertThat(status("asleep").getSuspensions()).isEqualTo(1);
    assertThat(events("TestJobSuspended")).isEqualTo(1);

    suspend("asleep", false);
    await().untilAsserted(() -> assertThat(pods("asleep")).hasSize(2));
    await().untilAsserted(() -> assertThat(events("TestJobResumed")).isEqualTo(1));
  }
}
