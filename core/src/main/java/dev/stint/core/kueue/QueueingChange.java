package dev.stint.core.kueue;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The user moved a queued job to another LocalQueue or changed its {@code kueue.x-k8s.io/priority-class} label, as
 * Kueue's own integrations let them: the Workload follows. The queue changes only while the Workload holds no quota
 * (Kueue admitted it in the queue it was in); a WorkloadPriorityClass changes at any time, so that a job made urgent
 * preempts, or a running one becomes preemptible. A pod PriorityClass is left as the Workload was made with it:
 * Kueue's integrations do not follow it either. A pure decision.
 */
public final class QueueingChange {
  private QueueingChange() { }

  /** The labels whose change needs a pass of a queued job (label changes alone do not bump the generation). */
  public static boolean labelsChanged(Map<String, String> oldLabels, Map<String, String> newLabels) {
    return !Objects.equals(value(oldLabels, KueueApi.QUEUE_NAME_LABEL), value(newLabels, KueueApi.QUEUE_NAME_LABEL))
        || !Objects.equals(value(oldLabels, KueueApi.PRIORITY_CLASS_LABEL),
            value(newLabels, KueueApi.PRIORITY_CLASS_LABEL));
  }

  /**
   * The write that carries the job's queue and WorkloadPriorityClass to its Workload, if either differs.
   *
   * @param queueName the job's LocalQueue now; null when it names none (the Workload's is then kept)
   * @param workloadPriorityClass the WorkloadPriorityClass the job's label names now, or null
   */
  public static Optional<WorkloadWrite> decide(WorkloadView workload, String queueName, String workloadPriorityClass) {
    if (workload == null || workload.deleting() || workload.isTrue("Finished")) {
      return Optional.empty();
    }
    boolean holdsQuota = workload.admission() != null || workload.isTrue("QuotaReserved");
    String queue = queueName != null && !holdsQuota && !queueName.equals(workload.queueName()) ? queueName : null;
    String priority = workloadPriorityClass != null
        && !workloadPriorityClass.equals(workload.workloadPriorityClass()) ? workloadPriorityClass : null;
    if (queue == null && priority == null) {
      return Optional.empty();
    }
    return Optional.of(new WorkloadWrite.SetQueueing(queue, priority));
  }

  private static String value(Map<String, String> labels, String key) {
    return labels == null ? null : labels.get(key);
  }
}
