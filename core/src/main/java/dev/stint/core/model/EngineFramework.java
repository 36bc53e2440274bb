package dev.stint.core.model;

import dev.stint.spi.FrameworkDefaults;
import dev.stint.spi.JobMessages;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.ReplicaOutcomes;
import dev.stint.spi.api.ReplicaSpec;
import dev.stint.spi.SuccessPolicy;
import dev.stint.spi.SupportingResource;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.WithControllerIdentity;
import dev.stint.spi.WithElasticReplicas;
import dev.stint.spi.WithFailureTolerance;
import dev.stint.spi.WithJobCarriedReplicas;
import dev.stint.spi.WithLaunchOrder;
import dev.stint.spi.WithMessages;
import dev.stint.spi.WithPodNames;
import dev.stint.spi.WithReplicaDefaults;
import dev.stint.spi.WithSupportingResources;
import dev.stint.spi.WithUpstreamPods;
import dev.stint.spi.WithValidation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;

/**
 * A framework as the engine calls it: the seven required methods forwarded, and every capability interface answered,
 * by the framework when it implements that interface (probed once, here), else with the Kubeflow v1 behaviour the
 * interface describes. The engine never asks a framework whether it implements something; it asks this.
 *
 * @param <J> the custom resource class of the kind
 */
public final class EngineFramework<J extends TrainingJob<?>> implements TrainingFramework<J>, WithValidation<J>,
    WithPodNames<J>, WithReplicaDefaults, WithLaunchOrder<J>, WithFailureTolerance<J>, WithMessages<J>,
    WithSupportingResources<J>, WithElasticReplicas<J>, WithControllerIdentity, WithJobCarriedReplicas<J>,
    WithUpstreamPods<J> {

  /** The {@code runPolicy.managedBy} value of the Kubeflow training operator, which Stint stands in for. */
  public static final String KUBEFLOW_TRAINING_OPERATOR = "kubeflow.org/training-operator";

  private final TrainingFramework<J> framework;
  private final WithValidation<J> validation;
  private final WithPodNames<J> podNames;
  private final WithReplicaDefaults replicaDefaults;
  private final WithLaunchOrder<J> launchOrder;
  private final WithFailureTolerance<J> failureTolerance;
  private final WithMessages<J> messages;
  private final WithSupportingResources<J> supporting;
  private final WithElasticReplicas<J> elastic;
  private final WithControllerIdentity identity;
  private final WithJobCarriedReplicas<J> carried;
  private final WithUpstreamPods<J> upstream;

  @SuppressWarnings("unchecked")
  private EngineFramework(TrainingFramework<J> framework) {
    this.framework = framework;
    this.validation = framework instanceof WithValidation<?> v ? (WithValidation<J>) v : null;
    this.podNames = framework instanceof WithPodNames<?> n ? (WithPodNames<J>) n : null;
    this.replicaDefaults = framework instanceof WithReplicaDefaults d ? d : null;
    this.launchOrder = framework instanceof WithLaunchOrder<?> o ? (WithLaunchOrder<J>) o : null;
    this.failureTolerance = framework instanceof WithFailureTolerance<?> t ? (WithFailureTolerance<J>) t : null;
    this.messages = framework instanceof WithMessages<?> m ? (WithMessages<J>) m : null;
    this.supporting = framework instanceof WithSupportingResources<?> s ? (WithSupportingResources<J>) s : null;
    this.elastic = framework instanceof WithElasticReplicas<?> e ? (WithElasticReplicas<J>) e : null;
    this.identity = framework instanceof WithControllerIdentity i ? i : null;
    this.carried = framework instanceof WithJobCarriedReplicas<?> c ? (WithJobCarriedReplicas<J>) c : null;
    this.upstream = framework instanceof WithUpstreamPods<?> u ? (WithUpstreamPods<J>) u : null;
  }

  /** The framework as the engine calls it; the same object when it already is one. */
  public static <J extends TrainingJob<?>> EngineFramework<J> of(TrainingFramework<J> framework) {
    return framework instanceof EngineFramework<J> engine ? engine : new EngineFramework<>(framework);
  }

  /** The framework this answers for (a plugin's class, or the guard around it). */
  public TrainingFramework<J> framework() { return framework; }

  @Override public String name() { return framework.name(); }

  @Override public Class<J> jobType() { return framework.jobType(); }

  @Override public List<String> replicaTypes() { return framework.replicaTypes(); }

  @Override public FrameworkDefaults defaults() { return framework.defaults(); }

  @Override public boolean isLeader(J job, ReplicaId replica) { return framework.isLeader(job, replica); }

  @Override public void wire(J job, ReplicaId replica, Pod pod) { framework.wire(job, replica, pod); }

  @Override public SuccessPolicy successPolicy(J job) { return framework.successPolicy(job); }

  /** The framework's checks; none when it relies on its CRD alone. */
  @Override
  public List<String> validate(J job) {
    return validation == null ? List.of() : validation.validate(job);
  }

  /** Kubeflow's {@code <job>-<type in lower case>-<index>} unless the kind names its pods. */
  @Override
  public String podName(J job, ReplicaId replica) {
    return podNames == null ? replica.podName(job.getMetadata().getName()) : podNames.podName(job, replica);
  }

  /** {@code defaults().restartPolicy()} unless the kind's defaults differ by type. */
  @Override
  public String defaultRestartPolicy(String replicaType) {
    return replicaDefaults == null ? defaults().restartPolicy() : replicaDefaults.defaultRestartPolicy(replicaType);
  }

  /**
   * The restart policy a replica type runs with: its spec's, else the kind's default for the type. The one place it
   * is worked out, for the decision and for the Kueue link alike.
   */
  public String restartPolicy(String replicaType, ReplicaSpec spec) {
    String policy = spec == null ? null : spec.getRestartPolicy();
    return policy == null || policy.isEmpty() ? defaultRestartPolicy(replicaType) : policy;
  }

  /** 1, as Kubeflow v1, unless the kind's defaults differ by type. */
  @Override
  public int defaultReplicas(String replicaType) {
    return replicaDefaults == null ? 1 : replicaDefaults.defaultReplicas(replicaType);
  }

  /** Every pod at once unless the kind orders its replicas. */
  @Override
  public boolean readyToCreate(J job, ReplicaId replica, ReplicaOutcomes outcomes) {
    return launchOrder == null || launchOrder.readyToCreate(job, replica, outcomes);
  }

  /** A replica failed for good fails the job, as upstream, unless the kind tolerates it. */
  @Override
  public boolean failureIsFatal(J job, String replicaType) {
    return failureTolerance == null || failureTolerance.failureIsFatal(job, replicaType);
  }

  /** {@link JobMessages#standard} unless the kind words them. */
  @Override
  public JobMessages messages(J job) {
    return messages == null ? JobMessages.standard(HasMetadata.getKind(jobType()), job.getMetadata().getName())
        : messages.messages(job);
  }

  @Override
  public List<SupportingResource> supportingResources(J job, ReplicaOutcomes outcomes) {
    return supporting == null ? List.of() : supporting.supportingResources(job, outcomes);
  }

  @Override
  public List<Class<? extends HasMetadata>> supportingResourceTypes() {
    return supporting == null ? List.of() : supporting.supportingResourceTypes();
  }

  @Override
  public boolean servicePerPod() {
    return supporting == null || supporting.servicePerPod();
  }

  /** Empty (every replica needed) unless the kind is elastic. */
  @Override
  public OptionalInt minReplicas(J job, String replicaType) {
    return elastic == null ? OptionalInt.empty() : elastic.minReplicas(job, replicaType);
  }

  /** {@code <kind in lower case>-controller}, as the Kubeflow training operator names its controllers. */
  @Override
  public String controllerName() {
    return identity == null ? HasMetadata.getKind(jobType()).toLowerCase(Locale.ROOT) + "-controller"
        : identity.controllerName();
  }

  @Override
  public String managedByValue() {
    return identity == null ? KUBEFLOW_TRAINING_OPERATOR : identity.managedByValue();
  }

  /** Every replica is a pod of the job's own unless the kind carries some in batch Jobs. */
  @Override
  public boolean carriedByJob(J job, String replicaType) {
    return carried != null && carried.carriedByJob(job, replicaType);
  }

  /** Whether some replicas of the kind may run in batch Jobs, which the engine then watches. */
  public boolean carriesReplicasInJobs() {
    return carried != null;
  }

  /** None unless the kind knows its upstream operator's labels. */
  @Override
  public ReplicaId upstreamReplica(Map<String, String> podLabels) {
    return upstream == null ? null : upstream.upstreamReplica(podLabels);
  }

  @Override
  public String toString() {
    return framework.toString();
  }
}
