package dev.stint.core.decision;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;

/** How the engine classifies an observed pod. */
enum PodState {
  /** Not yet running (Pending, Unknown, or no status yet). */
  PENDING,
  RUNNING,
  SUCCEEDED,
  FAILED,
  /** Being deleted: counted as neither active, succeeded nor failed. */
  TERMINATING;

  /** Exit code used when the default container has no terminated state, as upstream ({@code 0xbeef}). */
  static final int UNKNOWN_EXIT_CODE = 0xbeef;

  static PodState of(Pod pod) {
    if (pod.getMetadata().getDeletionTimestamp() != null) {
      return TERMINATING;
    }
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    if (phase == null) {
      return PENDING;
    }
    return switch (phase) {
      case "Running" -> RUNNING;
      case "Succeeded" -> SUCCEEDED;
      case "Failed" -> FAILED;
      default -> PENDING;
    };
  }

  boolean finished() {
    return this == SUCCEEDED || this == FAILED;
  }

  /** Whether the pod may be waiting to start or to restart a container: pending or running, not being deleted. */
  boolean waitable() {
    return this == PENDING || this == RUNNING;
  }

  /** The exit code of the container named {@code container}, or {@link #UNKNOWN_EXIT_CODE}. */
  static int exitCode(Pod pod, String container) {
    List<ContainerStatus> statuses = pod.getStatus() == null ? null : pod.getStatus().getContainerStatuses();
    if (statuses == null) {
      return UNKNOWN_EXIT_CODE;
    }
    return statuses.stream()
        .filter(s -> container.equals(s.getName()))
        .filter(s -> s.getState() != null && s.getState().getTerminated() != null)
        .map(s -> s.getState().getTerminated().getExitCode())
        .filter(code -> code != null)
        .findFirst()
        .orElse(UNKNOWN_EXIT_CODE);
  }

  /** Whether Kubernetes marked the pod as disrupted (preemption, eviction, node drain): {@code DisruptionTarget=True}. */
  static boolean disrupted(Pod pod) {
    return pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions()
        .stream().anyMatch(c -> "DisruptionTarget".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  /** Container (and init container) restarts the kubelet made in this pod. */
  static int containerRestarts(Pod pod) {
    if (pod.getStatus() == null) {
      return 0;
    }
    int sum = 0;
    for (List<ContainerStatus> list : java.util.Arrays.asList(pod.getStatus().getContainerStatuses(),
        pod.getStatus().getInitContainerStatuses())) {
      if (list != null) {
        sum += list.stream().mapToInt(s -> s.getRestartCount() == null ? 0 : s.getRestartCount()).sum();
      }
    }
    return sum;
  }
}
