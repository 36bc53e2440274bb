package dev.stint.core.decision;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Whether Kueue lets a job's pods run, as the decision takes it in ({@link JobContext#gate()}), the same for every
 * kind. A queued job runs only while its Workload is {@code Admitted=True} and not {@code Evicted=True}, whatever its
 * {@code suspend} says; its pods then carry what the admission says ({@link PodSetInfo}). The decision defines this
 * value and {@code dev.stint.core.kueue.WorkloadGate} reads it from the job's Workload, so that the decision depends
 * on no part of the Kueue integration.
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
   * @param warning the wait needs the user (a label naming a class that does not exist): its event is a Warning
   */
  record Held(String reason, String message, boolean warning) implements KueueGate {
    /** A wait that is Kueue's ordinary business: a Normal event. */
    public Held(String reason, String message) {
      this(reason, message, false);
    }
  }

  /** The Workload is admitted: the pods of each podSet get its info. */
  record Admitted(Map<String, PodSetInfo> podSets) implements KueueGate {
    @Override
    public Optional<PodSetInfo> podSet(String replicaType) {
      return Optional.ofNullable(podSets.get(replicaType.toLowerCase(Locale.ROOT)));
    }
  }
}
