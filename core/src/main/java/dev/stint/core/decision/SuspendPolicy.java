package dev.stint.core.decision;

import dev.stint.core.model.Action;
import dev.stint.core.model.JobLabels;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.ReplicaStatus;
import io.fabric8.kubernetes.api.model.Pod;

/**
 * Suspend and resume, for every kind. Suspending deletes every pod (with its template's grace period, so training
 * code gets SIGTERM and can checkpoint), every service and every supporting object that lives only while the job runs, whatever cleanPodPolicy
 * says;
 * pods ended by a suspension count as neither succeeded nor failed. Resuming marks {@code Suspended=False} and resets
 * {@code startTime}; the normal pass then creates pods from the current templates.
 */
final class SuspendPolicy {

  private SuspendPolicy() { }

  static <J extends TrainingJob<?>> void suspend(DecisionBuilder<J> out, Observed observed) {
    JobContext<J> ctx = out.ctx();
    stop(out, observed, "Suspended", ctx.kind() + " " + ctx.name() + " is suspended.", false, "job suspended");
  }

  /**
   * Suspends the job for Kueue (it has not admitted the job, or evicted it), as for the user's {@code suspend}; the
   * conditions say why, and say it again when only the words changed (another LocalQueue, Kueue's reason).
   */
  static <J extends TrainingJob<?>> void hold(DecisionBuilder<J> out, Observed observed, KueueGate.Held held) {
    stop(out, observed, held.reason(), held.message(), held.warning(), "held by Kueue: " + held.reason());
    out.refreshMessage(ConditionType.Suspended, true, held.reason(), held.message());
  }

  /**
   * @param reasonSuffix the conditions' reason after the kind ({@code WaitingForAdmission})
   * @param why the pods' deletion reason, as logged
   */
  private static <J extends TrainingJob<?>> void stop(DecisionBuilder<J> out, Observed observed, String reasonSuffix,
                                                      String message, boolean warning, String why) {
    JobContext<J> ctx = out.ctx();
    for (Pod pod : observed.pods()) {
      if (pod.getMetadata().getDeletionTimestamp() == null) {
        out.act(new Action.DeletePod(pod.getMetadata().getName(), why));
      }
    }
    observed.services().forEach(s -> out.act(new Action.DeleteService(s.getMetadata().getName())));
    SupportingResources.suspended(out, observed);
    ctx.replicaSpecs().keySet().forEach(type -> {
      ReplicaStatus rs = out.replicaStatus(type);
      rs.setActive(0);
      rs.setTerminating(countOf(observed, type));
    });
    PodsWaitingPolicy.clear(out.status()); // its pods are going: none waits to start
    if (out.status().isTrue(ConditionType.Running.name())) {
      out.condition(ConditionType.Running, false, reasonSuffix, message, warning);
    }
    if (out.status().isTrue(ConditionType.Restarting.name())) {
      // no new attempt starts while suspended: its "new pods start at" would not come (the Suspended event says it)
      Conditions.set(out.status(), ConditionType.Restarting, false, ctx.kind() + reasonSuffix, message,
          ctx.nowString());
    }
    if (!out.status().isTrue(ConditionType.Suspended.name())) {
      out.condition(ConditionType.Suspended, true, reasonSuffix, message, warning);
      if (out.status().getStartTime() != null) {
        int previous = out.status().getSuspensions() == null ? 0 : out.status().getSuspensions();
        out.status().setSuspensions(previous + 1);
      }
    } else {
      // why it waits changed (evicted, queued)
      out.condition(ConditionType.Suspended, true, reasonSuffix, message, warning);
    }
  }

  static <J extends TrainingJob<?>> void resume(DecisionBuilder<J> out) {
    JobContext<J> ctx = out.ctx();
    out.condition(ConditionType.Suspended, false, "Resumed", ctx.kind() + " " + ctx.name() + " is resumed.");
    // activeDeadlineSeconds measures continuous running time, as batch/v1 Job does
    out.status().setStartTime(ctx.nowString());
  }

  private static int countOf(Observed observed, String type) {
    String label = new dev.stint.spi.ReplicaId(type, 0).typeLabel();
    return (int) observed.pods().stream().filter(p -> label.equals(Observed.label(p, JobLabels.REPLICA_TYPE)))
        .count();
  }
}
