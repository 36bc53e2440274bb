package dev.stint.core.kueue;

import java.util.Optional;

/**
 * A job changed while queued (replicas, templates): its Workload's podSets no longer say what would run. As Kueue's
 * {@code jobframework} does for a suspended job whose Workload holds no quota ({@code updateWorkloadToMatchJob}),
 * the Workload's podSets are replaced in place, so Kueue admits what the job asks for now. A pure decision.
 */
public final class OutdatedWorkload {
  private OutdatedWorkload() { }

  /**
   * The write that brings the Workload's podSets in line with the job, if they are out of date and may change.
   *
   * @param podSets the podSets the job asks for now
   */
  public static Optional<WorkloadWrite> decide(WorkloadView workload, WorkloadFor.PodSets podSets) {
    if (workload == null || !outOfDate(workload, podSets.digest()) || !mayChange(workload)) {
      return Optional.empty();
    }
    return Optional.of(new WorkloadWrite.ReplacePodSets(podSets));
  }

  /**
   * Whether the Workload was made from other podSets. A Workload without the digest (made before Stint wrote it)
   * is taken as up to date: nothing tells otherwise.
   */
  public static boolean outOfDate(WorkloadView workload, String digest) {
    String made = workload.annotations().get(KueueApi.PODSETS_DIGEST);
    return made != null && !made.equals(digest);
  }

  /**
   * Only while it holds no quota: once reserved, Kueue's admission is for the podSets it saw (and the CRD refuses a
   * change of some fields); a finished or deleted Workload is left alone.
   */
  private static boolean mayChange(WorkloadView workload) {
    return !workload.deleting() && workload.admission() == null && !workload.isTrue("QuotaReserved")
        && !workload.isTrue("Finished");
  }
}
