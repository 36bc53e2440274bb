package dev.stint.tensorflow;

import dev.stint.spi.ReplicaId;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.RunPolicy;
import io.fabric8.kubernetes.api.model.Pod;
import dev.stint.testkit.JobFixture;
import dev.stint.testkit.ReplicaFixtures;
import java.util.function.Consumer;

/**
 * Fluent TFJob fixtures: {@code TestTFJobs.job("dist").namespace("ns").chief(1).workers(2).ps(1).build()}. Every
 * replica type gets a template with one container named {@code tensorflow}; ports are left out unless asked for, as
 * in most user manifests. {@link #podFor} builds a pod the way the engine hands it to {@code wire()}.
 */
final class TestTFJobs extends JobFixture<TFJob, TestTFJobs> {

  static final String IMAGE = "kubeflow/tf-dist-mnist-test:1.0";

  private String successPolicy;
  private Boolean enableDynamicWorker;
  private RunPolicy runPolicy;
  private JobStatus status;

  private TestTFJobs(String name) {
    super(name, TFConfig.CONTAINER, IMAGE);
  }

  static TestTFJobs job(String name) {
    return new TestTFJobs(name);
  }

  TestTFJobs chief(Integer replicas) {
    return replicaType(TFJobSpec.CHIEF, replicas);
  }

  TestTFJobs master(Integer replicas) {
    return replicaType(TFJobSpec.MASTER, replicas);
  }

  TestTFJobs evaluator(Integer replicas) {
    return replicaType(TFJobSpec.EVALUATOR, replicas);
  }

  TestTFJobs ps(Integer replicas) {
    return replicaType(TFJobSpec.PS, replicas);
  }

  TestTFJobs workers(Integer replicas) {
    return replicaType(TFJobSpec.WORKER, replicas);
  }

  /** Sets the restart policy of every replica type added so far. */
  TestTFJobs restartPolicy(String policy) {
    replicaSpecs().values().forEach(spec -> spec.setRestartPolicy(policy));
    return this;
  }

  /** Gives the {@code tensorflow} container of a replica type the framework port. */
  TestTFJobs port(String type, int port) {
    return containerPort(type, TFConfig.PORT_NAME, port);
  }

  TestTFJobs successPolicy(String value) {
    this.successPolicy = value;
    return this;
  }

  TestTFJobs dynamicWorkers() {
    this.enableDynamicWorker = true;
    return this;
  }

  TestTFJobs runPolicy(Consumer<RunPolicy> settings) {
    this.runPolicy = new RunPolicy();
    settings.accept(runPolicy);
    return this;
  }

  TestTFJobs status(JobStatus status) {
    this.status = status;
    return this;
  }

  @Override
  public TFJob build() {
    TFJob job = new TFJob();
    job.setMetadata(storedMetadata().build());
    TFJobSpec spec = new TFJobSpec();
    spec.setTfReplicaSpecs(replicaSpecs());
    spec.setSuccessPolicy(successPolicy);
    spec.setEnableDynamicWorker(enableDynamicWorker);
    spec.setRunPolicy(runPolicy);
    job.setSpec(spec);
    job.setStatus(status);
    return job;
  }

  /**
   * The pod of one replica as the engine passes it to {@code wire()}: a copy of the template with the pod name and
   * the default port added to the {@code tensorflow} container when it has none of that name.
   */
  static Pod podFor(TFJob job, ReplicaId replica) {
    return ReplicaFixtures.podForWire(job, replica, TFConfig.DEFAULTS);
  }
}
