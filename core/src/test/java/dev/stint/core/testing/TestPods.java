package dev.stint.core.testing;

import dev.stint.core.model.JobLabels;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.util.Locale;

/** Observed pods as the kubelet would leave them: {@code TestPods.of(job, "Worker", 1).failed(137)}. */
public final class TestPods {
  private final Pod pod;

  private TestPods(TestJob job, String type, int index) {
    String typeLabel = type.toLowerCase(Locale.ROOT);
    String name = job.getMetadata().getName() + "-" + typeLabel + "-" + index;
    pod = new PodBuilder().withNewMetadata().withName(name).withNamespace("default")
        .addToLabels(JobLabels.ofReplica("testjob-controller", job.getMetadata().getName(),
            new dev.stint.spi.ReplicaId(type, index)))
        .withCreationTimestamp("2026-01-01T00:00:00Z")
        .endMetadata().withNewSpec().endSpec().build();
  }

  public static TestPods of(TestJob job, String type, int index) {
    return new TestPods(job, type, index);
  }

  public Pod pending() { return phase("Pending", null); }

  public Pod running() { return running(0); }

  public Pod running(int restarts) {
    Pod p = phase("Running", null);
    p.getStatus().getContainerStatuses().get(0).setRestartCount(restarts);
    return p;
  }

  public Pod succeeded() { return phase("Succeeded", 0); }

  public Pod failed(int exitCode) { return phase("Failed", exitCode); }

  public Pod terminating() {
    Pod p = running();
    p.getMetadata().setDeletionTimestamp("2026-01-01T00:00:10Z");
    return p;
  }

  private Pod phase(String phase, Integer exitCode) {
    var cs = new ContainerStatusBuilder().withName("main").withRestartCount(0);
    if (exitCode != null) {
      cs.withNewState().withNewTerminated().withExitCode(exitCode).endTerminated().endState();
    } else if ("Running".equals(phase)) {
      cs.withNewState().withNewRunning().endRunning().endState();
    }
    PodStatus status = new PodStatusBuilder().withPhase(phase).withContainerStatuses(cs.build()).build();
    pod.setStatus(status);
    return pod;
  }
}
