package dev.stint.core.kueue;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The queue and priority Kueue's mutating webhooks give a job of its own integrations when it is created
 * ({@code jobframework/defaults.go}: {@code ApplyDefaultLocalQueue}, GA as LocalQueueDefaulting in v0.17, and
 * {@code ApplyDefaultWorkloadPriorityClass}, WorkloadPriorityClassDefaulting): a job without a
 * {@code kueue.x-k8s.io/queue-name} label goes to its namespace's LocalQueue named {@code default}, and one without a
 * {@code kueue.x-k8s.io/priority-class} label gets the WorkloadPriorityClass named {@code default}, each only where
 * that object exists, and neither for a job whose owner Kueue already manages. Kueue has no webhook for Stint's kinds,
 * so Stint applies the same rule itself, as labels on the job, on the first pass it makes of the job: that pass stands
 * for the webhook's moment of creation, so a job Stint has already passed over (it has a condition) is never moved
 * into a queue later, as a job created before the default LocalQueue is not by Kueue. A label the user set always
 * wins. Pure.
 */
public final class QueueDefaults {
  /** The name of the LocalQueue and of the WorkloadPriorityClass Kueue defaults to. */
  public static final String DEFAULT_NAME = "default";

  private QueueDefaults() { }

  /**
   * What Kueue's defaulting knows of a job and its cluster.
   *
   * @param labels the job's labels (null: none)
   * @param firstPass Stint has not passed over the job yet (no condition in its status)
   * @param ownedByKueue the job's controller owner is of a kind Kueue manages (a JobSet, a TrainJob:
   *     {@link KueueOwners}), which queues it
   * @param defaultQueue a LocalQueue named {@code default} exists in the job's namespace
   * @param defaultPriorityClass a WorkloadPriorityClass named {@code default} exists
   */
  public record Facts(Map<String, String> labels, boolean firstPass, boolean ownedByKueue, boolean defaultQueue,
                      boolean defaultPriorityClass) { }

  /** The labels to add to the job (none: an empty map), in the order Kueue's webhook applies them. */
  public static Map<String, String> labelsToAdd(Facts facts) {
    Map<String, String> add = new LinkedHashMap<>();
    if (!facts.firstPass() || facts.ownedByKueue()) {
      return add;
    }
    if (facts.defaultQueue() && absent(facts.labels(), KueueApi.QUEUE_NAME_LABEL)) {
      add.put(KueueApi.QUEUE_NAME_LABEL, DEFAULT_NAME);
    }
    if (facts.defaultPriorityClass() && absent(facts.labels(), KueueApi.PRIORITY_CLASS_LABEL)) {
      add.put(KueueApi.PRIORITY_CLASS_LABEL, DEFAULT_NAME);
    }
    return add;
  }

  private static boolean absent(Map<String, String> labels, String key) {
    String value = labels == null ? null : labels.get(key);
    return value == null || value.isEmpty();
  }
}
