package dev.stint.spi;

import dev.stint.spi.api.ReplicaSpec;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * A training framework: one job kind that Stint runs. The engine in Stint's core owns everything generic (pods,
 * services, names, labels, restart and run policies, suspend and resume, conditions, events); a framework only says
 * what its kind looks like, wires one replica's pod, and judges success.
 *
 * <p>Built-in frameworks are found with {@link java.util.ServiceLoader}; third-party ones come as plugin jars with the
 * same {@code META-INF/services/dev.stint.spi.TrainingFramework} entry, dropped into the operator's plugins directory
 * ({@code --plugins-dir}). A plugin jar is a plain jar: the implementation classes, that services entry, and the
 * manifest attributes {@code Plugin-Id}, {@code Plugin-Version} and {@code Stint-Spi-Version} (see
 * {@link SpiVersion} for the compatibility rule). It is compiled against this SPI in {@code provided} scope: the
 * operator loads each plugin in its own class loader but always gives it its own copies of {@code dev.stint.spi},
 * fabric8, Jackson, the Java Operator SDK and SLF4J, whatever the jar bundles. Every other dependency a plugin needs
 * must be inside its jar.
 *
 * <p>Implementations need a public no-argument constructor, must be stateless and thread-safe, and every method must
 * be a pure function of its arguments: the engine calls them on every reconcile. The job handed to a method is the
 * operator's cached object, shared by every reconcile and not copied for each (a copy per reconcile cost a tenth of
 * the operator's CPU): read it, never change it. The pod handed to {@link #wire} is a fresh copy, the framework's to
 * change. When the operator starts it calls
 * {@link #name}, {@link #jobType}, {@link #replicaTypes}, {@link #defaults}, {@link #controllerName},
 * {@link #managedByValue} and {@link #supportingResourceTypes} once; a plugin whose constructor or one of these
 * throws is skipped with a log line, and the operator runs without it. Any method that throws later, while a job is
 * reconciled, fails only that job: it gets {@code Failed=True} (reason {@code <Kind>Failed}, message
 * {@code framework <name> failed in <method>(): <exception>}), and every other job keeps running.
 *
 * @param <J> the custom resource class of the kind
 */
public interface TrainingFramework<J extends TrainingJob<?>> {

  /** A stable short name ({@code pytorch}): the registry key, used in logs, metrics and {@code --frameworks}. */
  String name();

  /** The custom resource class; its {@code @Group}, {@code @Version} and {@code @Kind} name the kind. */
  Class<J> jobType();

  /** The replica types of the kind, in the order the engine evaluates and creates them ({@code Master, Worker}). */
  List<String> replicaTypes();

  /** Per-kind defaults: default container, port and restart policy. */
  FrameworkDefaults defaults();

  /**
   * The restart policy of a replica type whose spec sets none. Defaults to {@code defaults().restartPolicy()}; a kind
   * whose upstream defaults differ by type overrides it (MPIJob v2: Launcher {@code OnFailure}, Worker {@code Never}).
   */
  default String defaultRestartPolicy(String replicaType) {
    return defaults().restartPolicy();
  }

  /**
   * The number of replicas of a type whose spec sets none. Defaults to 1, as Kubeflow v1; MPIJob v2 Workers default
   * to 0.
   */
  default int defaultReplicas(String replicaType) {
    return 1;
  }

  /**
   * The name of a replica's pod (and of its headless service, when {@link #servicePerPod()}). Defaults to Kubeflow's
   * {@code <job>-<type in lower case>-<index>} ({@link ReplicaId#podName}); MPIJob v2 names its launcher
   * {@code <job>-launcher}. Names must be stable and distinct per replica: the engine creates a pod only when none of
   * that name exists.
   */
  default String podName(J job, ReplicaId replica) {
    return replica.podName(job.getMetadata().getName());
  }

  /**
   * The value of the {@code training.kubeflow.org/operator-name} label on the kind's pods and services. Defaults to
   * {@code <kind in lower case>-controller}, as the Kubeflow training operator names its controllers.
   */
  default String controllerName() {
    return HasMetadata.getKind(jobType()).toLowerCase(Locale.ROOT) + "-controller";
  }

  /** The {@code runPolicy.managedBy} value that means "reconciled by this operator". */
  default String managedByValue() {
    return "kubeflow.org/training-operator";
  }

  /**
   * Semantic checks the CRD schema cannot express. Each message names the field, for example
   * {@code spec.pytorchReplicaSpecs.Master.replicas: must be 1}. A job with errors gets {@code Failed=True} with
   * these messages, and no pods.
   */
  default List<String> validate(J job) {
    return List.of();
  }

  /**
   * Whether a replica carries the {@code training.kubeflow.org/job-role=master} label (for example the PyTorch
   * {@code Master}, or {@code Worker} 0 when there is no Master).
   */
  boolean isLeader(J job, ReplicaId replica);

  /**
   * Wires one replica's pod: environment, init containers, volumes. The pod arrives built from the replica's
   * template, with its name, labels, restart policy and default port already set; the framework adds to it.
   */
  void wire(J job, ReplicaId replica, Pod pod);

  /** The default success policy of this job (used when the job sets no success rules). */
  SuccessPolicy successPolicy(J job);

  /**
   * Objects besides pods and services that the job needs (an autoscaler, a hostfile ConfigMap). Called on every
   * reconcile of a job that is not finished, with what its replicas are doing, so an object can follow them (a
   * hostfile listing the running workers). A suspended job is asked too, with no replica running; only its
   * {@link SupportingResource.Lifetime#WITH_JOB} objects are kept.
   */
  default List<SupportingResource> supportingResources(J job, ReplicaOutcomes outcomes) {
    return List.of();
  }

  /** The kinds {@link #supportingResources} may return, so that the engine can find and delete them. */
  default List<Class<? extends HasMetadata>> supportingResourceTypes() {
    return List.of();
  }

  /**
   * The condition messages of this job. Defaults to {@link JobMessages#standard} ({@code <Kind> <name> is running.}).
   */
  default JobMessages messages(J job) {
    return JobMessages.standard(HasMetadata.getKind(jobType()), job.getMetadata().getName());
  }

  /**
   * Whether a missing pod may be created now. Defaults to always; an MPI launcher created only once its workers run
   * ({@code launcherCreationPolicy: WaitForWorkersReady}) says no until then.
   */
  default boolean readyToCreate(J job, ReplicaId replica, ReplicaOutcomes outcomes) {
    return true;
  }

  /**
   * Whether each pod gets a headless service of its own name (the Kubeflow v1 kinds). A framework that wants one
   * service for the whole job (MPIJob v2) returns false and supplies it as a supporting resource.
   */
  default boolean servicePerPod() {
    return true;
  }

  /**
   * Whether a replica of this type that failed for good (its restart policy does not retry it) fails the job when the
   * success policy does not hold. Defaults to true, as upstream; a TFJob with {@code enableDynamicWorker} ignores
   * failed workers. Jobs with explicit success rules fail only once no rule can hold any more.
   */
  default boolean failureIsFatal(J job, String replicaType) {
    return true;
  }

  /**
   * The fewest replicas of a type the job can run with, when it can run with fewer than its spec asks (an elastic
   * PyTorchJob's workers: {@code elasticPolicy.minReplicas}); empty, the default, when it needs them all. With Kueue
   * in native mode this lets Kueue admit the job partially: the type's podSet gets {@code minCount}, and the engine
   * runs the admitted count. Kueue allows it on one podSet of a job: the first type, in {@link #replicaTypes} order,
   * that has one. Added in SPI 1.1.
   */
  default OptionalInt minReplicas(J job, String replicaType) {
    return OptionalInt.empty();
  }

  /** Convenience for implementations: the replica spec of a type, or null. */
  default ReplicaSpec replicaSpec(J job, String type) {
    var specs = job.getSpec() == null ? null : job.getSpec().replicaSpecs();
    return specs == null ? null : specs.get(type);
  }
}
