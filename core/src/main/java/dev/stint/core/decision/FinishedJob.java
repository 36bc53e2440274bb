package dev.stint.core.decision;

import dev.stint.core.model.Action;
import dev.stint.spi.ReplicaHosts;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.ReplicaStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import java.util.SortedSet;
import java.time.Duration;
import java.time.Instant;

/**
 * What happens to a job that has ended (succeeded or failed), on the pass that ends it and on every later one:
 * replicas still running are stopped (upstream leaves them running and holding quota); finished pods are kept or
 * deleted as {@code cleanPodPolicy} says; supporting objects are deleted; the job is deleted once
 * {@code ttlSecondsAfterFinished} has passed. A finished job ignores {@code suspend}.
 *
 * <p>A running pod is deleted only as it was observed (a resource-version precondition): one that ended meanwhile is
 * kept, and the next pass counts it as what it did ({@link #countEnded}): the informer cache can lag a pod's end by a
 * few milliseconds, just when the job ends.
 */
final class FinishedJob {

  private FinishedJob() { }

  /**
   * The job's one Service ({@code serviceMode: PerJob}) names the pods that stay: it goes with the last of them, as a
   * replica's Service goes with its pod.
   */
  private static <J extends TrainingJob<?>> void deleteJobServiceWithTheLastPod(DecisionBuilder<J> out,
                                                                               Observed observed,
                                                                               boolean deleteFinished) {
    String name = ReplicaHosts.jobService(out.ctx().job());
    boolean podsStay = !deleteFinished && observed.pods().stream().anyMatch(p -> PodState.of(p).finished());
    if (out.ctx().jobService() && !podsStay) {
      observed.service(name).ifPresent(s -> deleteOnce(out, new Action.DeleteService(name)));
    }
  }

  /**
   * A replica's Service goes once its pod is going or gone. A running pod's deletion is made conditional on the pod
   * as last seen; when two workers end together, the cache may show one still running, and deleting its Service with
   * it left a kept, completed pod without its Service.
   */
  private static <J extends TrainingJob<?>> void deleteServicesOfPodsGone(DecisionBuilder<J> out, Observed observed) {
    String jobService = ReplicaHosts.jobService(out.ctx().job());
    for (Service service : observed.services()) {
      String name = service.getMetadata().getName();
      boolean podStays = observed.pods().stream().anyMatch(p -> name.equals(p.getMetadata().getName())
          && PodState.of(p) != PodState.TERMINATING);
      if (!podStays && !(out.ctx().jobService() && name.equals(jobService))) {
        deleteOnce(out, new Action.DeleteService(name));
      }
    }
  }

  static <J extends TrainingJob<?>> void cleanup(DecisionBuilder<J> out, Observed observed) {
    JobContext<J> ctx = out.ctx();
    // nothing new starts once the job has ended
    out.actions().removeIf(a -> a instanceof Action.CreatePod || a instanceof Action.CreateService);
    boolean deleteFinished = "All".equals(ctx.runPolicy().getCleanPodPolicy());
    for (Pod pod : observed.pods()) {
      PodState state = PodState.of(pod);
      if (state == PodState.TERMINATING || (state.finished() && !deleteFinished)) {
        continue;
      }
      String name = pod.getMetadata().getName();
      if (state.finished()) {
        deleteOnce(out, new Action.DeletePod(name, "cleanPodPolicy All"));
        observed.service(name).ifPresent(s -> deleteOnce(out, new Action.DeleteService(name)));
      } else {
        // only the pod as last seen: one that ended meanwhile stays, so its Service goes only once the pod does
        deleteOnce(out, new Action.DeletePod(name, "job finished", pod.getMetadata().getResourceVersion()));
      }
    }
    deleteServicesOfPodsGone(out, observed);
    deleteJobServiceWithTheLastPod(out, observed, deleteFinished);
    SupportingResources.deleteRunningOnly(out, observed);
    PodsWaitingPolicy.clear(out.status()); // nothing waits to start in a job that has ended
    countEnded(out, observed);
    out.status().getReplicaStatuses().values().forEach(r -> r.setActive(0));
    if (out.status().getCompletionTime() == null) {
      out.status().setCompletionTime(ctx.nowString());
    }
    expire(out);
  }

  /**
   * Adds the replicas whose pods ended on their own (no deletion asked) and are not counted yet: a success, or a
   * failure that its restart policy does not retry, or any failure once the job has failed (nothing retries it any
   * more: the members of a gang that failed with the one that ended it). Idempotent: an index already listed is not
   * counted again.
   */
  private static <J extends TrainingJob<?>> void countEnded(DecisionBuilder<J> out, Observed observed) {
    JobContext<J> ctx = out.ctx();
    boolean jobFailed = out.status().isTrue(ConditionType.Failed.name());
    for (String type : ctx.replicaSpecs().keySet()) {
      var byIndex = observed.podsByIndex(new ReplicaId(type, 0).typeLabel());
      if (byIndex.isEmpty()) {
        continue;
      }
      ReplicaStatus rs = out.replicaStatus(type);
      SortedSet<Integer> succeeded = IndexIntervals.parse(rs.getSucceededIndexes());
      SortedSet<Integer> failed = IndexIntervals.parse(rs.getFailedIndexes());
      byIndex.forEach((index, pods) -> pods.stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null)
          .forEach(pod -> {
            PodState state = PodState.of(pod);
            if (succeeded.contains(index) || failed.contains(index)) {
              return;
            }
            if (state == PodState.SUCCEEDED) {
              succeeded.add(index);
              rs.setSucceeded(rs.succeeded() + 1);
            } else if (state == PodState.FAILED && !PodState.disrupted(pod)) {
              if (!RestartPolicies.retries(ctx.restartPolicy(type), PodState.exitCode(pod, ctx.exitCodeContainer(pod)))) {
                failed.add(index);
                rs.setFailed(rs.failed() + 1);
              } else if (jobFailed) {
                // a failure the policy would have retried: the pass that failed the job may have counted its pod
                // already (it counts every failed pod), so it adds the index, and the count only up to the indexes
                failed.add(index);
                rs.setFailed(Math.max(rs.failed(), failed.size()));
              }
            }
          }));
      rs.setSucceededIndexes(IndexIntervals.format(succeeded));
      rs.setFailedIndexes(IndexIntervals.format(failed));
    }
  }

  private static void deleteOnce(DecisionBuilder<?> out, Action action) {
    if (!out.actions().contains(action)) {
      out.act(action);
    }
  }

  /** Deletes the job once its TTL has passed, or asks to be called again when it will have. */
  private static <J extends TrainingJob<?>> void expire(DecisionBuilder<J> out) {
    Integer ttl = out.ctx().runPolicy().getTtlSecondsAfterFinished();
    if (ttl == null) {
      return;
    }
    Instant expiry = Instant.parse(out.status().getCompletionTime()).plusSeconds(ttl);
    Instant now = out.ctx().now();
    if (!now.isBefore(expiry)) {
      out.act(new Action.DeleteJob());
    } else {
      out.requeueAfter(Duration.between(now, expiry));
    }
  }
}
