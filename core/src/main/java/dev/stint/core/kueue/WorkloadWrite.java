package dev.stint.core.kueue;

import java.util.Map;

/** A change to a job's Workload that {@link WorkloadSync} asks the I/O edge ({@link WorkloadWriter}) to make. */
public sealed interface WorkloadWrite {

  /** Create the job's Workload ({@link WorkloadFor}), its priority looked up first. */
  record Create() implements WorkloadWrite { }

  /** Adopt the prebuilt Workload of this name ({@link PrebuiltWorkload}), read first; none there yet: nothing. */
  record Adopt(String name) implements WorkloadWrite { }

  /**
   * Move the Workload to another LocalQueue and/or WorkloadPriorityClass (its value looked up first); a null field
   * stays as it is.
   */
  record SetQueueing(String queueName, String workloadPriorityClass) implements WorkloadWrite { }

  /** Set {@code spec.active}; {@code bySuspend} marks (or unmarks) it as the user's suspension. */
  record SetActive(boolean active) implements WorkloadWrite { }

  /**
   * Apply one status condition with server-side apply under a field manager of its own, which then owns that
   * condition alone (a merge patch of one condition would replace Kueue's whole list).
   */
  record ApplyCondition(WorkloadCondition condition, String fieldManager) implements WorkloadWrite { }

  /**
   * Hand the quota back after an eviction: one merge patch of {@code /status}, locked by the resource version it
   * carries ({@link WorkloadRelease}).
   */
  record Release(Map<String, Object> body) implements WorkloadWrite { }

  /**
   * Set {@code status.reclaimablePods} to these counts by podSet name, by server-side apply under Stint's own field
   * manager (Kueue's fields stay Kueue's).
   */
  record ApplyReclaimablePods(Map<String, Integer> counts) implements WorkloadWrite { }

  /**
   * Replace {@code spec.podSets} (and the digest they are known by) with the job's current ones: a JSON patch locked
   * by the resource version observed.
   */
  record ReplacePodSets(WorkloadFor.PodSets podSets) implements WorkloadWrite { }

  /** Remove Kueue's finalizer, at this index of the list observed. */
  record RemoveFinalizer(int index) implements WorkloadWrite { }
}
