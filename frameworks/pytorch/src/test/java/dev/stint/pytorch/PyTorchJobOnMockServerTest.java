package dev.stint.pytorch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.spi.TrainingFramework;
import dev.stint.testkit.FrameworkOnMockServerTest;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PyTorchJobs through the engine on the fabric8 CRUD mock server, with a fake kubelet. */
class PyTorchJobOnMockServerTest extends FrameworkOnMockServerTest<PyTorchJob> {

  @Override
  protected TrainingFramework<PyTorchJob> framework() {
    return new PyTorchFramework();
  }

  @Test
  void masterAndTwoWorkersGetUpstreamNamesEnvAndConditions() {
    client.resource(TestPyTorchJobs.job("test-job").master(1).workers(2).build()).create();
    await().untilAsserted(() -> assertThat(pods("test-job")).extracting(p -> p.getMetadata().getName())
        .containsExactlyInAnyOrder("test-job-master-0", "test-job-worker-0", "test-job-worker-1"));

    assertThat(env(pod("test-job-worker-1"))).containsExactly("PYTHONUNBUFFERED=1", "MASTER_PORT=23456",
        "PET_MASTER_PORT=23456", "MASTER_ADDR=test-job-master-0", "PET_MASTER_ADDR=test-job-master-0", "WORLD_SIZE=3",
        "RANK=2", "PET_NODE_RANK=2", "PET_NPROC_PER_NODE=auto", "PET_NNODES=3");
    assertThat(env(pod("test-job-master-0"))).contains("RANK=0");
    assertThat(pod("test-job-master-0").getSpec().getInitContainers()).isNullOrEmpty();
    assertThat(pod("test-job-worker-1").getSpec().getInitContainers()).extracting(Container::getName)
        .containsExactly("init-pytorch");
    assertThat(pod("test-job-master-0").getMetadata().getLabels())
        .containsEntry("training.kubeflow.org/operator-name", "pytorchjob-controller")
        .containsEntry("training.kubeflow.org/job-role", "master");
    assertThat(pod("test-job-worker-0").getSpec().getRestartPolicy()).isEqualTo("OnFailure");

    await().untilAsserted(() -> assertThat(services()).hasSize(3));
    assertHeadlessWithOnePort("test-job-master-0", "pytorchjob-port:23456");

    kubelet.runAll(pods("test-job"));
    await().untilAsserted(() -> assertThat(conditions("test-job")).containsExactly(
        "Created=True/PyTorchJobCreated: PyTorchJob test-job is created.",
        "Running=True/PyTorchJobRunning: PyTorchJob test-job is running."));
    assertThat(status("test-job").getReplicaStatuses().get("Worker").getSelector())
        .isEqualTo("training.kubeflow.org/job-name=test-job,training.kubeflow.org/operator-name=pytorchjob-controller,"
            + "training.kubeflow.org/replica-type=worker");

    kubelet.succeed("test-job-master-0");
    await().untilAsserted(() -> assertThat(conditions("test-job")).containsExactly(
        "Created=True/PyTorchJobCreated: PyTorchJob test-job is created.",
        "Running=False/PyTorchJobRunning: PyTorchJob test-job is running.",
        "Succeeded=True/PyTorchJobSucceeded: PyTorchJob test-job is successfully completed."));
    await().untilAsserted(() -> assertThat(pods("test-job")).extracting(p -> p.getMetadata().getName())
        .containsExactly("test-job-master-0"));
  }

  @Test
  void workerOnlyJobSucceedsWhenAllWorkersDo() {
    client.resource(TestPyTorchJobs.job("wo").workers(2).build()).create();
    await().untilAsserted(() -> assertThat(pods("wo")).hasSize(2));
    assertThat(env(pod("wo-worker-0"))).containsExactly("PYTHONUNBUFFERED=1", "PET_NPROC_PER_NODE=auto",
        "PET_NNODES=2");
    assertThat(pod("wo-worker-0").getMetadata().getLabels()).containsEntry("training.kubeflow.org/job-role", "master");
    assertThat(pod("wo-worker-1").getSpec().getInitContainers()).isNullOrEmpty();
    kubelet.runAll(pods("wo"));
    await().untilAsserted(() -> assertThat(status("wo").isTrue("Running")).isTrue());
    kubelet.succeed("wo-worker-0");
    await().untilAsserted(() -> assertThat(status("wo").getReplicaStatuses().get("Worker").succeeded()).isEqualTo(1));
    assertThat(status("wo").isTrue("Succeeded")).isFalse();
    kubelet.succeed("wo-worker-1");
    // an assertion, not orElseThrow: await retries only failed assertions, and the status may not be written yet
    await().untilAsserted(() -> assertThat(status("wo").condition("Succeeded")).hasValueSatisfying(c ->
        assertThat(c.getMessage()).isEqualTo("PyTorchJob default/wo successfully completed.")));
  }

  @Test
  void elasticJobGetsAnAutoscalerThatSuspendRemovesAndAnyWorkerSuccessEndsIt() {
    client.resource(TestPyTorchJobs.job("el").workers(2).elastic(e -> {
      e.setMinReplicas(1);
      e.setMaxReplicas(3);
      e.setMetrics(List.of(TestPyTorchJobs.cpuUtilization(80)));
    }).build()).create();
    await().untilAsserted(() -> assertThat(pods("el")).hasSize(2));
    assertThat(env(pod("el-worker-1"))).contains("PET_RDZV_ENDPOINT=el-worker-0:23456", "PET_RDZV_BACKEND=c10d",
        "PET_NNODES=1:3");
    await().untilAsserted(() -> assertThat(hpa("el")).isNotNull());
    assertThat(hpa("el").getSpec().getScaleTargetRef().getKind()).isEqualTo("PyTorchJob");
    assertThat(hpa("el").getSpec().getMaxReplicas()).isEqualTo(3);

    suspend("el", true);
    await().untilAsserted(() -> assertThat(pods("el")).isEmpty());
    await().untilAsserted(() -> assertThat(hpa("el")).isNull());
    await().untilAsserted(() -> assertThat(conditions("el")).containsExactly(
        "Created=True/PyTorchJobCreated: PyTorchJob el is created.",
        "Suspended=True/PyTorchJobSuspended: PyTorchJob el is suspended."));

    suspend("el", false);
    await().untilAsserted(() -> assertThat(pods("el")).hasSize(2));
    await().untilAsserted(() -> assertThat(hpa("el")).isNotNull());
    kubelet.runAll(pods("el"));
    kubelet.succeed("el-worker-1");
    await().untilAsserted(() -> assertThat(status("el").isTrue("Succeeded")).isTrue());
  }

  /** Four Workers that are never restarted, and the rule "this many Workers succeeded". */
  static PyTorchJob fourWorkersNeverRestartedSucceedingWith(String name, int workers) {
    PyTorchJob job = TestPyTorchJobs.job(name).workers(4).build();
    job.getSpec().getPytorchReplicaSpecs().get("Worker").setRestartPolicy("Never");
    job.getSpec().setRunPolicy(new dev.stint.spi.api.RunPolicy());
    var rule = new dev.stint.spi.api.SuccessRule();
    rule.setSucceeded(java.util.Map.of("Worker", workers));
    var policy = new dev.stint.spi.api.SuccessPolicySpec();
    policy.setRules(List.of(rule));
    job.getSpec().getRunPolicy().setSuccessPolicy(policy);
    return job;
  }

  HorizontalPodAutoscaler hpa(String name) {
    return client.autoscaling().v2().horizontalPodAutoscalers().inNamespace("default").withName(name).get();
  }

  @Test
  void threeOfFourWorkersIsAPartialSuccessAndTheFourthIsStopped() {
    client.resource(fourWorkersNeverRestartedSucceedingWith("pp", 3)).create();
    await().untilAsserted(() -> assertThat(pods("pp")).hasSize(4));
    kubelet.runAll(pods("pp"));
    await().untilAsserted(() -> assertThat(status("pp").isTrue("Running")).isTrue());

    kubelet.fail("pp-worker-1", 1);
    kubelet.succeed("pp-worker-0");
    kubelet.succeed("pp-worker-2");
    await().untilAsserted(() -> assertThat(status("pp").getReplicaStatuses().get("Worker").getFailedIndexes())
        .isEqualTo("1"));
    assertThat(status("pp").isTrue("Failed")).isFalse();
    kubelet.succeed("pp-worker-3");
    await().untilAsserted(() -> assertThat(status("pp").isTrue("Succeeded")).isTrue());
    String message = "PyTorchJob pp partially succeeded: Worker 1 failed (exit code 1)";
    assertThat(conditions("pp")).containsExactly(
        "Created=True/PyTorchJobCreated: PyTorchJob pp is created.",
        "Running=False/PyTorchJobRunning: PyTorchJob default/pp is running.",
        "PartiallySucceeded=True/PyTorchJobPartiallySucceeded: " + message,
        "Succeeded=True/PyTorchJobPartiallySucceeded: " + message);
    assertThat(status("pp").getOutcome()).isEqualTo("PartiallySucceeded");
    assertThat(status("pp").getReplicaStatuses().get("Worker").getSucceededIndexes()).isEqualTo("0,2-3");
  }

  @Test
  void partialSuccessStopsTheReplicaStillRunning() {
    client.resource(fourWorkersNeverRestartedSucceedingWith("stop", 2)).create();
    await().untilAsserted(() -> assertThat(pods("stop")).hasSize(4));
    kubelet.runAll(pods("stop"));
    kubelet.fail("stop-worker-3", 1);
    kubelet.succeed("stop-worker-0");
    kubelet.succeed("stop-worker-1");
    await().untilAsserted(() -> assertThat(status("stop").getOutcome()).isEqualTo("PartiallySucceeded"));
    // worker 2 was still running: stopped; the finished pods stay (cleanPodPolicy None)
    await().untilAsserted(() -> assertThat(pods("stop")).extracting(p -> p.getMetadata().getName())
        .containsExactlyInAnyOrder("stop-worker-0", "stop-worker-1", "stop-worker-3"));
  }

  @Test
  void invalidPyTorchJobFailsNamingTheFieldWhileAnotherRuns() {
    assertInvalidJobFailsWhileAnotherRuns(TestPyTorchJobs.job("bad").master(2).workers(1).build(),
        TestPyTorchJobs.job("fine").workers(1).build(), "PyTorchJobFailedValidation",
        "spec.pytorchReplicaSpecs.Master.replicas", 1);
  }

}
