package dev.stint.core.kueue;

import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a queued job's Workload needs after a pass, as a pure function of the Workload, the job's next status, its
 * suspension and its pods (Kueue's {@code ReconcileGenericJob}, the parts an external controller owns): create it;
 * follow the user's suspension with {@code spec.active}; {@code PodsReady} from {@code Running}; {@code Finished}
 * and then the finalizer when the job ends; the release once an evicted job's pods are gone; the finalizer of a
 * Workload being deleted.
 */
public final class WorkloadSync {
  static final String PODS_READY_MANAGER = "stint-pods-ready";
  static final String FINISHED_MANAGER = "stint-finished";

  private WorkloadSync() { }

  /**
   * The writes, in the order to make them.
   *
   * @param workload the job's Workload; null when it has none
   * @param next the job's status after this pass
   * @param suspended the job's {@code runPolicy.suspend}
   * @param pods the job's pods as observed
   */
  public static List<WorkloadWrite> decide(WorkloadView workload, JobStatus next, boolean suspended, List<Pod> pods,
                                           Instant now) {
    boolean finished = next != null && (next.isTrue("Succeeded") || next.isTrue("Failed"));
    List<WorkloadWrite> writes = new ArrayList<>();
    if (workload == null) {
      if (!finished) {
        writes.add(new WorkloadWrite.Create());
      }
      return writes;
    }
    String time = now.truncatedTo(ChronoUnit.SECONDS).toString();
    if (finished) {
      finish(workload, next, time, writes);
      return writes;
    }
    if (workload.deleting()) {
      if (activePods(pods) == 0 && workload.hasFinalizer()) {
        writes.add(new WorkloadWrite.RemoveFinalizer(workload.finalizers().indexOf(KueueApi.FINALIZER)));
      }
      return writes;
    }
    activeToFollow(workload, suspended).ifPresent(writes::add);
    Optional<WorkloadCondition> evicted = workload.condition("Evicted").filter(WorkloadCondition::isTrue);
    if (evicted.isPresent()) {
      boolean holdsQuota = workload.admission() != null || workload.isTrue("QuotaReserved");
      if (holdsQuota && activePods(pods) == 0) {
        writes.add(new WorkloadWrite.Release(WorkloadRelease.body(workload, evicted.get(), time)));
      }
      return writes;
    }
    if (workload.isTrue("Admitted")) {
      podsReady(workload, next, time).ifPresent(writes::add);
    }
    return writes;
  }

  /**
   * The writes for a job MultiKueue dispatches to a worker cluster ({@link WorkloadFor#dispatched}): its Workload
   * here is created and follows the user's suspension; MultiKueue copies the worker's status, {@code Finished}
   * included, back to it, after which (or once it is being deleted) its finalizer goes. No pod runs here: no
   * {@code PodsReady} to write, and an evicted Workload's quota is released at once.
   */
  public static List<WorkloadWrite> decideDispatched(WorkloadView workload, boolean suspended, Instant now) {
    if (workload == null) {
      return List.of(new WorkloadWrite.Create());
    }
    if (workload.deleting() || workload.isTrue("Finished")) {
      return workload.hasFinalizer()
          ? List.of(new WorkloadWrite.RemoveFinalizer(workload.finalizers().indexOf(KueueApi.FINALIZER)))
          : List.of();
    }
    List<WorkloadWrite> writes = new ArrayList<>();
    activeToFollow(workload, suspended).ifPresent(writes::add);
    Optional<WorkloadCondition> evicted = workload.condition("Evicted").filter(WorkloadCondition::isTrue);
    if (evicted.isPresent() && (workload.admission() != null || workload.isTrue("QuotaReserved"))) {
      writes.add(new WorkloadWrite.Release(WorkloadRelease.body(workload, evicted.get(),
          now.truncatedTo(ChronoUnit.SECONDS).toString())));
    }
    return writes;
  }

  /** {@code spec.active} false while the user suspends the job; true again only if Stint deactivated it. */
  private static Optional<WorkloadWrite> activeToFollow(WorkloadView workload, boolean suspended) {
    if (suspended && workload.active()) {
      return Optional.of(new WorkloadWrite.SetActive(false));
    }
    if (!suspended && !workload.active() && workload.deactivatedBySuspend()) {
      return Optional.of(new WorkloadWrite.SetActive(true));
    }
    return Optional.empty();
  }

  /** Pods that hold resources for Kueue: neither ended nor being deleted. */
  public static int activePods(List<Pod> pods) {
    return (int) pods.stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .filter(p -> p.getStatus() == null || !("Succeeded".equals(p.getStatus().getPhase())
            || "Failed".equals(p.getStatus().getPhase())))
        .count();
  }

  private static void finish(WorkloadView workload, JobStatus next, String time, List<WorkloadWrite> writes) {
    if (!workload.isTrue("Finished")) {
      boolean failed = next.isTrue("Failed");
      String message = next.condition(failed ? "Failed" : "Succeeded").map(c -> c.getMessage()).orElse("");
      writes.add(new WorkloadWrite.ApplyCondition(new WorkloadCondition("Finished", "True",
          failed ? "Failed" : "Succeeded", message, time, workload.generation()), FINISHED_MANAGER));
    }
    if (workload.hasFinalizer()) {
      writes.add(new WorkloadWrite.RemoveFinalizer(workload.finalizers().indexOf(KueueApi.FINALIZER)));
    }
  }

  /** {@code PodsReady=True} once the job is {@code Running}; back to False when it stops running (a restart). */
  private static Optional<WorkloadWrite> podsReady(WorkloadView workload, JobStatus next, String time) {
    boolean running = next != null && next.isTrue("Running");
    Optional<WorkloadCondition> current = workload.condition("PodsReady");
    if (running && !workload.isTrue("PodsReady")) {
      boolean recovering = current.map(c -> "WaitForRecovery".equals(c.reason())).orElse(false);
      return Optional.of(new WorkloadWrite.ApplyCondition(new WorkloadCondition("PodsReady", "True",
          recovering ? "Recovered" : "Started", "All pods reached readiness and the workload is running", time,
          workload.generation()), PODS_READY_MANAGER));
    }
    if (!running && workload.isTrue("PodsReady")) {
      return Optional.of(new WorkloadWrite.ApplyCondition(new WorkloadCondition("PodsReady", "False",
          "WaitForRecovery", "At least one pod has failed, waiting for recovery", time, workload.generation()),
          PODS_READY_MANAGER));
    }
    return Optional.empty();
  }
}
