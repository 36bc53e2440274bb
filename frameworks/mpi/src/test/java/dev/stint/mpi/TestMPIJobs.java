package dev.stint.mpi;

import dev.stint.core.model.JobLabels;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.api.ReplicaSpec;
import dev.stint.testkit.JobFixture;
import dev.stint.testkit.ReplicaFixtures;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.util.function.Consumer;

/**
 * Fluent MPIJob fixtures: {@code TestMPIJobs.job("pi").launcher().workers(2).build()}. The launcher runs
 * {@code mpirun}, the workers have no command (so they get sshd), as in upstream's examples. {@link #podFor} builds a
 * pod the way the engine hands it to {@code wire()}; {@link #observed} one the way the kubelet leaves it.
 */
final class TestMPIJobs extends JobFixture<MPIJob, TestMPIJobs> {

  static final String IMAGE = "mpioperator/mpi-pi:openmpi";

  private final MPIJobSpec spec = new MPIJobSpec();

  private TestMPIJobs(String name) {
    super(name);
  }

  static TestMPIJobs job(String name) {
    return new TestMPIJobs(name);
  }

  /** A Launcher with replicas unset (defaults to 1) and a container {@code mpi-launcher} running mpirun. */
  TestMPIJobs launcher() {
    ReplicaSpec launcher = replicaSpec(null, "mpi-launcher");
    launcher.getTemplate().getSpec().getContainers().get(0).setCommand(java.util.List.of("mpirun", "-n", "2", "/pi"));
    return replicaType(MPIJobSpec.LAUNCHER, launcher);
  }

  /** Workers with a container {@code mpi-worker} without command or args. */
  TestMPIJobs workers(Integer count) {
    return replicaType(MPIJobSpec.WORKER, replicaSpec(count, "mpi-worker"));
  }

  TestMPIJobs restartPolicy(String type, String policy) {
    replicaSpec(type).setRestartPolicy(policy);
    return this;
  }

  /** Sets fields of the spec: slots, implementation, launcherCreationPolicy, run policy... */
  TestMPIJobs spec(Consumer<MPIJobSpec> change) {
    change.accept(spec);
    return this;
  }

  @Override
  public MPIJob build() {
    MPIJob job = new MPIJob();
    job.setMetadata(storedMetadata().build());
    spec.setMpiReplicaSpecs(replicaSpecs());
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
