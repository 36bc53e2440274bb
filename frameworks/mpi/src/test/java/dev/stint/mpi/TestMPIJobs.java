package dev.stint.mpi;

import dev.stint.core.decision.JobLabels;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.api.ReplicaSpec;
import dev.stint.testkit.ReplicaFixtures;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Fluent MPIJob fixtures: {@code TestMPIJobs.job("pi").launcher().workers(2).build()}. The launcher runs
 * {@code mpirun}, the workers have no command (so they get sshd), as in upstream's examples. {@link #podFor} builds a
 * pod the way the engine hands it to {@code wire()}; {@link #observed} one the way the kubelet leaves it.
 */
final class TestMPIJobs {

  static final String IMAGE = "mpioperator/mpi-pi:openmpi";

  private final String name;
  private String namespace = "default";
  private final Map<String, ReplicaSpec> replicas = new LinkedHashMap<>();
  private final MPIJobSpec spec = new MPIJobSpec();

  private TestMPIJobs(String name) {
    this.name = name;
  }

  static TestMPIJobs job(String name) {
    return new TestMPIJobs(name);
  }

  TestMPIJobs namespace(String namespace) {
    this.namespace = namespace;
    return this;
  }

  /** A Launcher with replicas unset (defaults to 1) and a container {@code mpi-launcher} running mpirun. */
  TestMPIJobs launcher() {
    ReplicaSpec launcher = replicaSpec(null, "mpi-launcher");
    launcher.getTemplate().getSpec().getContainers().get(0).setCommand(java.util.List.of("mpirun", "-n", "2", "/pi"));
    replicas.put(MPIJobSpec.LAUNCHER, launcher);
    return this;
  }

  /** Workers with a container {@code mpi-worker} without command or args. */
  TestMPIJobs workers(Integer count) {
    replicas.put(MPIJobSpec.WORKER, replicaSpec(count, "mpi-worker"));
    return this;
  }

  /** Changes the template of a replica type added before. */
  TestMPIJobs template(String type, Consumer<PodSpecBuilder> change) {
    ReplicaFixtures.editTemplate(replicas.get(type), change);
    return this;
  }

  TestMPIJobs restartPolicy(String type, String policy) {
    replicas.get(type).setRestartPolicy(policy);
    return this;
  }

  /** Sets fields of the spec: slots, implementation, launcherCreationPolicy, run policy... */
  TestMPIJobs spec(Consumer<MPIJobSpec> change) {
    change.accept(spec);
    return this;
  }

  MPIJob build() {
    MPIJob job = new MPIJob();
    job.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).withUid("uid-" + name)
        .withGeneration(1L).build());
    spec.setMpiReplicaSpecs(new LinkedHashMap<>(replicas));
    job.setSpec(spec);
    return job;
  }

  private static ReplicaSpec replicaSpec(Integer count, String container) {
    return ReplicaFixtures.replicaSpec(count, container, IMAGE);
  }

  /** The pod of one replica as the engine passes it to {@code wire()}: the template copied, named and labelled. */
  static Pod podFor(MPIJob job, ReplicaId replica) {
    ReplicaSpec spec = job.getSpec().getMpiReplicaSpecs().get(replica.type());
    return new PodBuilder()
        .withMetadata(new ObjectMetaBuilder().withName(new MpiFramework().podName(job, replica))
            .withNamespace(job.getMetadata().getNamespace())
            .withLabels(JobLabels.ofReplica(MpiFramework.CONTROLLER_NAME, job.getMetadata().getName(), replica))
            .build())
        .withSpec(new PodSpecBuilder(spec.getTemplate().getSpec()).build())
        .build();
  }

  /** A pod of the job as observed in a phase ({@code Pending}, {@code Running}, ...), with an exit code if ended. */
  static Pod observed(MPIJob job, ReplicaId replica, String phase, Integer exitCode) {
    Pod pod = podFor(job, replica);
    pod.getMetadata().setCreationTimestamp("2026-01-01T00:00:00Z");
    var container = new ContainerStatusBuilder().withName(pod.getSpec().getContainers().get(0).getName())
        .withRestartCount(0);
    if (exitCode != null) {
      container.withNewState().withNewTerminated().withExitCode(exitCode).endTerminated().endState();
    }
    pod.setStatus(new PodStatusBuilder().withPhase(phase).withContainerStatuses(container.build()).build());
    return pod;
  }
}
