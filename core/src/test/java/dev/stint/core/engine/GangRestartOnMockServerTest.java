package dev.stint.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.core.testing.TestJobs;
import dev.stint.spi.api.FailurePolicySpec;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A failure policy's gang restart through JOSDK, the informers and the status writes, on the mock server. */
@EnableKubernetesMockClient(crud = true)
class GangRestartOnMockServerTest extends MockServerEngineTest {
  static final String ATTEMPT = "training.kubeflow.org/restart-attempt";

  void createRunningWithPolicy(String name, int workers, int maxRestarts, String strategy) {
    FailurePolicySpec policy = new FailurePolicySpec();
    policy.setMaxRestarts(maxRestarts);
    policy.setRestartStrategy(strategy);
    create(TestJobs.job(name).workers(workers).runPolicy(p -> p.setFailurePolicy(policy)).build());
    await().untilAsserted(() -> assertThat(pods(name)).hasSize(workers));
    kubelet.runAll(pods(name));
    await().untilAsserted(() -> assertThat(status(name).isTrue("Running")).isTrue());
  }

  Map<String, String> attempts(String job) {
    return pods(job).stream().collect(Collectors.toMap(p -> p.getMetadata().getName(),
        p -> p.getMetadata().getLabels().get(ATTEMPT)));
  }

  List<String> uids(String job) {
    return pods(job).stream().map(p -> p.getMetadata().getUid()).sorted().toList();
  }

  @Test
  void oneWorkerFailingRestartsEveryPodAndTheNextAttemptRuns() {
    createRunningWithPolicy("gang", 3, 2, null);
    List<String> before = uids("gang");
    kubelet.fail("gang-worker-1", 137);

    await().untilAsserted(() -> assertThat(attempts("gang")).containsOnly(Map.entry("gang-worker-0", "1"),
        Map.entry("gang-worker-1", "1"), Map.entry("gang-worker-2", "1")));
    assertThat(uids("gang")).doesNotContainAnyElementsOf(before);
    assertThat(status("gang").getRestarts()).isEqualTo(1);
    assertThat(status("gang").getRestartsCountTowardsMax()).isEqualTo(1);
    assertThat(status("gang").condition("Restarting").orElseThrow().getMessage())
        .contains("Worker 1 exited with code 137");
    Pod pod = pods("gang").get(0);
    assertThat(pod.getSpec().getContainers().get(0).getEnv())
        .anySatisfy(e -> assertThat(e.getName() + "=" + e.getValue()).isEqualTo("STINT_RESTART_ATTEMPT=1"));

    kubelet.runAll(pods("gang"));
    await().untilAsserted(() -> assertThat(status("gang").isTrue("Running")).isTrue());
    assertThat(status("gang").getOutcome()).isEqualTo("Running");
    assertThat(events("TestJobMemberFailed")).isEqualTo(1);
    assertThat(scrape().value("stint_gang_restarts_total", "kind", "TestJob", "counted", "true")).isEqualTo(1.0);

    pods("gang").forEach(p -> kubelet.succeed(p.getMetadata().getName()));
    await().untilAsserted(() -> assertThat(status("gang").isTrue("Succeeded")).isTrue());
    assertThat(status("gang").getReplicaStatuses().get("Worker").getSucceededIndexes()).isEqualTo("0-2");
    assertThat(status("gang").getReplicaStatuses().get("Worker").getFailedIndexes()).isNull();
  }

  @Test
  void beyondMaxRestartsTheJobFailsNamingTheLimit() {
    createRunningWithPolicy("limit", 2, 1, "BlockingRecreate");
    kubelet.fail("limit-worker-0", 1);
    await().untilAsserted(() -> assertThat(attempts("limit").values()).hasSize(2).containsOnly("1"));
    kubelet.runAll(pods("limit"));
    await().untilAsserted(() -> assertThat(status("limit").isTrue("Running")).isTrue());

    kubelet.fail("limit-worker-1", 1);
    await().untilAsserted(() -> assertThat(status("limit").isTrue("Failed")).isTrue());
    assertThat(status("limit").condition("Failed").orElseThrow().getReason()).isEqualTo("TestJobReachedMaxRestarts");
    assertThat(status("limit").condition("Failed").orElseThrow().getMessage()).isEqualTo("TestJob limit failed: "
        + "Worker 1 exited with code 1, after 1 restart counted toward failurePolicy.maxRestarts (1).");
    await().untilAsserted(() -> assertThat(pods("limit")).extracting(p -> p.getMetadata().getName())
        .containsExactly("limit-worker-1"));
  }

  @Test
  void aSuspensionDuringARestartConvergesAndTheResumeStartsTheNextAttempt() {
    createRunningWithPolicy("pause", 3, 3, "BlockingRecreate");
    kubelet.fail("pause-worker-2", 137);
    client.resources(TestJob.class).inNamespace("default").withName("pause").patch(
        PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"runPolicy\":{\"suspend\":true}}}");
    await().untilAsserted(() -> assertThat(status("pause").isTrue("Suspended")).isTrue());
    await().untilAsserted(() -> assertThat(pods("pause")).isEmpty());
    int restarts = status("pause").getRestarts() == null ? 0 : status("pause").getRestarts();

    client.resources(TestJob.class).inNamespace("default").withName("pause").patch(
        PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"runPolicy\":{\"suspend\":false}}}");
    await().untilAsserted(() -> assertThat(attempts("pause").values()).hasSize(3)
        .containsOnly(Integer.toString(restarts)));
    kubelet.runAll(pods("pause"));
    await().untilAsserted(() -> assertThat(status("pause").isTrue("Running")).isTrue());
    assertThat(status("pause").getSuspensions()).isEqualTo(1);
    assertThat(status("pause").getRestarts() == null ? 0 : status("pause").getRestarts()).isEqualTo(restarts);
  }
}
