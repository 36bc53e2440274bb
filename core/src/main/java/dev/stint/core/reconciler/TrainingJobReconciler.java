package dev.stint.core.reconciler;

import dev.stint.core.decision.CarrierJobs;
import dev.stint.core.decision.Decision;
import dev.stint.core.decision.EngineSettings;
import dev.stint.core.decision.JobContext;
import dev.stint.core.decision.JobDecider;
import dev.stint.core.decision.Observed;
import dev.stint.core.decision.RetryCondition;
import dev.stint.core.kube.ActionApplier;
import dev.stint.core.kube.ApiRefusal;
import dev.stint.core.kube.ChildRefused;
import dev.stint.core.kube.EventRecorder;
import dev.stint.core.heap.HeapGuard;
import dev.stint.core.kueue.KueueLink;
import dev.stint.core.kueue.QueueingChange;
import dev.stint.core.metrics.JobLifecycleMetrics;
import dev.stint.core.model.Action;
import dev.stint.core.model.EngineFramework;
import dev.stint.core.model.JobEvent;
import dev.stint.core.model.JobFacts;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JOSDK entry point for one kind: observe (children from the informer caches), decide ({@link JobDecider}, pure),
 * act ({@link ActionApplier}: pods and new children, then status and events, then removals). Events are sent in the
 * background. One instance is registered per framework, with an explicit controller configuration, because JOSDK
 * cannot infer a generic reconciler's resource class.
 *
 * <p>The framework is called through a {@link GuardedFramework}: when its code throws while a job is observed or
 * decided, that job alone ends {@code Failed} ({@link JobDecider#failedByFramework}) and the failure is logged; the
 * operator and every other job carry on. Failures of the engine itself still propagate, so JOSDK retries them.
 */
public final class TrainingJobReconciler<J extends TrainingJob<?>> implements Reconciler<J> {
  private static final Logger LOG = LoggerFactory.getLogger(TrainingJobReconciler.class);
  private static final Duration PREBUILT_RETRY = Duration.ofSeconds(5);

  private final EngineFramework<J> framework;
  private final EngineFramework<J> guarded;
  private final String name;
  private final Class<J> jobType;
  private final String kind;
  private final String managedByValue;
  private final Clock clock;
  private final ActionApplier applier;
  private final EventRecorder events;
  private final StatusWriter statusWriter;
  private final EngineSettings settings;
  private final JobLifecycleMetrics lifecycle;
  /** What is kept about each job between passes, forgotten in one call. */
  private final JobMemory memory;
  private final RetryingJobs retrying;
  private final WaitingAnnouncements waiting;
  private final PodlessCarriers podless;
  private final DeletionsInFlight deletions;
  private final StatusPacing pacing;
  private final CreationsInFlight creations;
  private final ChildrenObserved<J> children;
  private final KueueLink<J> kueue;
  private final HeapGuard heap;

  public TrainingJobReconciler(TrainingFramework<J> framework, Clock clock, ActionApplier applier,
                               EventRecorder events, boolean serverSideApply, EngineSettings settings,
                               JobLifecycleMetrics lifecycle) {
    this(framework, clock, applier, events, serverSideApply, settings, lifecycle, KueueLink.off(framework),
        new HeapGuard(() -> new HeapGuard.Reading(0, 0)));
  }

  /**
   * @param kueue the kind's Workloads in {@code --kueue=native} mode ({@link KueueLink#off} otherwise)
   * @param heap whether a job that has no pods yet may get them now ({@link HeapGuard#admitsNewJobs})
   */
  public TrainingJobReconciler(TrainingFramework<J> framework, Clock clock, ActionApplier applier,
                               EventRecorder events, boolean serverSideApply, EngineSettings settings,
                               JobLifecycleMetrics lifecycle, KueueLink<J> kueue, HeapGuard heap) {
    this.kueue = kueue;
    this.heap = heap;
    this.settings = settings;
    this.lifecycle = lifecycle;
    this.framework = EngineFramework.of(framework);
    this.guarded = EngineFramework.of(GuardedFramework.guard(framework));
    // read once, at registration: every reconcile needs them, also one in which the framework fails
    this.name = framework.name();
    this.jobType = framework.jobType();
    this.kind = HasMetadata.getKind(jobType);
    this.managedByValue = this.framework.managedByValue();
    this.clock = clock;
    this.children = new ChildrenObserved<>(this.framework, this.guarded, settings.gangScheduling());
    this.applier = applier;
    this.events = events;
    this.statusWriter = new StatusWriter(applier.client(), serverSideApply, "stint");
    this.memory = new JobMemory(clock, statusWriter, lifecycle, kueue);
    this.retrying = memory.retrying();
    this.waiting = memory.waiting();
    this.podless = memory.podless();
    this.deletions = memory.deletions();
    this.pacing = memory.pacing();
    this.creations = memory.creations();
  }

  public EngineFramework<J> framework() {
    return framework;
  }

  @Override
  public List<EventSource<?, J>> prepareEventSources(EventSourceContext<J> context) {
    return new ChildEventSources<>(framework, settings, kueue, creations::removed).prepare(context);
  }

  @Override
  public UpdateControl<J> reconcile(J cached, Context<J> context) {
    J job = statusWriter.current(cached); // the cache may not show our last status write yet
    try (JobLogContext logContext = JobLogContext.of(kind, job)) {
      Instant decidedAt = clock.instant();
      try {
        job = kueue.withDefaults(job); // the queue and priority Kueue's webhook would have given it at creation
      } catch (KubernetesClientException e) {
        if (stopping(e)) {
          throw e;
        }
        return retryLater(job, Decision.none(), e, decidedAt);
      }
      Observed observed = inFlightDeletionsTerminating(job, children.observe(job, context), decidedAt);
      KueueLink.Followed queueing = kueue.follow(job);
      Decision decision;
      try {
        decision = JobDecider.decide(new JobContext<>(job, guarded, decidedAt, settings, queueing.gate()), observed);
      } catch (FrameworkFailure e) {
        decision = frameworkFailed(job, e, observed, decidedAt);
      }
      return actOrFail(job, decision, observed, queueing, decidedAt);
    } finally {
      forgetIfGone(job, context);
    }
  }

  /**
   * Whether a change of the job seen by its watch needs a reconcile: a new generation (its spec changed), a deletion
   * asked, a new LocalQueue or WorkloadPriorityClass label (the Workload follows them), or a status that another
   * client wrote (it is corrected at once; our own writes need no reconcile). Other changes, such as other labels,
   * do not.
   */
  public boolean worthReconciling(J newJob, J oldJob) {
    if (!Objects.equals(newJob.getMetadata().getGeneration(), oldJob.getMetadata().getGeneration())
        || (newJob.getMetadata().getDeletionTimestamp() != null && oldJob.getMetadata().getDeletionTimestamp() == null)
        || QueueingChange.labelsChanged(oldJob.getMetadata().getLabels(), newJob.getMetadata().getLabels())) {
      return true;
    }
    return !Objects.equals(newJob.getStatus(), oldJob.getStatus())
        && !statusWriter.isOwn(newJob.getMetadata().getUid(), newJob.getMetadata().getResourceVersion(),
            newJob.getStatus());
  }

  /** Jobs this reconciler keeps something about ({@link JobMemory#size}): statuses it wrote, retries, ... */
  public int remembered() {
    return memory.size();
  }

  /** The job's uid left the cluster: drop what is kept about it, so memory does not grow with deleted jobs. */
  public void forget(String uid) {
    memory.forget(uid);
  }

  /** The observed children, with the pods whose deletion this process sent and the cache lags on seen terminating. */
  private Observed inFlightDeletionsTerminating(J job, Observed observed, Instant now) {
    List<Pod> pods = deletions.asTheDecisionSees(job.getMetadata().getUid(), observed.pods(), now.toString());
    return pods == observed.pods() ? observed
        : new Observed(pods, observed.services(), observed.supporting(), observed.carriers());
  }

  /**
   * A job deleted while this pass ran is forgotten here, after the pass stored what it stores: the cache's own
   * notice of the deletion ({@link #forget}) may have come first.
   */
  private void forgetIfGone(J job, Context<J> context) {
    String uid = job.getMetadata().getUid();
    boolean present = context.getPrimaryCache().get(ResourceID.fromResource(job))
        .map(cachedJob -> uid.equals(cachedJob.getMetadata().getUid())).orElse(false);
    if (!present) {
      forget(uid);
    }
  }

  /**
   * Acts on the decision. A child refused for good, or a framework that throws while a pod is built, ends the job
   * {@code Failed} at once, with the failure's words; a refusal that heals is retried with capped backoff, and the
   * job says so in a {@code ReplicaFailure} condition and one event per distinct cause.
   */
  private UpdateControl<J> actOrFail(J job, Decision decision, Observed observed, KueueLink.Followed queueing,
                                     Instant now) {
    Decision current = decision;
    try {
      try {
        return act(job, current, observed, queueing, now);
      } catch (ChildRefused e) {
        lifecycle.failedToCreate(kind);
        current = withCleanup(job, JobDecider.failedToCreate(job, e.getMessage(), now), observed, now);
      } catch (FrameworkFailure e) {
        current = frameworkFailed(job, e, observed, now);
      }
      // a failed job's decision creates nothing, so cannot fail so again
      return act(job, current, observed, queueing, now);
    } catch (KubernetesClientException e) {
      if (stopping(e)) {
        throw e; // the operator is stopping: not the API server's refusal
      }
      return retryLater(job, current, e, now);
    }
  }

  private static boolean stopping(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof InterruptedException) {
        return true;
      }
    }
    return Thread.currentThread().isInterrupted();
  }

  private Decision frameworkFailed(J job, FrameworkFailure e, Observed observed, Instant now) {
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
    return withCleanup(job, JobDecider.failedByFramework(job, e.getMessage(), now), observed, now);
  }

  private UpdateControl<J> retryLater(J job, Decision decision, KubernetesClientException e, Instant now) {
    ApiRefusal refusal = ApiRefusal.of(e);
    RetryingJobs.Attempt attempt = retrying.refused(job.getMetadata().getUid(), refusal);
    lifecycle.retried(kind);
    String message = "The API server refused a change (" + refusal.cause() + "); retrying until it goes through: "
        + refusal.message();
    if (attempt.newCause()) {
      events.record(job, JobEvent.warning(kind + refusal.cause(), message)); // logged once, with the event
    } else {
      LOG.debug("Attempt {} refused again ({}), next in {} s", attempt.attempts(), refusal.cause(),
          attempt.delay().toSeconds());
    }
    if (decision.status() != null) {
      JobStatus status = RetryCondition.with(decision.status(), kind, refusal.cause(), message, now);
      if (!status.equals(job.getStatus())) {
        try {
          statusWriter.write(job, status, jobType);
          // the pass's own transitions (Created, ...) are in the status written: their events go with it
          decision.events().forEach(transition -> events.record(job, transition));
        } catch (KubernetesClientException again) {
          LOG.debug("Status not written either: {}", ApiRefusal.of(again).message());
        }
      }
    }
    return UpdateControl.<J>noUpdate().rescheduleAfter(attempt.delay());
  }

  /**
   * The failed job's decision plus what the engine does for any failed job (stop its running pods, clean up as
   * {@code cleanPodPolicy} says), decided now because no later event may come: our own status writes do not trigger a
   * reconcile. The finished-job path asks the framework only for its kind and replica types; if even that throws, the
   * pods stay until a pass in which it does not.
   */
  private Decision withCleanup(J job, Decision failed, Observed observed, Instant now) {
    try {
      J failedJob = StatusWriter.withStatus(job, failed.status());
      Decision cleanup = JobDecider.decide(new JobContext<>(failedJob, guarded, now, settings), observed);
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


  private UpdateControl<J> act(J job, Decision decision, Observed observed, KueueLink.Followed queueing,
                               Instant decidedAt) {
    if (decision.status() == null) {
      if (queueing.dispatched() && job.getMetadata().getDeletionTimestamp() == null) {
        kueue.sync(job, queueing, null, observed.pods(), decidedAt); // its manager-side Workload, nothing more
      }
      return UpdateControl.noUpdate();
    }
    boolean deleted = decision.actions().stream().anyMatch(a -> a instanceof Action.DeleteJob);
    JobStatus status = RetryCondition.cleared(decision.status());
    String uid = job.getMetadata().getUid();
    boolean changed = !deleted && !Objects.equals(status, job.getStatus());
    Optional<Duration> paced = changed ? pacing.hold(uid, job.getStatus(), status, decidedAt) : Optional.empty();
    boolean write = changed && paced.isEmpty();
    // a new job whose pods take more than one wave says it exists before they go out (a large job's take many
    // waves and passes); otherwise children first, then status, then removals: the status reports on the pods (a
    // suspension's active 0 is what Kueue waits for), and need not wait for services or supporting objects to go
    boolean statusFirst = write && (job.getStatus() == null || job.getStatus().condition("Created").isEmpty())
        && decision.actions().stream().filter(a -> a instanceof Action.CreatePod).count() > ActionApplier.MAX_WAVE;
    if (statusFirst) {
      writeStatus(job, status, decidedAt);
    }
    List<Action> actions = CarrierJobs.withCarriers(decision.actions(), observed,
        podless.lostTrack(uid, CarrierJobs.countingAGonePod(observed), decidedAt));
    List<Action> decided = deletions.unsent(uid, ActionApplier.beforeStatus(actions), observed.pods());
    List<Action> unsent = creations.unsent(uid, decided, observed);
    // the API server accepted this job's pods before when some are there, or when a gang restart replaced them all
    boolean accepted = !observed.pods().isEmpty() || status.getRestarts() != null && status.getRestarts() > 0;
    // a short heap holds back jobs that never had pods; those that have some get the rest, so none is left half up
    boolean heldForHeap = !accepted && ActionApplier.createsChildren(unsent) && !heap.admitsNewJobs();
    List<Action> before = heldForHeap ? ActionApplier.withoutCreations(unsent) : unsent;
    // a job that ran before (resumed) had its pods accepted too: no slow start for them
    applier.apply(job, before, events, accepted || status.condition("Running").isPresent());
    deletions.sent(uid, before, observed.pods());
    creations.sent(uid, before);
    if (write && !statusFirst) {
      writeStatus(job, status, decidedAt);
    }
    // the events tell of the status transitions just written: recorded with them, even if a later action fails
    decision.events().forEach(e -> events.record(job, e));
    // one Warning (and log line) per distinct cause of pods that cannot run, not one per pass
    waiting.fresh(uid, decision.waiting(), decidedAt)
        .forEach(c -> events.record(job, JobEvent.warning(kind + c.cause(), c.message())));
    // a held status too: its metrics (the last pod of a suspension gone) count from now, not from its write
    lifecycle.record(uid, kind, job.getStatus() == null ? new JobStatus() : job.getStatus(), status,
        observed.pods().size(), decidedAt);
    applier.apply(job, ActionApplier.afterStatus(actions), events);
    kueue.sync(job, queueing, status, observed.pods(), decidedAt);
    if (retrying.recovered(uid)) {
      LOG.info("The API server accepts the job's changes again");
    }
    // a creation held back, its child not in the cache yet: normally the child's arrival wakes the job first
    Duration held = heldForHeap ? HeapGuard.RETRY
        : before.size() < decided.size() ? CreationsInFlight.EXPIRY.plusSeconds(1) : null;
    // a carrier Job that counts a gone pod sends no event when its bound passes
    Duration lostTrackCheck = podless.untilNext(uid, decidedAt).map(d -> d.plusMillis(500)).orElse(null);
    Duration heldStatus = paced.map(d -> d.plusMillis(50)).orElse(null);
    return rescheduled(decision, queueing, earliest(earliest(held, lostTrackCheck), heldStatus));
  }

  private void writeStatus(J job, JobStatus status, Instant decidedAt) {
    statusWriter.write(job, status, jobType);
    pacing.written(job.getMetadata().getUid(), decidedAt);
  }

  private UpdateControl<J> rescheduled(Decision decision, KueueLink.Followed queueing, Duration held) {
    UpdateControl<J> control = UpdateControl.noUpdate();
    if (decision.requeueAfter().isPresent()) {
      control.rescheduleAfter(earliest(held, decision.requeueAfter().get().plusMillis(500)));
    } else if (queueing.awaitingPrebuilt()) {
      control.rescheduleAfter(earliest(held, PREBUILT_RETRY)); // the informer sees a prebuilt Workload once adopted
    } else if (held != null) {
      control.rescheduleAfter(held);
    }
    return control;
  }

  private static Duration earliest(Duration a, Duration b) {
    return a == null ? b : b == null || a.compareTo(b) <= 0 ? a : b;
  }
}
