package dev.stint.core.kueue;

import dev.stint.core.ReconcilerRole;
import dev.stint.core.decision.KueueGate;
import dev.stint.core.decision.KueueSettings;
import dev.stint.core.kube.EventRecorder;
import dev.stint.core.model.EngineFramework;
import dev.stint.core.model.JobFacts;
import dev.stint.core.model.JobEvent;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One kind's link to Kueue in native mode: the Workloads' informer, the gate of each job (read before the engine
 * decides) and the Workload writes after it acted. With Kueue off it watches nothing and every job is not queued.
 */
public final class KueueLink<J extends TrainingJob<?>> {
  private static final Logger LOG = LoggerFactory.getLogger(KueueLink.class);
  private final EngineFramework<J> framework;
  private final KueueSettings settings;
  private final KueueObjects kueueObjects;
  private final WorkloadWriter writer;
  private final QueueDefaulting defaulting;
  private final String kind;
  private final EventRecorder events;
  private final ReconcilerRole role;
  /** Jobs told about a Workload that is not Stint's, told once each (dropped when the job goes). */
  /** The Workloads Kueue's own integration made, by their job's uid: told once, released with the job. */
  private final Map<String, ResourceID> foreignWorkloads = new ConcurrentHashMap<>();
  private final QueueNotices notices;
  private volatile InformerEventSource<GenericKubernetesResource, J> workloads;
  private volatile IndexerResourceCache<J> jobs;

  /**
   * A job's queueing as read before a pass.
   *
   * @param workload its Workload; null when it has none (or is not queued)
   * @param dispatched MultiKueue runs the job in a worker cluster: here it has a Workload and nothing else
   * @param prebuilt the prebuilt Workload the job names, or null
   * @param missingPriorityClass the priority class that the job asks for, that does not exist and that its Workload
   *     waits for; null when none does
   */
  public record Followed(boolean queued, WorkloadView workload, KueueGate gate, boolean dispatched, String prebuilt,
                         WorkloadFor.PriorityRef missingPriorityClass) {
    static final Followed NOT_QUEUED = new Followed(false, null, KueueGate.NOT_QUEUED, false, null);

    public Followed(boolean queued, WorkloadView workload, KueueGate gate, boolean dispatched, String prebuilt) {
      this(queued, workload, gate, dispatched, prebuilt, null);
    }

    /**
     * The job waits for an object that may appear without an event Stint would see: a prebuilt Workload not adopted
     * yet, or the priority class it asks for.
     */
    public boolean awaitsWithoutEvent() {
      return (prebuilt != null && workload == null) || missingPriorityClass != null;
    }
  }

  /**
   * @param events where a Workload that is not Stint's is reported
   * @param role whether this process may write Workloads outside a reconcile
   */
  public KueueLink(TrainingFramework<J> framework, KueueSettings settings, KueueObjects kueueObjects,
                   WorkloadWriter writer, EventRecorder events, ReconcilerRole role) {
    this.events = events;
    this.role = role;
    this.framework = EngineFramework.of(framework);
    this.settings = settings;
    this.kueueObjects = kueueObjects;
    this.defaulting = kueueObjects == null ? null : new QueueDefaulting(kueueObjects);
    this.writer = writer;
    this.kind = HasMetadata.getKind(framework.jobType());
    this.notices = new QueueNotices(kind, events);
  }

  /** Kueue off: a link that follows nothing. */
  public static <J extends TrainingJob<?>> KueueLink<J> off(TrainingFramework<J> framework) {
    return new KueueLink<>(framework, KueueSettings.OFF, null, null, null, null);
  }

  /** The informer of the kind's Workloads (those Stint created, by their label), in native mode. */
  public Optional<EventSource<GenericKubernetesResource, J>> eventSource(EventSourceContext<J> context) {
    if (!settings.nativeMode()) {
      return Optional.empty();
    }
    var config = InformerEventSourceConfiguration.from(new GroupVersionKind(KueueApi.GROUP, KueueApi.VERSION,
            "Workload"), context.getPrimaryResourceClass())
        .withName(framework.name() + "-workloads")
        .withLabelSelector("training.kubeflow.org/operator-name=" + framework.controllerName())
        .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(context.getPrimaryResourceClass()))
        .build();
    jobs = context.getPrimaryCache();
    workloads = new InformerEventSource<>(config, context) {
      @Override
      public void onAdd(GenericKubernetesResource workload) {
        super.onAdd(workload);
        releaseIfOrphaned(workload);
      }

      @Override
      public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource workload) {
        super.onUpdate(old, workload);
        releaseIfOrphaned(workload);
      }
    };
    return Optional.of(workloads);
  }

  /**
   * In native mode, the job with the queue and priority that Kueue's webhook gives a job of its own integrations at
   * creation ({@link QueueDefaults}) written to its labels; the job as it is otherwise, and for a job another
   * controller manages.
   */
  public J withDefaults(J job) {
    if (defaulting == null || !settings.nativeMode() || !WorkloadFor.ours(job, framework.managedByValue())) {
      return job;
    }
    return defaulting.apply(job, framework.jobType());
  }

  /**
   * Whether the job is queued, its Workload, and whether its pods may run; a change of its queue labels that Kueue's
   * webhook would have refused is told once ({@link QueueMembership}).
   *
   * @param pods the job's pods (whether it runs outside Kueue)
   */
  public Followed follow(J job, List<Pod> pods) {
    if (!settings.nativeMode() || workloads == null) {
      return Followed.NOT_QUEUED;
    }
    boolean labelled = WorkloadFor.queued(job, settings, framework.managedByValue());
    if (!labelled && !WorkloadFor.ours(job, framework.managedByValue())) {
      return Followed.NOT_QUEUED; // another controller's
    }
    WorkloadView workload = workloadOf(job).map(WorkloadView::of).orElse(null);
    if (!labelled && workload == null) {
      return Followed.NOT_QUEUED; // most unqueued jobs: nothing to decide
    }
    boolean dispatched = WorkloadFor.dispatched(job);
    String prebuilt = dispatched ? null : WorkloadFor.prebuiltName(job);
    QueueMembership.Verdict verdict = QueueMembership.decide(new QueueMembership.Facts(kind,
        job.getMetadata().getName(), labelled, job.getMetadata().getLabels(), workload, JobFacts.of(job).suspended(),
        prebuilt != null, pods, WorkloadFor.priorityClass(job, framework).orElse(null),
        kueueObjects::priorityClassExists));
    notices.tell(job, verdict.notice());
    if (!verdict.queued()) {
      return Followed.NOT_QUEUED;
    }
    if (verdict.missingPriorityClass() != null) {
      KueueGate held = new KueueGate.Held(QueueMembership.missingPriorityClassReason(verdict.missingPriorityClass()),
          QueueMembership.missingPriorityClassMessage(kind, job.getMetadata().getName(),
              verdict.missingPriorityClass()), true);
      return new Followed(true, null, held, dispatched, prebuilt, verdict.missingPriorityClass());
    }
    // the flavors matter only once admitted: most passes of a queued job are not
    var known = workload != null && workload.admission() != null ? kueueObjects.flavors() : Map.<String, Flavor>of();
    KueueGate gate = WorkloadGate.of(kind, job.getMetadata().getName(), WorkloadFor.queueName(job), workload, known);
    return new Followed(true, workload, gate, dispatched, prebuilt);
  }

  /** Brings the Workload in line with the pass just made. */
  public void sync(J job, Followed followed, JobStatus next, List<Pod> pods, Instant now) {
    if (!followed.queued()) {
      return;
    }
    List<WorkloadWrite> writes = writes(job, followed, next, pods, now);
    if (writes.isEmpty()) {
      return;
    }
    try {
      writer.apply(job, framework, followed.workload(), writes);
    } catch (WorkloadWriter.ForeignWorkloadException e) {
      foreignWorkload(job, e.workload());
    }
  }

  private List<WorkloadWrite> writes(J job, Followed followed, JobStatus next, List<Pod> pods, Instant now) {
    if (followed.missingPriorityClass() != null) {
      return List.of(); // no Workload until its class exists, as Kueue makes none
    }
    boolean suspended = JobFacts.of(job).suspended();
    if (followed.dispatched()) {
      return WorkloadSync.decideDispatched(followed.workload(), suspended, now);
    }
    if (followed.prebuilt() != null) {
      List<WorkloadWrite> prebuilt = PrebuiltWorkload.decide(followed.prebuilt(), followed.workload(),
          WorkloadFor.podSetsOf(job, framework), now);
      if (!prebuilt.isEmpty()) {
        return prebuilt;
      }
    }
    List<WorkloadWrite> writes = new ArrayList<>(WorkloadSync.decide(followed.workload(), next, suspended, pods,
        now));
    boolean ended = next != null && (next.isTrue("Succeeded") || next.isTrue("Failed"));
    ReclaimablePods.decide(followed.workload(), ended, pods, ReclaimablePods.restartPolicies(job, framework))
        .ifPresent(writes::add);
    var labels = job.getMetadata().getLabels();
    QueueingChange.decide(followed.workload(), WorkloadFor.queueName(job),
        labels == null ? null : labels.get(KueueApi.PRIORITY_CLASS_LABEL)).ifPresent(writes::add);
    // a prebuilt Workload is not Stint's to change: one out of sync is finished above
    if (followed.prebuilt() == null && followed.workload() != null && followed.workload().admission() == null
        && !ended) {
      OutdatedWorkload.decide(followed.workload(), WorkloadFor.podSetsOf(job, framework)).ifPresent(writes::add);
    }
    return writes;
  }

  /**
   * Kueue's own integration made the job's Workload: said once, as an event on the job and a log line naming the
   * settings to change. The job keeps waiting: Stint runs it only on a Workload of its own.
   */
  private void foreignWorkload(J job, String workload) {
    if (foreignWorkloads.putIfAbsent(job.getMetadata().getUid(),
        new ResourceID(workload, job.getMetadata().getNamespace())) != null) {
      return;
    }
    String external = kind + "." + HasMetadata.getVersion(framework.jobType()) + "."
        + HasMetadata.getGroup(framework.jobType());
    String message = "Workload " + workload + " of this job was not created by Stint: Kueue's own integration for "
        + kind + " is on. With --kueue=native, remove " + HasMetadata.getGroup(framework.jobType()) + "/"
        + kind.toLowerCase(Locale.ROOT) + " from Kueue's integrations.frameworks and list " + external
        + " in integrations.externalFrameworks, then delete this job and create it again: it waits until then.";
    LOG.warn(message);
    events.record(job, JobEvent.warning(kind + "WorkloadNotStints", message));
  }

  /**
   * The job of that uid is gone: its Workloads' finalizers go too, or Kueue would hold their quota for ever. Only
   * the process that reconciles writes; a standby's job cache sees the deletion too.
   */
  public void jobGone(String uid) {
    InformerEventSource<GenericKubernetesResource, J> source = workloads;
    ResourceID foreign = foreignWorkloads.remove(uid);
    notices.forget(uid);
    if (source == null || !role.leading()) {
      return;
    }
    if (foreign != null) {
      // Kueue's integration for the kind, now off, would have released it; no one else will, and it holds quota
      writer.releaseLater(foreign.getNamespace().orElseThrow(), foreign.getName(), uid, framework.jobType());
    }
    source.list(w -> w.getMetadata().getLabels() != null
        && uid.equals(w.getMetadata().getLabels().get(KueueApi.JOB_UID_LABEL))).forEach(this::release);
  }

  /**
   * Releases every Workload of the kind whose job is gone: those of jobs deleted while no Stint was leading. Called
   * when this process starts reconciling, with its caches synced.
   */
  public void releaseOrphans() {
    InformerEventSource<GenericKubernetesResource, J> source = workloads;
    if (source == null || !role.leading()) {
      return;
    }
    source.list(this::orphaned).forEach(this::release);
  }

  private void releaseIfOrphaned(GenericKubernetesResource workload) {
    if (jobs != null && role.leading() && orphaned(workload)) {
      release(workload);
    }
  }

  private boolean orphaned(GenericKubernetesResource workload) {
    WorkloadView.Owner owner = WorkloadView.ownerOf(workload);
    Optional<String> jobUid = owner == null ? Optional.empty()
        : jobs.get(new ResourceID(owner.name(), workload.getMetadata().getNamespace()))
            .map(job -> job.getMetadata().getUid());
    return WorkloadView.orphaned(WorkloadView.of(workload).hasFinalizer(), owner, jobUid);
  }

  /** In the background, after the API server confirmed the job is gone: the caches may lag behind it. */
  private void release(GenericKubernetesResource workload) {
    writer.releaseLater(workload, framework.jobType());
  }

  private Optional<GenericKubernetesResource> workloadOf(J job) {
    String uid = job.getMetadata().getUid();
    String name = KueueApi.workloadName(kind, HasMetadata.getGroup(framework.jobType()), job.getMetadata().getName(),
        uid);
    String prebuilt = WorkloadFor.prebuiltName(job);
    String first = prebuilt != null && !WorkloadFor.dispatched(job) ? prebuilt : name;
    // the prebuilt or Kueue's name first; another Workload the job controls (one re-created under a new name) after
    return workloads.getSecondaryResources(job).stream()
        .filter(w -> w.getMetadata().getOwnerReferences() != null && w.getMetadata().getOwnerReferences().stream()
            .anyMatch(r -> uid.equals(r.getUid()) && Boolean.TRUE.equals(r.getController())))
        .min(Comparator.comparing((GenericKubernetesResource w) -> !first.equals(w.getMetadata().getName()))
            .thenComparing(w -> w.getMetadata().getName()));
  }
}
