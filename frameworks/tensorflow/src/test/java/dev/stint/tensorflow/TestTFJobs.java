package dev.stint.tensorflow;

import dev.stint.spi.ReplicaId;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.ReplicaSpec;
import dev.stint.spi.api.RunPolicy;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import dev.stint.testkit.ReplicaFixtures;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Fluent TFJob fixtures: {@code TestTFJobs.job("dist").namespace("ns").chief(1).workers(2).ps(1).build()}. Every
 * replica type gets a template with one container named {@code tensorflow}; ports are left out unless asked for, as
 * in most user manifests. {@link #podFor} builds a pod the way the engine hands it to {@code wire()}.
 */
final class TestTFJobs {

  static final String IMAGE = "kubeflow/tf-dist-mnist-test:1.0";

  private final String name;
  private String namespace = "default";
  private final Map<String, ReplicaSpec> replicas = new LinkedHashMap<>();
  private String successPolicy;
  private Boolean enableDynamicWorker;
  private RunPolicy runPolicy;
  private JobStatus status;

  private TestTFJobs(String name) {
    this.name = name;
  }

  static TestTFJobs job(String name) {
    return new TestTFJobs(name);
  }

  TestTFJobs namespace(String namespace) {
    this.namespace = namespace;
    return this;
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

  /** A replica type with a replica count (null: unset) and a template of one {@code tensorflow} container. */
  TestTFJobs replicaType(String type, Integer replicas) {
    this.replicas.put(type, ReplicaFixtures.replicaSpec(replicas, TFConfig.CONTAINER, IMAGE));
    return this;
  }

  /** Sets the restart policy of every replica type added so far. */
  TestTFJobs restartPolicy(String policy) {
    replicas.values().forEach(spec -> spec.setRestartPolicy(policy));
    return this;
  }

  /** Changes the template of a replica type added before. */
  TestTFJobs template(String type, Consumer<PodSpecBuilder> change) {
    ReplicaFixtures.editTemplate(replicas.get(type), change);
    return this;
  }

  /** Gives the {@code tensorflow} container of a replica type the framework port. */
  TestTFJobs port(String type, int port) {
    return template(type, pod -> pod.editFirstContainer()
        .addNewPort().withName(TFConfig.PORT_NAME).withContainerPort(port).endPort().endContainer());
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

  TFJob build() {
    TFJob job = new TFJob();
    job.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).withUid("uid-" + name)
        .withGeneration(1L).build());
    TFJobSpec spec = new TFJobSpec();
    spec.setTfReplicaSpecs(new LinkedHashMap<>(replicas));
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
