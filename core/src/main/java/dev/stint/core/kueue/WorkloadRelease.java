package dev.stint.core.kueue;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The status write that hands an evicted Workload's quota back once its pods are gone, as Kueue v0.17 expects
 * (verified against it, docs/kueue.md): {@code admission: null} together with the whole conditions list,
 * {@code QuotaReserved=False}, {@code Admitted=False}, {@code Requeued} per the eviction's reason and
 * {@code PodsReady=False}. Never admission alone: {@code QuotaReserved=True} without an admission crashes Kueue.
 */
public final class WorkloadRelease {

  private WorkloadRelease() { }

  /** Reasons after which Kueue requeues the Workload at once ({@code Requeued=True}). */
  private static final List<String> REQUEUED_AT_ONCE = List.of("Preempted", "NodeFailures");

  /**
   * The merge patch body for {@code /status}.
   *
   * @param evicted the Workload's {@code Evicted=True} condition
   * @param now the transition time of the conditions that change, RFC 3339
   */
  public static Map<String, Object> body(WorkloadView workload, WorkloadCondition evicted, String now) {
    Long generation = workload.generation();
    boolean requeued = REQUEUED_AT_ONCE.contains(evicted.reason());
    List<WorkloadCondition> conditions = workload.conditions();
    conditions = WorkloadCondition.set(conditions, new WorkloadCondition("QuotaReserved", "False", "Pending",
        "The workload has no reservation", now, generation));
    conditions = WorkloadCondition.set(conditions, new WorkloadCondition("Admitted", "False", "NoReservation",
        "The workload has no reservation", now, generation));
    conditions = WorkloadCondition.set(conditions, new WorkloadCondition("Requeued", requeued ? "True" : "False",
        evicted.reason(), evicted.message(), now, generation));
    conditions = WorkloadCondition.set(conditions, new WorkloadCondition("PodsReady", "False", "WaitForStart",
        "Not all pods are ready or succeeded", now, generation));
    Map<String, Object> status = new HashMap<>(); // HashMap: admission must be written as null
    status.put("admission", null);
    status.put("conditions", conditions.stream().map(WorkloadCondition::toMap).toList());
    Map<String, Object> body = new LinkedHashMap<>(); // the lock first, for whoever reads the patch
    body.put("metadata", Map.of("resourceVersion", workload.resourceVersion()));
    body.put("status", status);
    return body;
  }
}
