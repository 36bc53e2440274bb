package dev.stint.spi;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;

/**
 * A training framework: one job kind that Stint runs. The engine in Stint's core owns everything generic (pods,
 * services, names, labels, restart and run policies, suspend and resume, conditions, events); a framework only says
 * what its kind is, wires one replica's pod, and judges success. These seven methods are all a kind must supply.
 *
 * <p>What only some kinds need is a separate small interface, which the framework class implements next to this one
 * and the engine probes for (as Kueue's {@code JobWith*} interfaces): {@link WithValidation},
 * {@link WithSupportingResources}, {@link WithPodNames}, {@link WithLaunchOrder}, {@link WithReplicaDefaults},
 * {@link WithFailureTolerance}, {@link WithMessages}, {@link WithElasticReplicas} and {@link WithControllerIdentity}.
 * A kind without one gets the Kubeflow v1 behaviour that interface describes.
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
 * change. When the operator starts it calls {@link #name}, {@link #jobType}, {@link #replicaTypes}, {@link #defaults}
 * and the identity and resource types of the capabilities once; a plugin whose constructor or one of these throws is
 * skipped with a log line, and the operator runs without it. Any method that throws later, while a job is
 * reconciled, fails only that job: it gets {@code Failed=True} (reason {@code <Kind>Failed}, message
 * {@code framework <name> failed in <method>(): <exception>}), and every other job keeps running.
 *
 * <p>{@code stint-testkit}'s {@code FrameworkContractTest} checks what the engine relies on; extend it in the
 * plugin's tests.
 *
 * @param <J> the custom resource class of the kind
 */
public interface TrainingFramework<J extends TrainingJob<?>> {

  /** A stable short name ({@code pytorch}): the registry key, used in logs, metrics and {@code --frameworks}. */
  String name();

  /**
   * The custom resource class; its {@code @Group}, {@code @Version} and {@code @Kind} name the kind. Name its plural
   * with {@code @Plural} too: without it fabric8 derives the plural in the constructor of every object it decodes.
   * The operator reads the kind's watch events straight into this class with fabric8's Jackson settings, leaving out
   * {@code metadata.managedFields}: a job the engine hands a plugin never carries them.
   */
  Class<J> jobType();

  /** The replica types of the kind, in the order the engine evaluates and creates them ({@code Master, Worker}). */
  List<String> replicaTypes();

  /** Per-kind defaults: default container, port and restart policy. */
  FrameworkDefaults defaults();

  /**
   * Whether a replica carries the {@code training.kubeflow.org/job-role=master} label (for example the PyTorch
   * {@code Master}, or {@code Worker} 0 when there is no Master).
   */
  boolean isLeader(J job, ReplicaId replica);

  /**
   * Wires one replica's pod: environment, init containers, volumes. The pod arrives built from the replica's
   * template, with its name, labels, restart policy and default port already set; the framework adds to it
   * ({@link ContainerEnv} appends variables).
   */
  void wire(J job, ReplicaId replica, Pod pod);

  /** The default success policy of this job (used when the job sets no success rules). */
  SuccessPolicy successPolicy(J job);
}
