package dev.stint.tensorflow;

import dev.stint.spi.AbstractTrainingFramework;
import dev.stint.spi.ContainerEnv;
import dev.stint.spi.JobMessages;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.SuccessPolicy;
import dev.stint.spi.WithFailureTolerance;
import dev.stint.spi.WithMessages;
import dev.stint.spi.WithValidation;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;

/**
 * Kubeflow's TFJob ({@code kubeflow.org/v1}): TensorFlow replicas wired with {@code TF_CONFIG}, as the Kubeflow
 * training operator v1.9 wires them.
 *
 * <ul>
 *   <li>roles: {@code Chief}, {@code Evaluator}, {@code Master}, {@code PS} and {@code Worker}, evaluated and
 *       created in that (upstream's) order; the leader is the Chief or Master, else Worker 0;</li>
 *   <li>wiring: {@code TF_CONFIG} ({@link TFConfig}) in the {@code tensorflow} container of a distributed job;</li>
 *   <li>success: the Chief (or Master) succeeded; without one, Worker 0 succeeded, or every Worker when
 *       {@code successPolicy: AllWorkers};</li>
 *   <li>failure: a replica of any type that failed for good fails the job, except a Worker of a job with
 *       {@code enableDynamicWorker}.</li>
 * </ul>
 */
public class TensorFlowFramework extends AbstractTrainingFramework<TFJob> implements WithValidation<TFJob>,
    WithFailureTolerance<TFJob>, WithMessages<TFJob> {

  /** The operator's environment variable that names the cluster domain for {@code TF_CONFIG} addresses. */
  public static final String CLUSTER_DOMAIN_ENV = "CUSTOM_CLUSTER_DOMAIN";

  private final String clusterDomain;

  /** The framework with the cluster domain of the operator's {@value #CLUSTER_DOMAIN_ENV}, as upstream reads it. */
  public TensorFlowFramework() {
    this(System.getenv(CLUSTER_DOMAIN_ENV));
  }

  /**
   * The framework with a given cluster domain.
   *
   * @param clusterDomain appended after {@code .svc} in the addresses of {@code TF_CONFIG} ({@code cluster.local}
   *     gives {@code <pod>.<namespace>.svc.cluster.local:2222}); null or empty for none
   */
  public TensorFlowFramework(String clusterDomain) {
    super("tensorflow", TFJob.class, TFJobSpec.REPLICA_TYPES, TFConfig.DEFAULTS);
    this.clusterDomain = clusterDomain == null ? "" : clusterDomain;
  }

  @Override
  public List<String> validate(TFJob job) {
    return TFJobValidation.problems(job);
  }

  @Override
  public boolean isLeader(TFJob job, ReplicaId replica) {
    if (isChiefOrMaster(replica.type())) return true;
    return TFJobSpec.WORKER.equals(replica.type()) && replica.index() == 0 && chiefOrMaster(job) == null;
  }

  /**
   * Appends {@code TF_CONFIG} to the first container named {@code tensorflow}, after the template's own variables,
   * when the job is distributed. Expects a freshly built pod: calling it twice on one pod appends it twice.
   */
  @Override
  public void wire(TFJob job, ReplicaId replica, Pod pod) {
    var tfConfig = TFConfig.of(job, replica, clusterDomain);
    if (tfConfig.isEmpty()) return;
    for (Container container : pod.getSpec().getContainers()) {
      if (TFConfig.CONTAINER.equals(container.getName())) {
        ContainerEnv.append(container, List.of(new EnvVar(TFConfig.ENV_NAME, tfConfig.get(), null)));
        return;
      }
    }
  }

  /**
   * Upstream's TFJob rule: the Chief (or Master) decides alone; without one, Worker 0 finishing means training
   * finished, unless {@code successPolicy: AllWorkers} asks for every Worker.
   */
  @Override
  public SuccessPolicy successPolicy(TFJob job) {
    String chief = chiefOrMaster(job);
    if (chief != null) return SuccessPolicy.allOf(chief);
    SuccessPolicy allWorkers = SuccessPolicy.allOf(TFJobSpec.WORKER);
    if (job.getSpec().allWorkersMustSucceed()) return allWorkers;
    return outcomes -> allWorkers.holds(outcomes) || outcomes.of(TFJobSpec.WORKER).succeeded().contains(0);
  }

  /** Dynamic workers come and go: one failing does not fail the job, as upstream. */
  @Override
  public boolean failureIsFatal(TFJob job, String replicaType) {
    return !(TFJobSpec.WORKER.equals(replicaType) && job.getSpec() != null && job.getSpec().dynamicWorkers());
  }

  /** Upstream's TFJob wording, with the namespace: {@code TFJob <ns>/<name> is running.}. */
  @Override
  public JobMessages messages(TFJob job) {
    return JobMessages.namespaced("TFJob", job);
  }

  /** The Chief or Master replica type of the job, or null when it has neither. */
  private static String chiefOrMaster(TFJob job) {
    Map<String, ?> specs = job.getSpec() == null ? null : job.getSpec().getTfReplicaSpecs();
    if (specs == null) return null;
    if (specs.containsKey(TFJobSpec.CHIEF)) return TFJobSpec.CHIEF;
    return specs.containsKey(TFJobSpec.MASTER) ? TFJobSpec.MASTER : null;
  }

  private static boolean isChiefOrMaster(String type) {
    return TFJobSpec.CHIEF.equals(type) || TFJobSpec.MASTER.equals(type);
  }
}
