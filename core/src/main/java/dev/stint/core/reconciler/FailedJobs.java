package dev.stint.core.reconciler;

import dev.stint.core.decision.Decision;
import dev.stint.core.decision.EngineSettings;
import dev.stint.core.decision.JobContext;
import dev.stint.core.decision.JobDecider;
import dev.stint.core.kube.ChildRefused;
import dev.stint.core.model.EngineFramework;
import dev.stint.core.model.JobEvent;
import dev.stint.core.model.JobFacts;
import dev.stint.spi.TrainingJob;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The decision for a job the engine fails itself, in the pass that finds why: its framework threw
 * ({@link FrameworkFailure}, {@link JobDecider#failedByFramework}) or the API server refused one of its children for
 * good ({@link ChildRefused}, {@link JobDecider#failedToCreate}). Either ends that job alone {@code Failed}, with the
 * failure's words; the operator and every other job carry on.
 */
final class FailedJobs<J extends TrainingJob<?>> {
  /** Logged under the reconciler's name, as operators filter it. */
  private static final Logger LOG = LoggerFactory.getLogger(TrainingJobReconciler.class);

  private final EngineFramework<J> guarded;
  private final EngineSettings settings;
  private final String managedByValue;

  /**
   * @param guarded the framework, through {@link GuardedFramework}
   * @param managedByValue the controller name a job's {@code managedBy} names when it is ours, read at registration
   */
  FailedJobs(EngineFramework<J> guarded, EngineSettings settings, String managedByValue) {
    this.guarded = guarded;
    this.settings = settings;
    this.managedByValue = managedByValue;
  }

  /** The job's framework threw while the job was observed, decided or its pods built. */
  Decision byFramework(Pass<J> pass, FrameworkFailure e) {
    J job = pass.job();
    if (!oursToWrite(job)) {
      LOG.warn("{} (job managed by another controller, left as it is)", e.getMessage(), e.getCause());
      return Decision.none();
    }
    if (job.getStatus() != null && job.getStatus().isTrue("Failed")) {
      LOG.debug("{} again on a failed job", e.getMessage()); // the stack trace was logged when the job failed
    } else {
      LOG.warn("Job {}/{} failed: {}", job.getMetadata().getNamespace(), job.getMetadata().getName(),
          e.getMessage(), e.getCause());
    }
    return withCleanup(pass, JobDecider.failedByFramework(job, e.getMessage(), pass.now()));
  }

  /** The API server refused one of the job's children for good. */
  Decision refused(Pass<J> pass, ChildRefused e) {
    return withCleanup(pass, JobDecider.failedToCreate(pass.job(), e.getMessage(), pass.now()));
  }

  /**
   * The failed job's decision plus what the engine does for any failed job (stop its running pods, clean up as
   * {@code cleanPodPolicy} says), decided now because no later event may come: our own status writes do not trigger a
   * reconcile. The finished-job path asks the framework only for its kind and replica types; if even that throws, the
   * pods stay until a pass in which it does not.
   */
  private Decision withCleanup(Pass<J> pass, Decision failed) {
    try {
      J failedJob = StatusWriter.withStatus(pass.job(), failed.status());
      Decision cleanup = JobDecider.decide(new JobContext<>(failedJob, guarded, pass.now(), settings), pass.observed());
      List<JobEvent> events = new ArrayList<>(failed.events());
      events.addAll(cleanup.events());
      return new Decision(cleanup.actions(), cleanup.status(), events, cleanup.requeueAfter());
    } catch (FrameworkFailure again) {
      return failed;
    }
  }

  /** The managedBy check of {@link JobContext#managedElsewhere}, without asking the framework. */
  private boolean oursToWrite(J job) {
    if (job.getMetadata().getDeletionTimestamp() != null) {
      return false;
    }
    try {
      return JobFacts.of(job).ours(managedByValue);
    } catch (RuntimeException | LinkageError e) {
      return false; // the job's own class failed: better no write than a write to a job that may not be ours
    }
  }
}
