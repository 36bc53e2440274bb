package dev.stint.e2e;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The status writes a job controller makes on a Workload, as verified on Kueue v0.17.0 (kueue-native.md §9), for the
 * harness to play the controller's part with hand-made Workloads.
 */
final class WorkloadRelease {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  /** Eviction reasons after which Kueue expects Requeued=True (jobframework reconciler, step 6). */
  private static final Set<String> REQUEUED_REASONS = Set.of("Preempted", "NodeFailures");

  private WorkloadRelease() { }

  /**
   * The merge patch that clears an evicted Workload's admission: {@code metadata.resourceVersion} as a lock,
   * {@code admission: null} and the whole conditions list (a merge patch replaces the list), with QuotaReserved,
   * Admitted, PodsReady and Requeued rewritten. Never clear the admission alone: QuotaReserved=True without
   * admission crashes Kueue v0.17.0.
   */
  static String patch(KueueWorkload workload) {
    String evicted = workload.condition("Evicted").filter(c -> "True".equals(c.getStatus()))
        .map(Condition::getReason)
        .orElseThrow(() -> new IllegalStateException("not evicted, nothing to release: " + workload));
    boolean requeued = REQUEUED_REASONS.contains(evicted);
    List<Condition> conditions = new ArrayList<>(workload.conditions());
    put(conditions, condition("QuotaReserved", false, "Pending", "The workload was evicted: " + evicted));
    put(conditions, condition("Admitted", false, "NoReservation", "The workload has no reservation"));
    put(conditions, condition("PodsReady", false, "WaitForStart", "The workload's pods were stopped"));
    put(conditions, condition("Requeued", requeued, evicted, "Evicted: " + evicted));
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("admission", null);
    status.put("conditions", conditions);
    return JSON.asJson(Map.of("metadata", Map.of("resourceVersion", workload.resourceVersion()), "status", status));
  }

  /**
   * A server-side apply body of {@code Finished=True (Succeeded)}. Apply it with a field manager of its own: a manager
   * owns every condition it applied, and an apply without one of them removes it.
   */
  static String finishedApply(String namespace, String name) {
    return applyCondition(namespace, name, condition("Finished", true, "Succeeded", "Job finished successfully"));
  }

  /** A server-side apply body of {@code PodsReady=True (Started)}, with a field manager of its own as above. */
  static String podsReadyApply(String namespace, String name) {
    return applyCondition(namespace, name, condition("PodsReady", true, "Started", "All pods reached readiness"));
  }

  private static String applyCondition(String namespace, String name, Condition condition) {
    return JSON.asJson(Map.of("apiVersion", "kueue.x-k8s.io/v1beta2", "kind", "Workload",
        "metadata", Map.of("name", name, "namespace", namespace),
        "status", Map.of("conditions", List.of(condition))));
  }

  /** Replaces the condition of the same type (keeping its transition time when the status stays), or appends it. */
  private static void put(List<Condition> conditions, Condition next) {
    for (int i = 0; i < conditions.size(); i++) {
      Condition old = conditions.get(i);
      if (old.getType().equals(next.getType())) {
        if (old.getStatus().equals(next.getStatus())) {
          next.setLastTransitionTime(old.getLastTransitionTime());
        }
        conditions.set(i, next);
        return;
      }
    }
    conditions.add(next);
  }

  private static Condition condition(String type, boolean status, String reason, String message) {
    return new ConditionBuilder().withType(type).withStatus(status ? "True" : "False").withReason(reason)
        .withMessage(message).withLastTransitionTime(Instant.now().truncatedTo(ChronoUnit.SECONDS).toString())
        .build();
  }
}
