package dev.stint.core.kueue;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Whether Kueue lets a job's pods run, decided from its Workload: a pure function, the same for every kind.
 * A queued job runs only while its Workload is {@code Admitted=True} and not {@code Evicted=True}, whatever its
 * {@code suspend} says; its pods then carry what the admission says ({@link PodSetInfo}).
 */
public sealed interface KueueGate {

  /** Not a queued job (Kueue off, or no queue label): the job runs as without Kueue. */
  KueueGate NOT_QUEUED = new NotQueued();

  /** Whether the job must have no pods now. */
  default boolean holds() {
    return this instanceof Held;
  }

  /** What Kueue's admission puts into the pods of a replica type (its podSet is the type in lower case). */
  default Optional<PodSetInfo> podSet(String replicaType) {
    return Optional.empty();
  }

  /** See {@link #NOT_QUEUED}. */
  record NotQueued() implements KueueGate { }

  /**
   * The job waits for Kueue.
   *
   * @param reason the suffix of the job's {@code Suspended} reason ({@code WaitingForAdmission}, {@code Evicted})
   * @param message names the LocalQueue, or Kueue's eviction
   */
  record Held(String reason, String message) implements KueueGate { }

  /** The Workload is admitted: the pods of each podSet get its info. */
  record Admitted(Map<String, PodSetInfo> podSets) implements KueueGate {
    @Override
    public Optional<PodSetInfo> podSet(String replicaType) {
      return Optional.ofNullable(podSets.get(replicaType.toLowerCase(Locale.ROOT)));
    }
  }

  /**
   * The gate of a queued job.
   *
   * @param workload the job's Workload, null when it is yet to be created
   * @param flavors the ResourceFlavors known, by name
   */
  static KueueGate of(String kind, String jobName, String queueName, WorkloadView workload,
                      Map<String, Flavor> flavors) {
    String queue = queueName == null ? "the namespace's default LocalQueue" : "LocalQueue " + queueName;
    String waiting = kind + " " + jobName + " is waiting for admission by " + queue + ".";
    if (workload == null) {
      return new Held("WaitingForAdmission", waiting);
    }
    if (workload.deleting()) {
      return new Held("WorkloadDeleted", "Workload " + workload.name() + " of " + kind + " " + jobName
          + " is being deleted.");
    }
    Optional<WorkloadCondition> finished = workload.condition("Finished").filter(WorkloadCondition::isTrue);
    if (finished.isPresent()) {
      // Kueue finished it before the job ended (a prebuilt Workload out of sync): nothing will admit it again
      return new Held("WorkloadFinished", "Workload " + workload.name() + " of " + kind + " " + jobName
          + " is finished (" + finished.get().reason() + "): " + finished.get().message());
    }
    Optional<WorkloadCondition> evicted = workload.condition("Evicted").filter(WorkloadCondition::isTrue);
    if (evicted.isPresent()) {
      return new Held("Evicted", kind + " " + jobName + " was evicted by Kueue (" + evicted.get().reason() + "): "
          + evicted.get().message());
    }
    if (!workload.active()) {
      return new Held("Deactivated", "Workload " + workload.name() + " of " + kind + " " + jobName
          + " is deactivated.");
    }
    if (!workload.isTrue("Admitted") || workload.admission() == null) {
      return new Held("WaitingForAdmission", waiting);
    }
    Map<String, PodSetInfo> podSets = new LinkedHashMap<>();
    try {
      for (WorkloadView.PodSetAssignment assignment : workload.admission().podSetAssignments()) {
        podSets.put(assignment.name(), PodSetInfo.of(workload, assignment, flavors));
      }
    } catch (PodSetInfo.ConflictException e) {
      return new Held("AdmissionNotApplicable", kind + " " + jobName + " is admitted but its pods cannot start: "
          + e.getMessage() + ".");
    }
    return new Admitted(Map.copyOf(podSets));
  }
}
