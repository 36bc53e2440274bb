package dev.stint.core.kueue;

import dev.stint.core.model.EngineFramework;
import dev.stint.core.model.JobFacts;
import dev.stint.core.model.JobLabels;
import io.fabric8.kubernetes.api.model.Pod;
import dev.stint.spi.TrainingJob;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which of a running job's pods no longer need their quota, as Kueue's {@code jobframework} reports them in
 * {@code status.reclaimablePods} (its {@code JobWithReclaimablePods}): per podSet, the replicas that succeeded and
 * that their restart policy will not start again. Kueue then counts that podSet with fewer pods, and the freed quota
 * goes to waiting Workloads while the rest of the job runs. A pure decision.
 */
public final class ReclaimablePods {
  static final String MANAGER = "stint-reclaimable-pods";

  private ReclaimablePods() { }

  /**
   * The write that brings {@code status.reclaimablePods} in line, if it is not already.
   *
   * @param jobEnded the job succeeded or failed in this pass: {@code Finished} gives back the whole quota
   * @param restartPolicies each podSet's (lower-case replica type's) {@code restartPolicy}; null reads as not
   *     {@code Always}
   */
  public static Optional<WorkloadWrite> decide(WorkloadView workload, boolean jobEnded, List<Pod> pods,
                                               Map<String, String> restartPolicies) {
    if (workload == null || jobEnded || workload.deleting() || !workload.isTrue("QuotaReserved") || workload.isTrue("Finished")
        || workload.isTrue("Evicted")) {
      return Optional.empty(); // without quota there is nothing to give back; finishing gives back all of it
    }
    Map<String, Set<String>> succeeded = new LinkedHashMap<>();
    for (Pod pod : pods) {
      String podSet = label(pod, JobLabels.REPLICA_TYPE);
      if (podSet != null && workload.podSetCounts().containsKey(podSet) && isSucceeded(pod)
          && !"Always".equals(restartPolicies.get(podSet))) {
        succeeded.computeIfAbsent(podSet, k -> new HashSet<>()).add(replicaOf(pod));
      }
    }
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (Map.Entry<String, Integer> podSet : workload.podSetCounts().entrySet()) {
      int now = succeeded.getOrDefault(podSet.getKey(), Set.of()).size();
      // never fewer than reported while the quota is reserved (Kueue's rule), never more than the podSet has
      int count = Math.min(podSet.getValue(), Math.max(now, workload.reclaimablePods().getOrDefault(podSet.getKey(),
          0)));
      if (count > 0) {
        counts.put(podSet.getKey(), count);
      }
    }
    return counts.equals(workload.reclaimablePods()) ? Optional.empty()
        : Optional.of(new WorkloadWrite.ApplyReclaimablePods(counts));
  }

  /**
   * Each replica type's restart policy, by its podSet name, as far as reclaiming goes: the spec's, else the kind's
   * default for the type (a type that defaults to {@code Always} starts a succeeded replica again, so it needs its
   * quota); {@code Always} for every type of a job with a failure policy, whose gang restart starts succeeded replicas
   * again too.
   */
  public static <J extends TrainingJob<?>> Map<String, String> restartPolicies(J job, EngineFramework<J> framework) {
    Map<String, String> policies = new HashMap<>();
    if (job.getSpec() != null && job.getSpec().replicaSpecs() != null) {
      boolean gang = JobFacts.of(job).gang();
      job.getSpec().replicaSpecs().forEach((type, spec) -> policies.put(type.toLowerCase(Locale.ROOT),
          gang ? "Always" : framework.restartPolicy(type, spec)));
    }
    return policies;
  }

  private static boolean isSucceeded(Pod pod) {
    return pod.getStatus() != null && "Succeeded".equals(pod.getStatus().getPhase());
  }

  /** The replica's index: two pods of one replica (a restart) count once. */
  private static String replicaOf(Pod pod) {
    String index = label(pod, JobLabels.REPLICA_INDEX);
    return index != null ? index : pod.getMetadata().getName();
  }

  private static String label(Pod pod, String key) {
    Map<String, String> labels = pod.getMetadata().getLabels();
    return labels == null ? null : labels.get(key);
  }
}
