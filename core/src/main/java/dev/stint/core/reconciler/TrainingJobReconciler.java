package dev.stint.core.reconciler;

import dev.stint.core.decision.Decision;
import dev.stint.core.decision.EngineSettings;
import dev.stint.core.decision.JobContext;
import dev.stint.core.decision.JobDecider;
import dev.stint.core.decision.Observed;
import dev.stint.core.heap.HeapGuard;
import dev.stint.core.kube.ActionApplier;
import dev.stint.core.kube.ChildRefused;
import dev.stint.core.kube.EventRecorder;
import dev.stint.core.kueue.KueueLink;
import dev.stint.core.kueue.QueueingChange;
import dev.stint.core.metrics.JobLifecycleMetrics;
import dev.stint.core.model.EngineFramework;
import dev.stint.core.model.JobEvent;
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
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The JOSDK entry point for one kind. A pass reads as its steps: observe (the job's children from the informer
 * caches, what Kueue says: a {@link Pass}), decide ({@link JobDecider}, pure), act (children first, then the status
 * and what it records, then removals: {@link #act}) and look again ({@link NextPass}). The policies of acting are
 * named steps of their own: when the status goes out ({@link StatusToWrite}: first or after the children, or held
 * back by {@link StatusPacing}), which actions go out ({@link OutgoingActions}: carrier Jobs replaced, creations and
 * deletions in flight left out, new jobs held while the heap is short), a job failed by the engine
 * ({@link FailedJobs}) and a refusal retried ({@link RefusalRetries}). What is kept about a job between passes is in
 * one {@link JobMemory}, forgotten in one call. Events are sent in the background. One instance is registered per
 * framework, with an explicit controller configuration, because JOSDK cannot infer a generic reconciler's resource
 * class.
 *
 * <p>The framework is called through a {@link GuardedFramework}: when its code throws while a job is observed or
 * decided, that job alone ends {@code Failed} ({@link JobDecider#failedByFramework}) and the failure is logged; the
 * operator and every other job carry on. Failures of the engine itself still propagate, so JOSDK retries them.
 */
public final class TrainingJobReconciler<J extends TrainingJob<?>> implements Reconciler<J> {
  private final EngineFramework<J> framework;
  private final EngineFramework<J> guarded;
  private final Class<J> jobType;
  private final String kind;
  private final Clock clock;
  private final ActionApplier applier;
  private final EventRecorder events;
  private final StatusWriter statusWriter;
  private final EngineSettings settings;
  private final JobLifecycleMetrics lifecycle;
  private final KueueLink<J> kueue;
  private final JobMemory memory;
  private final ChildrenObserved<J> children;
  private final OutgoingActions outgoing;
  private final FailedJobs<J> failures;
  private final RefusalRetries<J> retries;

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
    this.settings = settings;
    this.lifecycle = lifecycle;
    this.framework = EngineFramework.of(framework);
    this.guarded = EngineFramework.of(GuardedFramework.guard(framework));
    // read once, at registration: every reconcile needs them, also one in which the framework fails
    this.jobType = framework.jobType();
    this.kind = HasMetadata.getKind(jobType);
    this.clock = clock;
    this.applier = applier;
    this.events = events;
    this.statusWriter = new StatusWriter(applier.client(), serverSideApply, "stint");
    this.memory = new JobMemory(clock, statusWriter, lifecycle, kueue, new UnreadableJobs(kind, events));
    this.children = new ChildrenObserved<>(this.framework, this.guarded, settings.gangScheduling());
    this.outgoing = new OutgoingActions(memory, heap);
    this.failures = new FailedJobs<>(guarded, settings, this.framework.managedByValue());
    this.retries = new RefusalRetries<>(jobType, memory.retrying(), statusWriter, events, lifecycle);
  }

  public EngineFramework<J> framework() {
    return framework;
  }

  @Override
  public List<EventSource<?, J>> prepareEventSources(EventSourceContext<J> context) {
    lifecycle.countJobs(kind, () -> context.getPrimaryCache().list());
    return new ChildEventSources<>(framework, settings, kueue, memory.creations()::removed).prepare(context);
  }

  @Override
  public UpdateControl<J> reconcile(J cached, Context<J> context) {
    J job = statusWriter.current(cached); // the cache may not show our last status write yet
    try (JobLogContext logContext = JobLogContext.of(kind, job)) {
      if (memory.unreadable().leaveAlone(cached)) {
        return UpdateControl.noUpdate(); // no spec to decide from: its pods are left as they are
      }
      Instant now = clock.instant();
      try {
        job = kueue.withDefaults(job); // the queue and priority Kueue's webhook would have given it at creation
      } catch (KubernetesClientException e) {
        return retries.later(job, Decision.none(), e, now);
      }
      Pass<J> pass = observe(job, context, now);
      Decision decision = decide(pass);
      return actOrFail(pass, decision);
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

  /**
   * Observe: the job's children in the caches, the pods whose deletion this process sent and the cache lags on seen
   * terminating; then what Kueue says of the job.
   */
  private Pass<J> observe(J job, Context<J> context, Instant now) {
    Observed cached = children.observe(job, context);
    List<Pod> pods = memory.deletions().asTheDecisionSees(job.getMetadata().getUid(), cached.pods(), now.toString());
    Observed observed = pods == cached.pods() ? cached
        : new Observed(pods, cached.services(), cached.supporting(), cached.carriers());
    return new Pass<>(job, observed, kueue.follow(job, observed.pods()), now);
  }

  /** Decide: the pure decision; a framework that throws fails its job alone. */
  private Decision decide(Pass<J> pass) {
    try {
      return JobDecider.decide(
          new JobContext<>(pass.job(), guarded, pass.now(), settings, pass.queueing().gate()), pass.observed());
    } catch (FrameworkFailure e) {
      return failures.byFramework(pass, e);
    }
  }

  /**
   * Acts on the decision. A child refused for good, or a framework that throws while a pod is built, ends the job
   * {@code Failed} at once, with the failure's words; a refusal that heals is retried with capped backoff
   * ({@link RefusalRetries}).
   */
  private UpdateControl<J> actOrFail(Pass<J> pass, Decision decision) {
    Decision current = decision;
    try {
      try {
        return act(pass, current);
      } catch (ChildRefused e) {
        lifecycle.failedToCreate(kind);
        current = failures.refused(pass, e);
      } catch (FrameworkFailure e) {
        current = failures.byFramework(pass, e);
      }
      // a failed job's decision creates nothing, so cannot fail so again
      return act(pass, current);
    } catch (KubernetesClientException e) {
      return retries.later(pass.job(), current, e, pass.now());
    }
  }

  /**
   * Act: the pass's children (pods and new children, the status first for a new job of many pods), then the status
   * and what it records, then removals; the Workload follows; then when to look again.
   */
  private UpdateControl<J> act(Pass<J> pass, Decision decision) {
    if (decision.status() == null) {
      return leftAsItIs(pass);
    }
    StatusToWrite status = StatusToWrite.of(pass, decision, memory.pacing());
    if (status.first()) {
      writeStatus(pass, status.status());
    }
    OutgoingActions.Selected actions = outgoing.select(pass, decision.actions(), status.status());
    applier.apply(pass.job(), actions.beforeStatus(), events, actions.accepted());
    outgoing.sent(pass, actions);
    record(pass, decision, status);
    applier.apply(pass.job(), actions.afterStatus(), events);
    kueue.sync(pass.job(), pass.queueing(), status.status(), pass.observed().pods(), pass.now());
    retries.wentThrough(pass.uid());
    return NextPass.after(decision, pass.queueing(), actions.heldBack(), outgoing.carrierCheck(pass),
        status.recheck());
  }

  /** A job whose status is not ours to write (managed elsewhere): its manager-side Workload, nothing more. */
  private UpdateControl<J> leftAsItIs(Pass<J> pass) {
    if (pass.queueing().dispatched() && pass.job().getMetadata().getDeletionTimestamp() == null) {
      kueue.sync(pass.job(), pass.queueing(), null, pass.observed().pods(), pass.now());
    }
    return UpdateControl.noUpdate();
  }

  /**
   * Record: the status (unless written first or held back), the events of its transitions, the causes of waiting
   * pods new for the job, and the lifecycle metrics.
   */
  private void record(Pass<J> pass, Decision decision, StatusToWrite status) {
    J job = pass.job();
    if (status.afterChildren()) {
      writeStatus(pass, status.status());
    }
    // the events tell of the status transitions just written: recorded with them, even if a later action fails
    decision.events().forEach(e -> events.record(job, e));
    // one Warning (and log line) per distinct cause of pods that cannot run, not one per pass nor per process
    memory.waiting().fresh(pass.uid(), decision.waiting(), pass.now(), job.getStatus())
        .forEach(c -> events.record(job, JobEvent.warning(kind + c.cause(), c.message())));
    // a held status too: its metrics (the last pod of a suspension gone) count from now, not from its write
    lifecycle.record(pass.uid(), kind, job.getStatus() == null ? new JobStatus() : job.getStatus(), status.status(),
        pass.observed().pods().size(), pass.now());
  }

  private void writeStatus(Pass<J> pass, JobStatus status) {
    statusWriter.write(pass.job(), status, jobType);
    memory.pacing().written(pass.uid(), pass.now());
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
}
