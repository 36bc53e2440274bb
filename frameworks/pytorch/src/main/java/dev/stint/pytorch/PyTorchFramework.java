package dev.stint.pytorch;

import dev.stint.spi.AbstractTrainingFramework;
import dev.stint.spi.ContainerEnv;
import dev.stint.spi.JobMessages;
import dev.stint.spi.ReplicaHosts;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.ReplicaOutcomes;
import dev.stint.spi.SuccessPolicy;
import dev.stint.spi.SupportingResource;
import dev.stint.spi.WithElasticReplicas;
import dev.stint.spi.WithMessages;
import dev.stint.spi.WithSupportingResources;
import dev.stint.spi.WithValidation;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Kubeflow's PyTorchJob ({@code kubeflow.org/v1}): a Master and Workers wired for {@code torch.distributed} and
 * torchrun, as the Kubeflow training operator v1.9 wires them.
 *
 * <ul>
 *   <li>roles: {@code Master} (at most one replica, the rendezvous point) and {@code Worker}; the leader is the
 *       Master, or Worker 0 when there is none;</li>
 *   <li>wiring: the environment of {@link PyTorchEnv} on every container, and on Worker pods of a job with a Master
 *       an {@code init-pytorch} init container that waits until the Master resolves;</li>
 *   <li>success: the Master succeeded; without a Master, every Worker succeeded, or any Worker for an elastic
 *       job (whose Worker count the autoscaler may change);</li>
 *   <li>supporting resources: a HorizontalPodAutoscaler for an elastic job with metrics.</li>
 * </ul>
 */
public class PyTorchFramework extends AbstractTrainingFramework<PyTorchJob> implements WithValidation<PyTorchJob>,
    WithSupportingResources<PyTorchJob>, WithElasticReplicas<PyTorchJob>, WithMessages<PyTorchJob> {

  private final MasterWaitInitContainer initContainer;

  /** The framework with upstream's init container: image {@code alpine:3.10}, up to 100 lookups of the Master. */
  public PyTorchFramework() {
    this(MasterWaitInitContainer.DEFAULT_IMAGE, MasterWaitInitContainer.DEFAULT_MAX_TRIES);
  }

  /**
   * The framework with another init container image or number of lookups (upstream's
   * {@code --pytorch-init-container-image} and {@code --pytorch-init-container-max-tries}).
   */
  public PyTorchFramework(String initContainerImage, int initContainerMaxTries) {
    super("pytorch", PyTorchJob.class, List.of(PyTorchJobSpec.MASTER, PyTorchJobSpec.WORKER),
        PyTorchEnv.DEFAULTS);
    this.initContainer = new MasterWaitInitContainer(initContainerImage, initContainerMaxTries);
  }

  @Override
  public List<String> validate(PyTorchJob job) {
    return PyTorchJobValidation.problems(job);
  }

  @Override
  public boolean isLeader(PyTorchJob job, ReplicaId replica) {
    if (PyTorchJobSpec.MASTER.equals(replica.type())) return true;
    return PyTorchJobSpec.WORKER.equals(replica.type()) && replica.index() == 0 && !hasMaster(job);
  }

  /**
   * Appends the PyTorch environment to every container, after the template's own variables, and on Worker pods of a
   * job with a Master appends the {@code init-pytorch} init container after the template's init containers. Expects
   * a freshly built pod: calling it twice on one pod appends everything twice.
   */
  @Override
  public void wire(PyTorchJob job, ReplicaId replica, Pod pod) {
    PodSpec podSpec = pod.getSpec();
    ContainerEnv.appendToEach(pod, PyTorchEnv.of(job, replica));
    if (PyTorchJobSpec.WORKER.equals(replica.type()) && hasMaster(job)) {
      String master = ReplicaHosts.host(job, new ReplicaId(PyTorchJobSpec.MASTER, 0).podName(job.getMetadata().getName()));
      List<Container> initContainers = podSpec.getInitContainers() == null
          ? new ArrayList<>() : new ArrayList<>(podSpec.getInitContainers());
      initContainers.add(initContainer.waitingFor(master));
      podSpec.setInitContainers(initContainers);
    }
  }

  /** An elastic job runs with as few as {@code elasticPolicy.minReplicas} workers: Kueue may admit it partially. */
  @Override
  public OptionalInt minReplicas(PyTorchJob job, String replicaType) {
    ElasticPolicy elastic = job.getSpec() == null ? null : job.getSpec().getElasticPolicy();
    if (!PyTorchJobSpec.WORKER.equals(replicaType) || elastic == null || elastic.getMinReplicas() == null) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(elastic.getMinReplicas());
  }

  @Override
  public SuccessPolicy successPolicy(PyTorchJob job) {
    if (hasMaster(job)) return SuccessPolicy.allOf(PyTorchJobSpec.MASTER);
    // an elastic job's Worker count moves with the autoscaler; one Worker finishing means training finished
    if (job.getSpec().getElasticPolicy() != null) return SuccessPolicy.atLeast(PyTorchJobSpec.WORKER, 1);
    return SuccessPolicy.allOf(PyTorchJobSpec.WORKER);
  }

  @Override
  public List<SupportingResource> supportingResources(PyTorchJob job, ReplicaOutcomes outcomes) {
    return ElasticAutoscaler.of(job).map(hpa -> List.of(SupportingResource.whileRunning(hpa))).orElse(List.of());
  }

  @Override
  public List<Class<? extends HasMetadata>> supportingResourceTypes() {
    return List.of(HorizontalPodAutoscaler.class);
  }

  /**
   * Upstream words the Running and Succeeded messages of a job without a Master differently: with the namespace,
   * and "successfully completed" without "is".
   */
  @Override
  public JobMessages messages(PyTorchJob job) {
    JobMessages standard = JobMessages.standard("PyTorchJob", job.getMetadata().getName());
    if (hasMaster(job)) return standard;
    return JobMessages.namespaced("PyTorchJob", job).failingAs(standard);
  }

  private static boolean hasMaster(PyTorchJob job) {
    var specs = job.getSpec() == null ? null : job.getSpec().getPytorchReplicaSpecs();
    return specs != null && specs.containsKey(PyTorchJobSpec.MASTER);
  }
}
