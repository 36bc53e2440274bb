package dev.stint.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.spi.ReplicaId;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** What wire() adds to launcher and worker pods: env per MPI implementation, sshd, hostnames, the two volumes. */
class MpiPodWiringTest {
  static final ReplicaId LAUNCHER = new ReplicaId(MPIJobSpec.LAUNCHER, 0);
  static final ReplicaId WORKER_1 = new ReplicaId(MPIJobSpec.WORKER, 1);

  static Pod wired(MPIJob job, ReplicaId replica) {
    Pod pod = TestMPIJobs.podFor(job, replica);
    new MpiFramework().wire(job, replica, pod);
    return pod;
  }

  static List<String> env(Pod pod) {
    return pod.getSpec().getContainers().get(0).getEnv().stream()
        .map(e -> e.getName() + "=" + (e.getValue() == null ? "" : e.getValue())).toList();
  }

  static MPIJob job(String implementation, boolean launcherIsWorker) {
    return TestMPIJobs.job("pi").launcher().workers(2).spec(s -> {
      s.setMpiImplementation(implementation);
      s.setSlotsPerWorker(2);
      s.setRunLauncherAsWorker(launcherIsWorker);
    }).build();
  }

  @Test
  void openMpiLauncherEnv() {
    assertThat(env(wired(job(null, false), LAUNCHER))).containsExactly("K_MPI_JOB_ROLE=launcher",
        "OMPI_MCA_orte_keep_fqdn_hostnames=true", "OMPI_MCA_orte_default_hostfile=/etc/mpi/hostfile",
        "OMPI_MCA_plm_rsh_args=-o ConnectionAttempts=10", "OMPI_MCA_orte_set_default_slots=2",
        "NVIDIA_VISIBLE_DEVICES=", "NVIDIA_DRIVER_CAPABILITIES=");
  }

  @Test
  void intelLauncherEnv() {
    assertThat(env(wired(job(MPIJobSpec.INTEL, false), LAUNCHER))).containsExactly("K_MPI_JOB_ROLE=launcher",
        "I_MPI_HYDRA_HOST_FILE=/etc/mpi/hostfile", "I_MPI_HYDRA_BOOTSTRAP_EXEC_EXTRA_ARGS=-o ConnectionAttempts=10",
        "I_MPI_PERHOST=2", "NVIDIA_VISIBLE_DEVICES=", "NVIDIA_DRIVER_CAPABILITIES=");
  }

  @Test
  void mpichLauncherEnv() {
    assertThat(env(wired(job(MPIJobSpec.MPICH, false), LAUNCHER))).containsExactly("K_MPI_JOB_ROLE=launcher",
        "HYDRA_HOST_FILE=/etc/mpi/hostfile", "HYDRA_LAUNCH_EXTRA_ARGS=-o ConnectionAttempts=10",
        "NVIDIA_VISIBLE_DEVICES=", "NVIDIA_DRIVER_CAPABILITIES=");
  }

  @Test
  void launcherThatRunsAsWorkerKeepsItsGpus() {
    assertThat(env(wired(job(MPIJobSpec.OPEN_MPI, true), LAUNCHER)))
        .doesNotContain("NVIDIA_VISIBLE_DEVICES=", "NVIDIA_DRIVER_CAPABILITIES=")
        .contains("K_MPI_JOB_ROLE=launcher", "OMPI_MCA_orte_set_default_slots=2");
  }

  @Test
  void launcherEnvFollowsTheTemplatesOwnAndOnlyTheMainContainerIsWired() {
    MPIJob job = TestMPIJobs.job("pi").launcher().workers(1)
        .template(MPIJobSpec.LAUNCHER, p -> p.editFirstContainer().addNewEnv().withName("A").withValue("1").endEnv()
            .endContainer().addNewContainer().withName("sidecar").withImage("busybox").endContainer())
        .build();
    Pod pod = wired(job, LAUNCHER);

    assertThat(env(pod)).startsWith("A=1", "K_MPI_JOB_ROLE=launcher");
    Container sidecar = pod.getSpec().getContainers().get(1);
    assertThat(sidecar.getEnv()).isNullOrEmpty();
    assertThat(sidecar.getVolumeMounts()).isNullOrEmpty();
  }

  @Test
  void launcherGetsHostnameLabelsHostfileAndSshKeys() {
    Pod pod = wired(job(null, false), LAUNCHER);

    assertThat(pod.getMetadata().getName()).isEqualTo("pi-launcher");
    assertThat(pod.getSpec().getHostname()).isEqualTo("pi-launcher");
    assertThat(pod.getSpec().getSubdomain()).isEqualTo("pi");
    assertThat(pod.getMetadata().getLabels()).containsEntry("training.kubeflow.org/job-role", "launcher")
        .containsEntry("training.kubeflow.org/operator-name", "mpi-operator");
    assertThat(pod.getSpec().getContainers().get(0).getCommand()).containsExactly("mpirun", "-n", "2", "/pi");

    Volume config = volume(pod, "mpi-job-config");
    assertThat(config.getConfigMap().getName()).isEqualTo("pi-config");
    assertThat(config.getConfigMap().getItems()).extracting(KeyToPath::getKey, KeyToPath::getPath, KeyToPath::getMode)
        .containsExactly(Tuple.tuple("hostfile", "hostfile", 0444),
            Tuple.tuple("discover_hosts.sh", "discover_hosts.sh", 0555));
    assertThat(mounts(pod)).containsExactly("mpi-job-config:/etc/mpi", "ssh-auth:/root/.ssh");
    assertSshVolume(pod, 0600);
  }

  @Test
  void workerRunsSshdByDefaultWithItsHostname() {
    Pod pod = wired(job(null, false), WORKER_1);

    Container main = pod.getSpec().getContainers().get(0);
    assertThat(main.getCommand()).containsExactly("/usr/sbin/sshd", "-De");
    assertThat(env(pod)).containsExactly("K_MPI_JOB_ROLE=worker");
    assertThat(pod.getMetadata().getName()).isEqualTo("pi-worker-1");
    assertThat(pod.getSpec().getHostname()).isEqualTo("pi-worker-1");
    assertThat(pod.getSpec().getSubdomain()).isEqualTo("pi");
    assertThat(pod.getMetadata().getLabels()).containsEntry("training.kubeflow.org/job-role", "worker");
    assertThat(mounts(pod)).containsExactly("ssh-auth:/root/.ssh");
    assertThat(pod.getSpec().getVolumes()).extracting(Volume::getName).containsExactly("ssh-auth");
    assertSshVolume(pod, 0600);
  }

  @Test
  void workerKeepsItsOwnCommandOrArgs() {
    MPIJob withArgs = TestMPIJobs.job("pi").launcher().workers(1)
        .template(MPIJobSpec.WORKER, p -> p.editFirstContainer().withArgs("-De", "-f", "/home/mpiuser/.sshd_config")
            .endContainer()).build();
    MPIJob withCommand = TestMPIJobs.job("pi").launcher().workers(1)
        .template(MPIJobSpec.WORKER, p -> p.editFirstContainer().withCommand("/start.sh").endContainer()).build();

    Container args = wired(withArgs, new ReplicaId(MPIJobSpec.WORKER, 0)).getSpec().getContainers().get(0);
    Container command = wired(withCommand, new ReplicaId(MPIJobSpec.WORKER, 0)).getSpec().getContainers().get(0);
    assertThat(args.getCommand()).isNullOrEmpty();
    assertThat(args.getArgs()).containsExactly("-De", "-f", "/home/mpiuser/.sshd_config");
    assertThat(command.getCommand()).containsExactly("/start.sh");
  }

  @Test
  void sshKeysElsewhereKeepTheDefaultMode() {
    MPIJob job = TestMPIJobs.job("pi").launcher().workers(1)
        .spec(s -> s.setSshAuthMountPath("/home/mpiuser/.ssh")).build();
    Pod pod = wired(job, new ReplicaId(MPIJobSpec.WORKER, 0));

    assertThat(mounts(pod)).containsExactly("ssh-auth:/home/mpiuser/.ssh");
    assertSshVolume(pod, null);
  }

  @Test
  void hostNetworkPodsStillResolveClusterNames() {
    MPIJob job = TestMPIJobs.job("pi").launcher().workers(1)
        .template(MPIJobSpec.WORKER, p -> p.withHostNetwork(true)).build();

    assertThat(wired(job, new ReplicaId(MPIJobSpec.WORKER, 0)).getSpec().getDnsPolicy())
        .isEqualTo("ClusterFirstWithHostNet");
    assertThat(wired(job, LAUNCHER).getSpec().getDnsPolicy()).isNull();
  }

  /** As the MPI Operator: workers search the job's Service domain (Intel MPI and MPICH reach the launcher by name). */
  @Test
  void workersSearchTheJobsDomainAfterTheirOwnSearches() {
    MPIJob job = TestMPIJobs.job("pi").launcher().workers(1).template(MPIJobSpec.WORKER, p -> p.withNewDnsConfig()
        .withSearches("corp.example.com").endDnsConfig()).build();
    String domain = "pi." + job.getMetadata().getNamespace() + ".svc.cluster.local";

    assertThat(wired(job, new ReplicaId(MPIJobSpec.WORKER, 0)).getSpec().getDnsConfig().getSearches())
        .containsExactly("corp.example.com", domain);
    assertThat(wired(job, LAUNCHER).getSpec().getDnsConfig()).isNull();
  }

  private static void assertSshVolume(Pod pod, Integer mode) {
    Volume ssh = volume(pod, "ssh-auth");
    assertThat(ssh.getSecret().getSecretName()).isEqualTo("pi-ssh");
    assertThat(ssh.getSecret().getDefaultMode()).isEqualTo(mode);
    assertThat(ssh.getSecret().getItems()).extracting(KeyToPath::getKey, KeyToPath::getPath).containsExactly(
        Tuple.tuple("ssh-privatekey", "id_rsa"),
        Tuple.tuple("ssh-publickey", "id_rsa.pub"),
        Tuple.tuple("ssh-publickey", "authorized_keys"));
  }

  private static Volume volume(Pod pod, String name) {
    return pod.getSpec().getVolumes().stream().filter(v -> name.equals(v.getName())).findFirst().orElseThrow();
  }

  private static List<String> mounts(Pod pod) {
    List<VolumeMount> mounts = pod.getSpec().getContainers().get(0).getVolumeMounts();
    return mounts.stream().map(m -> m.getName() + ":" + m.getMountPath()).toList();
  }
}
