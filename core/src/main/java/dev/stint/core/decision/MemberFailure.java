package dev.stint.core.decision;

import dev.stint.spi.ReplicaId;
import dev.stint.spi.api.FailurePolicyRule;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One member of a gang that failed or was disrupted, as a failure policy reads it: who (replica type and index), the
 * exit code of its container, and every reason its pod gives ({@code DisruptionTarget} and that condition's reason,
 * the pod's {@code status.reason}, the container's terminated reason), so that a rule can match any of them and a
 * condition can say in words what happened ({@link #describe}).
 *
 * @param replica the member
 * @param exitCode the exit code of the container whose code counts ({@link PodState#UNKNOWN_EXIT_CODE} if none)
 * @param reasons the pod's failure reasons, most telling first
 * @param disruption the reason of the pod's {@code DisruptionTarget=True} condition; empty when not disrupted
 */
record MemberFailure(ReplicaId replica, int exitCode, Set<String> reasons, Optional<String> disruption) {

  MemberFailure {
    reasons = Set.copyOf(reasons);
  }

  /** The failure of a failed or disrupted pod. */
  static MemberFailure of(ReplicaId replica, Pod pod, String exitCodeContainer) {
    Set<String> reasons = new LinkedHashSet<>();
    Optional<PodCondition> target = disruptionTarget(pod);
    target.ifPresent(c -> {
      reasons.add(FailurePolicyRule.DISRUPTION_TARGET);
      if (c.getReason() != null) {
        reasons.add(c.getReason());
      }
    });
    if (pod.getStatus() != null && pod.getStatus().getReason() != null) {
      reasons.add(pod.getStatus().getReason());
    }
    terminatedReason(pod, exitCodeContainer).ifPresent(reasons::add);
    return new MemberFailure(replica, PodState.exitCode(pod, exitCodeContainer), reasons,
        target.map(c -> c.getReason() == null ? "" : c.getReason()));
  }

  boolean disrupted() {
    return disruption.isPresent();
  }

  /** What happened, in words: {@code Worker 3 exited with code 137}, {@code Worker 3's node was lost}. */
  String describe() {
    String who = replica.type() + " " + replica.index();
    if (disruption.isPresent()) {
      return who + disruptionWords(disruption.get());
    }
    if (reasons.contains("OOMKilled")) {
      return who + " was OOMKilled (exit code " + exitCode + ")";
    }
    if (reasons.contains("Evicted")) {
      return who + " was evicted by its node's kubelet";
    }
    if (reasons.contains("DeadlineExceeded")) {
      return who + " ran past its pod's activeDeadlineSeconds";
    }
    if (exitCode == PodState.UNKNOWN_EXIT_CODE) {
      return who + " failed without an exit code";
    }
    return who + " exited with code " + exitCode;
  }

  /** The words for a {@code DisruptionTarget} reason, from the pod's point of view. */
  private static String disruptionWords(String reason) {
    return switch (reason) {
      case "EvictionByEvictionAPI" -> " was evicted (its node was drained, or the Eviction API was called)";
      case "PreemptionByScheduler", "PreemptionByKubeScheduler" -> " was preempted by a pod of higher priority";
      case "DeletionByTaintManager" -> "'s node was tainted NoExecute";
      case "DeletionByPodGC" -> "'s node was lost";
      case "TerminationByKubelet" -> " was stopped by its node (shutdown or resource pressure)";
      default -> " was disrupted" + (reason.isEmpty() ? "" : " (" + reason + ")");
    };
  }

  private static Optional<PodCondition> disruptionTarget(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return pod.getStatus().getConditions().stream()
        .filter(c -> FailurePolicyRule.DISRUPTION_TARGET.equals(c.getType()) && "True".equals(c.getStatus()))
        .findFirst();
  }

  private static Optional<String> terminatedReason(Pod pod, String container) {
    List<ContainerStatus> statuses = pod.getStatus() == null ? null : pod.getStatus().getContainerStatuses();
    if (statuses == null) {
      return Optional.empty();
    }
    return statuses.stream().filter(s -> container.equals(s.getName()))
        .filter(s -> s.getState() != null && s.getState().getTerminated() != null)
        .map(s -> s.getState().getTerminated().getReason()).filter(r -> r != null && !r.isEmpty()).findFirst();
  }
}
