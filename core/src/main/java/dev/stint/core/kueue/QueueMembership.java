package dev.stint.core.kueue;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Whether Kueue has a job this pass when its labels and its Workload disagree, and what the user is told. Kueue's
 * webhook refuses a change of {@code kueue.x-k8s.io/queue-name} on a job that is not suspended
 * ({@code jobframework/validation.go}: {@code validateUpdateForQueueName}); Kueue has no webhook for Stint's kinds,
 * so the change reaches Stint, which keeps the job where it was while it runs, and says so:
 * <ul>
 *   <li>a job running outside Kueue (live pods that no admission made) that gains a queue label keeps running
 *       outside Kueue ({@code QueueLabelIgnored}); suspended, it is queued;</li>
 *   <li>an admitted job whose label is removed, or names another LocalQueue, keeps its Workload and quota where they
 *       are ({@code QueueChangeDeferred}); the Workload moves once it holds no quota;</li>
 *   <li>a label {@code kueue.x-k8s.io/priority-class} naming a WorkloadPriorityClass that does not exist, or a job
 *       without it whose pods ask for a PriorityClass that does not exist: Kueue makes no Workload for such a job
 *       ({@code ExtractPriority} fails), so Stint makes none either and holds the job, saying why, until the class
 *       exists; a job that has its Workload keeps its priority, with a Warning when its label names a class that
 *       does not exist.</li>
 * </ul>
 * Pure.
 */
final class QueueMembership {
  /** A Warning event's reason suffix (after the kind) and message; null: nothing to tell. */
  record Notice(String reason, String message) { }

  /**
   * @param queued whether the job is in Kueue's hands this pass
   * @param notice what to tell the user, once, or null
   * @param missingPriorityClass the class the job asks for and that does not exist, when that keeps the job from
   *     getting its Workload; else null
   */
  record Verdict(boolean queued, Notice notice, WorkloadFor.PriorityRef missingPriorityClass) {
    static final Verdict NOT_QUEUED = new Verdict(false, null, null);
  }

  /**
   * What the pass knows.
   *
   * @param labelled the labels queue the job ({@link WorkloadFor#queued}: a queue, a prebuilt Workload, or every job)
   * @param labels the job's labels (null: none)
   * @param workload its Workload, or null
   * @param suspended {@code runPolicy.suspend}
   * @param prebuilt the job names a prebuilt Workload (whose queue is not the job's label's to choose)
   * @param pods the job's pods
   * @param asked the priority class the job asks for ({@link WorkloadFor#priorityClass}), or null
   * @param priorityClassExists whether a class exists
   */
  record Facts(String kind, String job, boolean labelled, Map<String, String> labels, WorkloadView workload,
               boolean suspended, boolean prebuilt, List<Pod> pods, WorkloadFor.PriorityRef asked,
               java.util.function.Predicate<WorkloadFor.PriorityRef> priorityClassExists) { }

  private QueueMembership() { }

  static Verdict decide(Facts f) {
    String label = value(f.labels(), KueueApi.QUEUE_NAME_LABEL);
    WorkloadView w = f.workload();
    boolean holdsQuota = w != null && !w.deleting() && !w.isTrue("Finished")
        && (w.admission() != null || w.isTrue("QuotaReserved"));
    if (f.labelled() && w == null && !f.suspended() && runsOutsideKueue(f.pods())) {
      return new Verdict(false, new Notice("QueueLabelIgnored", f.kind() + " " + f.job() + " runs outside Kueue: "
          + (label == null ? "it started before Kueue managed every job (kueue.x-k8s.io/queue-name or not)."
              : "its label kueue.x-k8s.io/queue-name " + label + " came after it started.")
          + " Kueue takes a job into a queue only at its creation or while it is suspended (its webhook refuses "
          + "the change on a running job); suspend the job to queue it."), null);
    }
    if (!f.labelled() && !holdsQuota) {
      return Verdict.NOT_QUEUED;
    }
    Notice notice = null;
    if (holdsQuota && !f.suspended() && !f.prebuilt() && !Objects.equals(label, w.queueName())) {
      notice = new Notice("QueueChangeDeferred", "kueue.x-k8s.io/queue-name " + (label == null ? "was removed"
          : "changed to " + label) + " while " + f.kind() + " " + f.job() + " is admitted in LocalQueue "
          + w.queueName() + ": its Workload stays there, with its quota, until it holds none (the job suspended or "
          + "evicted). Kueue's webhook refuses this change on a running job.");
    }
    WorkloadFor.PriorityRef asked = f.asked();
    if (asked != null && !f.priorityClassExists().test(asked)) {
      if (w == null) {
        return new Verdict(true, null, asked);
      }
      if (notice == null && asked.workloadClass() && !asked.name().equals(w.workloadPriorityClass())) {
        notice = new Notice("WorkloadPriorityClassNotFound", "kueue.x-k8s.io/priority-class names "
            + "WorkloadPriorityClass " + asked.name() + ", which does not exist: Workload " + w.name()
            + " keeps its priority.");
      }
    }
    return new Verdict(true, notice, null);
  }

  /** The suffix of the hold's reason (after the kind) for a job whose Workload waits for its priority class. */
  static String missingPriorityClassReason(WorkloadFor.PriorityRef missing) {
    return missing.workloadClass() ? "WorkloadPriorityClassNotFound" : "PriorityClassNotFound";
  }

  /** The hold of a job whose Workload waits for its priority class. */
  static String missingPriorityClassMessage(String kind, String job, WorkloadFor.PriorityRef missing) {
    String asks = missing.workloadClass() ? "its label kueue.x-k8s.io/priority-class names WorkloadPriorityClass "
        : "its pods' PriorityClass (runPolicy.schedulingPolicy.priorityClass, else a template's priorityClassName) is ";
    return kind + " " + job + " waits: " + asks + missing.name() + ", which does not exist, and Kueue makes no "
        + "Workload for it until it does (create the class, or correct the "
        + (missing.workloadClass() ? "label" : "job") + ").";
  }

  /** Live pods that no admission made: the job runs outside Kueue. */
  private static boolean runsOutsideKueue(List<Pod> pods) {
    return pods.stream().anyMatch(p -> p.getMetadata().getDeletionTimestamp() == null
        && (p.getMetadata().getAnnotations() == null
            || !p.getMetadata().getAnnotations().containsKey(KueueApi.WORKLOAD_ANNOTATION)));
  }

  private static String value(Map<String, String> labels, String key) {
    String v = labels == null ? null : labels.get(key);
    return v == null || v.isEmpty() ? null : v;
  }
}
