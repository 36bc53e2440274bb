package dev.stint.tensorflow;

import dev.stint.spi.ReplicaId;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.util.Map;

/**
 * Observed TFJob pods as the kubelet would leave them: {@code TestTFPods.of(job, "Worker", 1).failed(137)}. Like
 * core's {@code TestPods}, but with the TFJob labels and the exit code in the {@code tensorflow} container, whose
 * exit code is the one the engine reads.
 */
final class TestTFPods {
  private final Pod pod;

  private TestTFPods(TFJob job, String type, int index) {
    ReplicaId replica = new ReplicaId(type, index);
    String jobName = job.getMetadata().getName();
    pod = new PodBuilder().withNewMetadata().withName(replica.podName(jobName))
        .withNamespace(job.getMetadata().getNamespace())
        .addToLabels(Map.of(
            "training.kubeflow.org/operator-name", "tfjob-controller",
            "training.kubeflow.org/job-name", jobName,
            "training.kubeflow.org/replica-type", replica.typeLabel(),
            "training.kubeflow.org/replica-index", String.valueOf(index)))
        .withCreationTimestamp("2026-01-01T00:00:00Z")
        .endMetadata().withNewSpec().addNewContainer().withName(TFConfig.CONTAINER).withImage(TestTFJobs.IMAGE)
        .endContainer().endSpec().build();
  }

  static TestTFPods of(TFJob job, String type, int index) {
    return new TestTFPods(job, type, index);
  }

  Pod pending() { return phase("Pending", null); }

  Pod running() { return phase("Running", null); }

  Pod succeeded() { return phase("Succeeded", 0); }

  Pod failed(int exitCode) { return phase("Failed", exitCode); }

  private Pod phase(String phase, Integer exitCode) {
    var status = new ContainerStatusBuilder().withName(TFConfig.CONTAINER).withRestartCount(0);
    if (exitCode != null) {
      status.withNewState().withNewTerminated().withExitCode(exitCode).endTerminated().endState();
    } else if ("Running".equals(phase)) {
      status.withNewState().withNewRunning().endRunning().endState();
    }
    pod.setStatus(new PodStatusBuilder().withPhase(phase).withContainerStatuses(status.build()).build());
    return pod;
  }
}
