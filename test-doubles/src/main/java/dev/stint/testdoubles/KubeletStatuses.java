package dev.stint.testdoubles;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.util.List;

/**
 * Pod statuses of pods that exist and cannot run, as the scheduler and the kubelet write them, word for word: for
 * tests of what a job shows then.
 */
public final class KubeletStatuses {
  /** A time in the past, for transitions the tests do not measure. */
  public static final String LONG_AGO = "2026-01-01T00:00:00Z";
  /** The scheduler's words for a pod that asks for more GPUs than any node has. */
  public static final String NO_GPU = "0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes "
      + "are available: 4 No preemption victims found for incoming pod.";

  private KubeletStatuses() { }

  /** Pending, {@code PodScheduled=False} with reason Unschedulable and the scheduler's message. */
  public static PodStatus unschedulable(String message) {
    return new PodStatusBuilder().withPhase("Pending").withConditions(condition("PodScheduled", "False",
        "Unschedulable", message)).build();
  }

  /**
   * Pending on a node, every container waiting for {@code reason} with the kubelet's {@code message}
   * ({@code ErrImagePull}, {@code ImagePullBackOff}, {@code CreateContainerConfigError}, ...).
   */
  public static PodStatus waiting(List<String> containers, String reason, String message) {
    return new PodStatusBuilder().withPhase("Pending").withStartTime(LONG_AGO)
        .withConditions(condition("PodScheduled", "True", null, null))
        .withContainerStatuses(containers.stream().map(c -> new ContainerStatusBuilder().withName(c)
            .withImage("busybox").withReady(false).withRestartCount(0)
            .withNewState().withNewWaiting().withReason(reason).withMessage(message).endWaiting().endState()
            .build()).toList())
        .build();
  }

  /**
   * Running, its first container in {@code CrashLoopBackOff} after exiting with {@code exitCode} (reason Error) three
   * times; the other containers running.
   */
  public static PodStatus crashLooping(String pod, List<String> containers, int exitCode) {
    List<ContainerStatus> statuses = containers.stream().map(c -> c.equals(containers.get(0))
        ? new ContainerStatusBuilder().withName(c).withImage("busybox").withReady(false).withRestartCount(3)
            .withNewState().withNewWaiting().withReason("CrashLoopBackOff")
            .withMessage("back-off 40s restarting failed container=" + c + " pod=" + pod + "_default(uid)")
            .endWaiting().endState()
            .withNewLastState().withNewTerminated().withExitCode(exitCode).withReason("Error")
            .withStartedAt(LONG_AGO).withFinishedAt(LONG_AGO).endTerminated().endLastState().build()
        : running(c)).toList();
    return new PodStatusBuilder().withPhase("Running").withStartTime(LONG_AGO)
        .withConditions(condition("PodScheduled", "True", null, null)).withContainerStatuses(statuses).build();
  }

  /** Pending, its init container running since {@code startedAt}, its containers waiting for it. */
  public static PodStatus initializing(String initContainer, List<String> containers, String startedAt) {
    return new PodStatusBuilder().withPhase("Pending").withStartTime(startedAt)
        .withConditions(condition("PodScheduled", "True", null, null))
        .withInitContainerStatuses(new ContainerStatusBuilder().withName(initContainer).withImage("busybox")
            .withReady(false).withRestartCount(0).withNewState().withNewRunning().withStartedAt(startedAt)
            .endRunning().endState().build())
        .withContainerStatuses(containers.stream().map(c -> new ContainerStatusBuilder().withName(c)
            .withImage("busybox").withReady(false).withRestartCount(0)
            .withNewState().withNewWaiting().withReason("PodInitializing").endWaiting().endState().build()).toList())
        .build();
  }

  /** Running, every container running and ready. */
  public static PodStatus running(List<String> containers) {
    return new PodStatusBuilder().withPhase("Running").withStartTime(LONG_AGO)
        .withConditions(condition("PodScheduled", "True", null, null))
        .withContainerStatuses(containers.stream().map(KubeletStatuses::running).toList()).build();
  }

  private static ContainerStatus running(String container) {
    return new ContainerStatusBuilder().withName(container).withImage("busybox").withReady(true).withRestartCount(0)
        .withNewState().withNewRunning().withStartedAt(LONG_AGO).endRunning().endState().build();
  }

  private static PodCondition condition(String type, String status, String reason, String message) {
    return new PodConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message)
        .withLastTransitionTime(LONG_AGO).build();
  }
}
