package dev.stint.core.decision;

import dev.stint.spi.TrainingJob;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;

/**
 * What happens to a job that has ended (succeeded or failed), on the pass that ends it and on every later one:
 * replicas still running are stopped (upstream leaves them running and holding quota); finished pods are kept or
 * deleted as {@code cleanPodPolicy} says; supporting objects are deleted; the job is deleted once
 * {@code ttlSecondsAfterFinished} has passed. A finished job ignores {@code suspend}.
 */
final class FinishedJob {

  private FinishedJob() { }

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
      deleteOnce(out, new Action.DeletePod(name, state.finished() ? "cleanPodPolicy All" : "job finished"));
      observed.service(name).ifPresent(s -> deleteOnce(out, new Action.DeleteService(name)));
    }
    SupportingResources.deleteRunningOnly(out, observed);
    out.status().getReplicaStatuses().values().forEach(r -> r.setActive(0));
    if (out.status().getCompletionTime() == null) {
      out.status().setCompletionTime(ctx.nowString());
    }
    expire(out);
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
