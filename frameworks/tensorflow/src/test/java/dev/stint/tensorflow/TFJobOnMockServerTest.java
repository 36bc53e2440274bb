package dev.stint.tensorflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.spi.TrainingFramework;
import dev.stint.spi.api.JobCondition;
import dev.stint.testkit.FrameworkOnMockServerTest;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

/** TFJobs through the engine on the fabric8 CRUD mock server, with a fake kubelet. */
class TFJobOnMockServerTest extends FrameworkOnMockServerTest<TFJob> {

  @Override
  protected TrainingFramework<TFJob> framework() {
    return new TensorFlowFramework("");
  }

  static String tfConfig(Pod pod) {
    Container tensorflow = pod.getSpec().getContainers().stream().filter(c -> "tensorflow".equals(c.getName()))
        .findFirst().orElseThrow();
    return tensorflow.getEnv().stream().filter(e -> "TF_CONFIG".equals(e.getName())).map(EnvVar::getValue)
        .findFirst().orElseThrow();
  }

  @Test
  void distributedJobGetsUpstreamPodsServicesTfConfigAndConditions() {
    client.resource(TestTFJobs.job("dist").chief(1).workers(2).ps(1).build()).create();
    await().untilAsserted(() -> assertThat(podNames("dist"))
        .containsExactlyInAnyOrder("dist-chief-0", "dist-ps-0", "dist-worker-0", "dist-worker-1"));

    assertThat(tfConfig(pod("dist-worker-1"))).isEqualTo(
        "{\"cluster\":{\"chief\":[\"dist-chief-0.default.svc:2222\"],\"ps\":[\"dist-ps-0.default.svc:2222\"],"
            + "\"worker\":[\"dist-worker-0.default.svc:2222\",\"dist-worker-1.default.svc:2222\"]},"
            + "\"task\":{\"type\":\"worker\",\"index\":1},\"environment\":\"cloud\"}");
    assertThat(pod("dist-chief-0").getMetadata().getLabels())
        .containsEntry("training.kubeflow.org/operator-name", "tfjob-controller")
        .containsEntry("training.kubeflow.org/replica-type", "chief")
        .containsEntry("training.kubeflow.org/job-role", "master");
    assertThat(pod("dist-worker-0").getMetadata().getLabels()).doesNotContainKey("training.kubeflow.org/job-role");
    assertThat(pod("dist-ps-0").getSpec().getRestartPolicy()).isEqualTo("Never");

    await().untilAsserted(() -> assertThat(services()).hasSize(4));
    assertHeadlessWithOnePort("dist-ps-0", "tfjob-port:2222");

    kubelet.runAll(pods("dist"));
    await().untilAsserted(() -> assertThat(conditions("dist")).containsExactly(
        "Created=True/TFJobCreated: TFJob dist is created.",
        "Running=True/TFJobRunning: TFJob default/dist is running."));

    kubelet.succeed("dist-chief-0");
    await().untilAsserted(() -> assertThat(conditions("dist")).containsExactly(
        "Created=True/TFJobCreated: TFJob dist is created.",
        "Running=False/TFJobRunning: TFJob default/dist is running.",
        "Succeeded=True/TFJobSucceeded: TFJob default/dist successfully completed."));
    // the parameter server and the workers are stopped once the chief has finished training
    await().untilAsserted(() -> assertThat(podNames("dist")).containsExactly("dist-chief-0"));
  }

  @Test
  void jobWithoutChiefSucceedsWithWorkerZero() {
    client.resource(TestTFJobs.job("mnist").workers(2).ps(1).build()).create();
    await().untilAsserted(() -> assertThat(pods("mnist")).hasSize(3));
    assertThat(pod("mnist-worker-0").getMetadata().getLabels())
        .containsEntry("training.kubeflow.org/job-role", "master");
    kubelet.runAll(pods("mnist"));
    await().untilAsserted(() -> assertThat(status("mnist").isTrue("Running")).isTrue());

    kubelet.succeed("mnist-worker-1");
    await().untilAsserted(() -> assertThat(status("mnist").getReplicaStatuses().get("Worker").succeeded())
        .isEqualTo(1));
    assertThat(status("mnist").isTrue("Succeeded")).isFalse();

    kubelet.succeed("mnist-worker-0");
    await().untilAsserted(() -> assertThat(status("mnist").condition("Succeeded").map(JobCondition::getMessage))
        .contains("TFJob default/mnist successfully completed."));
    assertThat(status("mnist").getReplicaStatuses().get("Worker").getSucceededIndexes()).isEqualTo("0-1");
  }

  @Test
  void failedParameterServerFailsTheJob() {
    client.resource(TestTFJobs.job("psfail").workers(2).ps(1).build()).create();
    await().untilAsserted(() -> assertThat(pods("psfail")).hasSize(3));
    kubelet.runAll(pods("psfail"));

    kubelet.fail("psfail-ps-0", 1);
    await().untilAsserted(() -> assertThat(status("psfail").isTrue("Failed")).isTrue());
    assertThat(status("psfail").condition("Failed").orElseThrow().getReason()).isEqualTo("TFJobFailed");
    assertThat(status("psfail").condition("Failed").orElseThrow().getMessage())
        .isEqualTo("TFJob default/psfail has failed because 1 PS replica(s) failed. PS 0 failed (exit code 1).");
    await().untilAsserted(() -> assertThat(podNames("psfail")).containsExactly("psfail-ps-0"));
  }

  @Test
  void invalidTfJobFailsNamingTheFieldWhileAnotherRuns() {
    assertInvalidJobFailsWhileAnotherRuns(TestTFJobs.job("bad").chief(2).workers(1).build(),
        TestTFJobs.job("fine").workers(1).build(), "TFJobFailedValidation",
        "spec.tfReplicaSpecs.Chief.replicas: must be 1", 1);
    // a single process trains locally: no TF_CONFIG
    assertThat(pod("fine-worker-0").getSpec().getContainers().get(0).getEnv()).isNullOrEmpty();
  }
}
