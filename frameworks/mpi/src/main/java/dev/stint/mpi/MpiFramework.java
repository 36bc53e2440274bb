package dev.stint.mpi;

import dev.stint.spi.AbstractTrainingFramework;
import dev.stint.spi.FrameworkDefaults;
import dev.stint.spi.JobMessages;
import dev.stint.spi.KubeflowLabels;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.ReplicaOutcomes;
import dev.stint.spi.SuccessPolicy;
import dev.stint.spi.SupportingResource;
import dev.stint.spi.WithControllerIdentity;
import dev.stint.spi.WithFailureTolerance;
import dev.stint.spi.WithJobCarriedReplicas;
import dev.stint.spi.WithLaunchOrder;
import dev.stint.spi.WithMessages;
import dev.stint.spi.WithPodNames;
import dev.stint.spi.WithReplicaDefaults;
import dev.stint.spi.WithSupportingResources;
import dev.stint.spi.WithUpstreamPods;
import dev.stint.spi.WithValidation;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The MPI Operator's MPIJob ({@code kubeflow.org/v2beta1}), run as the MPI Operator v2 runs it: the launcher runs in a
 * batch Job {@code <job>-launcher} controlled by the MPIJob ({@link WithJobCarriedReplicas}), so that either operator
 * finds the other's launcher after a swap and keeps it, but Stint's engine judges it as any replica (suspension,
 * restarts, backoff, deadline and cleanup follow the same rules as every other kind).
 *
 * <ul>
 *   <li>roles: one {@code Launcher} (Job {@code <job>-launcher}, pod hostname {@code <job>-launcher}, runs
 *       {@code mpirun}) and {@code Worker}s
 *       ({@code <job>-worker-<i>}, run sshd); defaults: Launcher 1 replica, {@code OnFailure}; Worker 0 replicas,
 *       {@code Never};</li>
 *   <li>supporting objects, kept through suspensions until the job is deleted: the headless Service {@code <job>},
 *       the ConfigMap {@code <job>-config} ({@code hostfile}, {@code discover_hosts.sh} following the running
 *       workers) and the Secret {@code <job>-ssh} (an SSH key pair, created once);</li>
 *   <li>ordering: with {@code launcherCreationPolicy: WaitForWorkersReady} the launcher is created once every worker
 *       runs;</li>
 *   <li>success: the launcher decides; a worker that fails does not fail the job by itself.</li>
 * </ul>
 *
 * <p>Stateless: every answer is a function of the arguments. The SSH key pair is made only when the engine creates
 * the Secret ({@link SshAuthSecrets}), so a reconcile never generates a key it would throw away.
 */
public class MpiFramework extends AbstractTrainingFramework<MPIJob> implements WithValidation<MPIJob>, WithPodNames<MPIJob>,
    WithReplicaDefaults, WithLaunchOrder<MPIJob>, WithFailureTolerance<MPIJob>, WithMessages<MPIJob>,
    WithSupportingResources<MPIJob>, WithControllerIdentity, WithJobCarriedReplicas<MPIJob>,
    WithUpstreamPods<MPIJob> {

  /** The {@code training.kubeflow.org/operator-name} value, the MPI Operator's. */
  public static final String CONTROLLER_NAME = "mpi-operator";

  /**
   * The operator's environment variable whose value (for example {@code cluster.local}) is appended to every host
   * name after {@code .svc}: the one TFJob's addresses take, so that one setting serves every kind.
   */
  public static final String CLUSTER_DOMAIN_ENV = "CUSTOM_CLUSTER_DOMAIN";

  private final String clusterDomain;

  /**
   * The framework with host names ending in {@code .svc}, completed by the pods' DNS search path, or in
   * {@code .svc.<domain>} when the operator's {@value #CLUSTER_DOMAIN_ENV} names one.
   */
  public MpiFramework() {
    this(System.getenv(CLUSTER_DOMAIN_ENV));
  }

  /**
   * The framework with host names ending in {@code .svc.<clusterDomain>} (the MPI Operator's cluster domain option),
   * for clusters whose DNS search path does not complete {@code .svc} names.
   */
  public MpiFramework(String clusterDomain) {
    // the main container is the first of each template, whatever its name; MPI needs no framework port
    super("mpi", MPIJob.class, List.of(MPIJobSpec.LAUNCHER, MPIJobSpec.WORKER),
        FrameworkDefaults.firstContainerNoPort("Never"));
    this.clusterDomain = clusterDomain == null ? "" : clusterDomain;
  }

  @Override
  public String defaultRestartPolicy(String replicaType) {
    return MPIJobSpec.LAUNCHER.equals(replicaType) ? "OnFailure" : "Never";
  }

  @Override
  public int defaultReplicas(String replicaType) {
    return MPIJobSpec.LAUNCHER.equals(replicaType) ? 1 : 0;
  }

  /** Upstream's names: {@code <job>-launcher} (no index: there is one) and {@code <job>-worker-<i>}. */
  @Override
  public String podName(MPIJob job, ReplicaId replica) {
    String name = job.getMetadata().getName();
    return MPIJobSpec.LAUNCHER.equals(replica.type()) ? MpiHosts.launcherName(name)
        : MpiHosts.workerName(name, replica.index());
  }

  /** The launcher runs in a batch Job, as the MPI Operator v2 runs it. */
  @Override
  public boolean carriedByJob(MPIJob job, String replicaType) {
    return MPIJobSpec.LAUNCHER.equals(replicaType);
  }

  /**
   * The MPI Operator v0.6 labels its pods {@code job-role: launcher} or {@code worker}, a worker with its
   * {@code replica-index} too, and no {@code replica-type}.
   */
  @Override
  public ReplicaId upstreamReplica(Map<String, String> podLabels) {
    String role = podLabels.get(KubeflowLabels.JOB_ROLE);
    if ("launcher".equals(role)) {
      return new ReplicaId(MPIJobSpec.LAUNCHER, 0);
    }
    String index = podLabels.get(KubeflowLabels.REPLICA_INDEX);
    if ("worker".equals(role) && index != null && index.matches("\\d{1,9}")) {
      return new ReplicaId(MPIJobSpec.WORKER, Integer.parseInt(index));
    }
    return null;
  }

  @Override
  public String controllerName() {
    return CONTROLLER_NAME;
  }

  @Override
  public String managedByValue() {
    return MpiRunPolicy.MPI_OPERATOR;
  }

  @Override
  public List<String> validate(MPIJob job) {
    return MPIJobValidation.problems(job);
  }

  /** MPIJob pods carry {@code job-role: launcher} or {@code worker} (set in {@link #wire}), never {@code master}. */
  @Override
  public boolean isLeader(MPIJob job, ReplicaId replica) {
    return false;
  }

  @Override
  public void wire(MPIJob job, ReplicaId replica, Pod pod) {
    MpiPodWiring.wire(job, replica, pod);
  }

  @Override
  public SuccessPolicy successPolicy(MPIJob job) {
    return SuccessPolicy.allOf(MPIJobSpec.LAUNCHER);
  }

  /** The launcher decides: a failed worker makes {@code mpirun} fail, or it does not matter. */
  @Override
  public boolean failureIsFatal(MPIJob job, String replicaType) {
    return MPIJobSpec.LAUNCHER.equals(replicaType);
  }

  /** One headless service for the whole job, supplied by {@link #supportingResources}. */
  @Override
  public boolean servicePerPod() {
    return false;
  }

  @Override
  public boolean readyToCreate(MPIJob job, ReplicaId replica, ReplicaOutcomes outcomes) {
    if (!MPIJobSpec.LAUNCHER.equals(replica.type()) || !job.getSpec().launcherWaitsForWorkers()) {
      return true;
    }
    ReplicaOutcomes.TypeOutcome workers = outcomes.of(MPIJobSpec.WORKER);
    return workers.active().size() >= workers.replicas();
  }

  @Override
  public List<SupportingResource> supportingResources(MPIJob job, ReplicaOutcomes outcomes) {
    return List.of(
        SupportingResource.withJob(service(job)),
        SupportingResource.withJob(configMap(job, outcomes)),
        SshAuthSecrets.of(job));
  }

  @Override
  public List<Class<? extends HasMetadata>> supportingResourceTypes() {
    return List.of(Service.class, ConfigMap.class, Secret.class);
  }

  /** The MPI Operator's words: names qualified with the namespace. */
  @Override
  public JobMessages messages(MPIJob job) {
    return JobMessages.namespaced("MPIJob", job);
  }

  /** The name of a job's ConfigMap: {@code <job>-config}. */
  static String configMapName(String jobName) {
    return jobName + "-config";
  }

  /**
   * The headless service that gives every pod of the job a DNS name ({@code <pod>.<job>.<ns>.svc}). With
   * {@code runLauncherAsWorker} the launcher must reach itself before it is ready, so unready pods are published.
   */
  static Service service(MPIJob job) {
    Map<String, String> selector = new LinkedHashMap<>();
    selector.put(KubeflowLabels.OPERATOR_NAME, CONTROLLER_NAME);
    selector.put(KubeflowLabels.JOB_NAME, job.getMetadata().getName());
    return new ServiceBuilder()
        .withNewMetadata().withName(job.getMetadata().getName()).endMetadata()
        .withNewSpec()
          .withClusterIP("None")
          .withSelector(selector)
          .withPublishNotReadyAddresses(job.getSpec().launcherIsWorker())
        .endSpec()
        .build();
  }

  /** {@code <job>-config}: the hostfile of all workers, and the discovery script of those running now. */
  ConfigMap configMap(MPIJob job, ReplicaOutcomes outcomes) {
    MpiHosts hosts = new MpiHosts(job, clusterDomain);
    Map<String, String> data = new LinkedHashMap<>();
    data.put(MpiPodWiring.HOSTFILE, hosts.hostfile(workerReplicas(job)));
    data.put(MpiPodWiring.DISCOVER_HOSTS, hosts.discoverHosts(outcomes.of(MPIJobSpec.WORKER).active()));
    return new ConfigMapBuilder()
        .withNewMetadata().withName(configMapName(job.getMetadata().getName())).endMetadata()
        .withData(data)
        .build();
  }

  private int workerReplicas(MPIJob job) {
    var worker = job.getSpec().getMpiReplicaSpecs() == null ? null
        : job.getSpec().getMpiReplicaSpecs().get(MPIJobSpec.WORKER);
    return worker == null || worker.getReplicas() == null ? defaultReplicas(MPIJobSpec.WORKER) : worker.getReplicas();
  }
}
