package dev.stint.pytorch;

import dev.stint.spi.ReplicaId;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpec;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpecBuilder;
import dev.stint.testkit.JobFixture;
import dev.stint.testkit.ReplicaFixtures;
import java.util.function.Consumer;

/**
 * Fluent PyTorchJob fixtures: {@code TestPyTorchJobs.job("test-job").master(1).workers(2).build()}. Every replica
 * type gets a template with one container named {@code pytorch}; ports are left out unless asked for, as in most
 * user manifests. {@link #podFor} builds a pod the way the engine hands it to {@code wire()}.
 */
final class TestPyTorchJobs extends JobFixture<PyTorchJob, TestPyTorchJobs> {

  static final String IMAGE = "docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727";

  private String nprocPerNode;
  private ElasticPolicy elasticPolicy;

  private TestPyTorchJobs(String name) {
    super(name, PyTorchEnv.CONTAINER, IMAGE);
  }

  static TestPyTorchJobs job(String name) {
    return new TestPyTorchJobs(name);
  }

  TestPyTorchJobs master(int replicas) {
    return replicaType(PyTorchJobSpec.MASTER, replicas);
  }

  TestPyTorchJobs workers(int replicas) {
    return replicaType(PyTorchJobSpec.WORKER, replicas);
  }

  /** Gives the {@code pytorch} container of a replica type the framework port. */
  TestPyTorchJobs port(String type, int port) {
    return containerPort(type, PyTorchEnv.PORT_NAME, port);
  }

  TestPyTorchJobs nprocPerNode(String value) {
    this.nprocPerNode = value;
    return this;
  }

  /** Makes the job elastic; the consumer sets the policy's fields. */
  TestPyTorchJobs elastic(Consumer<ElasticPolicy> settings) {
    this.elasticPolicy = new ElasticPolicy();
    settings.accept(elasticPolicy);
    return this;
  }

  @Override
  public PyTorchJob build() {
    PyTorchJob job = new PyTorchJob();
    job.setMetadata(metadata().build());
    PyTorchJobSpec spec = new PyTorchJobSpec();
    spec.setPytorchReplicaSpecs(replicaSpecs());
    spec.setNprocPerNode(nprocPerNode);
    spec.setElasticPolicy(elasticPolicy);
    job.setSpec(spec);
    return job;
  }

  /** A CPU-utilisation metric, as in upstream's elastic examples. */
  static MetricSpec cpuUtilization(int percent) {
    return new MetricSpecBuilder().withType("Resource").withNewResource().withName("cpu")
        .withNewTarget().withType("Utilization").withAverageUtilization(percent).endTarget()
        .endResource().build();
  }

  /**
   * The pod of one replica as the engine passes it to {@code wire()}: a copy of the template with the pod name and
   * the default port added to the {@code pytorch} container when it has none of that name.
   */
  static Pod podFor(PyTorchJob job, ReplicaId replica) {
    return ReplicaFixtures.podForWire(job, replica, PyTorchEnv.DEFAULTS);
  }
}
