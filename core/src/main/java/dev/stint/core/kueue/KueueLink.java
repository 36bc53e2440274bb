package dev.stint.core.kueue;

import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * One kind's link to Kueue in native mode: the Workloads' informer, the gate of each job (read before the engine
 * decides) and the Workload writes after it acted. With Kueue off it watches nothing and every job is not queued.
 */
public final class KueueLink<J extends TrainingJob<?>> {
  private final TrainingFramework<J> framework;
  private final KueueSettings settings;
  private final FlavorCache flavors;
  private final WorkloadWriter writer;
  private final String kind;
  private volatile InformerEventSource<GenericKubernetesResource, J> workloads;

  /**
   * A job's queueing as read before a pass.
   *
   * @param workload its Workload; null when it has none (or is not queued)
   */
  public record Followed(boolean queued, WorkloadView workload, KueueGate gate) {
    static final Followed NOT_QUEUED = new Followed(false, null, KueueGate.NOT_QUEUED);
  }

  public KueueLink(TrainingFramework<J> framework, KueueSettings settings, FlavorCache flavors,
                   WorkloadWriter writer) {
    this.framework = framework;
    this.settings = settings;
    this.flavors = flavors;
    this.writer = writer;
    this.kind = HasMetadata.getKind(framework.jobType());
  }

  /** Kueue off: a link that follows nothing. */
  public static <J extends TrainingJob<?>> KueueLink<J> off(TrainingFramework<J> framework) {
    return new KueueLink<>(framework, KueueSettings.OFF, null, null);
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
    workloads = new InformerEventSource<>(config, context);
    return Optional.of(workloads);
  }

  /** Whether the job is queued, its Workload, and whether its pods may run. */
  public Followed follow(J job) {
    if (!WorkloadFor.queued(job, settings, framework.managedByValue()) || workloads == null) {
      return Followed.NOT_QUEUED;
    }
    WorkloadView workload = workloadOf(job).map(WorkloadView::of).orElse(null);
    KueueGate gate = KueueGate.of(kind, job.getMetadata().getName(), WorkloadFor.queueName(job), workload,
        flavors.flavors());
    return new Followed(true, workload, gate);
  }

  /** Brings the Workload in line with the pass just made. */
  public void sync(J job, Followed followed, JobStatus next, List<Pod> pods, Instant now) {
    if (!followed.queued()) {
      return;
    }
    boolean suspended = job.getSpec() != null && job.getSpec().runPolicy() != null
        && job.getSpec().runPolicy().suspended();
    List<WorkloadWrite> writes = WorkloadSync.decide(followed.workload(), next, suspended, pods, now);
    if (!writes.isEmpty()) {
      writer.apply(job, framework, followed.workload(), writes);
    }
  }

  /** The job of that uid is gone: its Workloads' finalizers go too, or Kueue would hold their quota for ever. */
  public void jobGone(String uid) {
    InformerEventSource<GenericKubernetesResource, J> source = workloads;
    if (source == null) {
      return;
    }
    source.list(w -> w.getMetadata().getLabels() != null
        && uid.equals(w.getMetadata().getLabels().get(KueueApi.JOB_UID_LABEL))).forEach(writer::releaseLater);
  }

  private Optional<GenericKubernetesResource> workloadOf(J job) {
    String uid = job.getMetadata().getUid();
    String name = KueueApi.workloadName(kind, HasMetadata.getGroup(framework.jobType()), job.getMetadata().getName(),
        uid);
    // Kueue's name first; another Workload the job controls (one re-created under a new name) after it
    return workloads.getSecondaryResources(job).stream()
        .filter(w -> w.getMetadata().getOwnerReferences() != null && w.getMetadata().getOwnerReferences().stream()
            .anyMatch(r -> uid.equals(r.getUid()) && Boolean.TRUE.equals(r.getController())))
        .min(Comparator.comparing((GenericKubernetesResource w) -> !name.equals(w.getMetadata().getName()))
            .thenComparing(w -> w.getMetadata().getName()));
  }
}
