package dev.stint.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.spi.api.ReplicaSpec;
import dev.stint.testkit.ExampleManifestContract;
import dev.stint.testkit.KindManifests;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The MPI Operator's own manifest, {@code examples/mpi-pi.yaml}, reads into the model unchanged and is valid. */
class ExampleManifestTest extends ExampleManifestContract<MPIJob> {

  ExampleManifestTest() {
    super(Path.of(System.getProperty("stint.root"), "examples", "mpi-pi.yaml"), new MpiFramework(),
        "kubeflow.org/v2beta1", "MPIJob", "pi");
  }

  @Test
  void upstreamPiExampleDeserializes() throws IOException {
    MPIJob job = example();

    MPIJobSpec spec = job.getSpec();
    assertThat(spec.getSlotsPerWorker()).isEqualTo(1);
    assertThat(spec.getSshAuthMountPath()).isEqualTo("/home/mpiuser/.ssh");
    assertThat(spec.getRunPolicy().getCleanPodPolicy()).isEqualTo("Running");
    assertThat(spec.getRunPolicy().getTtlSecondsAfterFinished()).isEqualTo(60);
    assertThat(spec.getMpiReplicaSpecs()).containsOnlyKeys("Launcher", "Worker");
    ReplicaSpec launcher = spec.getMpiReplicaSpecs().get("Launcher");
    assertThat(launcher.getReplicas()).isEqualTo(1);
    assertThat(launcher.getRestartPolicy()).isNull();
    Container mpirun = launcher.getTemplate().getSpec().getContainers().get(0);
    assertThat(mpirun.getName()).isEqualTo("mpi-launcher");
    assertThat(mpirun.getImage()).isEqualTo("mpioperator/mpi-pi:openmpi");
    assertThat(mpirun.getCommand()).containsExactly("mpirun");
    assertThat(mpirun.getArgs()).containsExactly("-n", "2", "/home/mpiuser/pi");
    assertThat(mpirun.getSecurityContext().getRunAsUser()).isEqualTo(1000L);
    Container sshd = spec.getMpiReplicaSpecs().get("Worker").getTemplate().getSpec().getContainers().get(0);
    assertThat(spec.getMpiReplicaSpecs().get("Worker").getReplicas()).isEqualTo(2);
    assertThat(sshd.getCommand()).containsExactly("/usr/sbin/sshd");
    assertThat(sshd.getArgs()).containsExactly("-De", "-f", "/home/mpiuser/.sshd_config");
  }

  @Test
  void runPolicyRoundTripsWithItsOwnManagedBy() {
    String manifest = """
        apiVersion: kubeflow.org/v2beta1
        kind: MPIJob
        metadata: {name: pi}
        spec:
          runLauncherAsWorker: true
          mpiImplementation: Intel
          launcherCreationPolicy: WaitForWorkersReady
          runPolicy: {managedBy: kubeflow.org/mpi-operator, suspend: true, backoffLimit: 3}
          mpiReplicaSpecs:
            Launcher: {template: {spec: {containers: [{name: l, image: x}]}}}
        """;
    KubernetesSerialization serialization = KindManifests.serialization(MPIJob.class);
    MPIJob job = serialization.unmarshal(manifest, MPIJob.class);

    assertThat(job.getSpec().getRunPolicy().getManagedBy()).isEqualTo("kubeflow.org/mpi-operator");
    assertThat(job.getSpec().runPolicy().suspended()).isTrue();
    assertThat(job.getSpec().launcherIsWorker()).isTrue();
    assertThat(job.getSpec().implementation()).isEqualTo("Intel");
    assertThat(job.getSpec().launcherWaitsForWorkers()).isTrue();
    String json = serialization.asJson(job);
    assertThat(json).contains("\"managedBy\":\"kubeflow.org/mpi-operator\"", "\"backoffLimit\":3");
    assertThat(json).as("defaults are never written").doesNotContain("slotsPerWorker", "sshAuthMountPath");
    assertThat(serialization.unmarshal(json, MPIJob.class).getSpec().getRunPolicy().getManagedBy())
        .isEqualTo("kubeflow.org/mpi-operator");
  }

  @Test
  void defaultsAreAppliedInMemory() {
    MPIJobSpec spec = new MPIJobSpec();
    assertThat(spec.slots()).isEqualTo(1);
    assertThat(spec.sshMountPath()).isEqualTo("/root/.ssh");
    assertThat(spec.implementation()).isEqualTo("OpenMPI");
    assertThat(spec.launcherWaitsForWorkers()).isFalse();
    assertThat(spec.launcherIsWorker()).isFalse();
    spec.setSshAuthMountPath("");
    assertThat(spec.sshMountPath()).isEqualTo("/root/.ssh");
  }
}
