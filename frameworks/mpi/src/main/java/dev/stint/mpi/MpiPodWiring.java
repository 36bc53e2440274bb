package dev.stint.mpi;

import dev.stint.spi.ContainerEnv;
import dev.stint.spi.KubeflowLabels;
import dev.stint.spi.ReplicaId;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.KeyToPathBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodDNSConfig;
import io.fabric8.kubernetes.api.model.PodDNSConfigBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Wires an MPIJob's pods as the MPI Operator v2 does. Only the first container (the main one, whatever its name) is
 * touched. Every pod gets its name as hostname under the job's service ({@code subdomain: <job>}), so that the host
 * names of the hostfile resolve, and the SSH key Secret at {@code sshAuthMountPath}. Workers run sshd unless the
 * template says otherwise; the launcher gets the hostfile at {@code /etc/mpi} and the environment that points its MPI
 * implementation at it.
 */
final class MpiPodWiring {
  static final String ROLE_ENV = "K_MPI_JOB_ROLE";
  static final String JOB_ROLE_LABEL = KubeflowLabels.JOB_ROLE;
  static final String CONFIG_VOLUME = "mpi-job-config";
  static final String CONFIG_MOUNT_PATH = "/etc/mpi";
  static final String HOSTFILE = "hostfile";
  static final String DISCOVER_HOSTS = "discover_hosts.sh";
  static final String SSH_VOLUME = "ssh-auth";
  static final List<String> WORKER_COMMAND = List.of("/usr/sbin/sshd", "-De");
  private static final String HOSTFILE_PATH = CONFIG_MOUNT_PATH + "/" + HOSTFILE;
  private static final String CONNECTION_ATTEMPTS = "-o ConnectionAttempts=10";
  private static final int READ_ONLY = 0444;
  private static final int EXECUTABLE = 0555;
  private static final int OWNER_ONLY = 0600;

  private MpiPodWiring() { }

  static void wire(MPIJob job, ReplicaId replica, Pod pod) {
    boolean launcher = MPIJobSpec.LAUNCHER.equals(replica.type());
    Map<String, String> labels = pod.getMetadata().getLabels() == null ? new LinkedHashMap<>()
        : new LinkedHashMap<>(pod.getMetadata().getLabels());
    labels.put(JOB_ROLE_LABEL, launcher ? "launcher" : "worker");
    pod.getMetadata().setLabels(labels);
    PodSpec spec = pod.getSpec();
    spec.setHostname(pod.getMetadata().getName());
    spec.setSubdomain(job.getMetadata().getName()); // the job's headless service
    if (Boolean.TRUE.equals(spec.getHostNetwork())) {
      // lets the pod resolve the other pods' names through the cluster DNS although it uses the node's network
      spec.setDnsPolicy("ClusterFirstWithHostNet");
    }
    Container main = spec.getContainers().get(0);
    if (launcher) {
      ContainerEnv.append(main, launcherEnv(job.getSpec()));
      mountConfig(job, spec, main);
    } else {
      if (isEmpty(main.getCommand()) && isEmpty(main.getArgs())) {
        main.setCommand(new ArrayList<>(WORKER_COMMAND));
      }
      ContainerEnv.append(main, List.of(new EnvVar(ROLE_ENV, "worker", null)));
      searchJobDomain(job, spec);
    }
    mountSshAuth(job, spec, main);
  }

  /**
   * A worker looks short names up in the job's Service domain as well, as the MPI Operator's workers do: Intel MPI and
   * MPICH reach the launcher by its hostname. The domain is the MPI Operator's, {@code cluster.local} included.
   */
  private static void searchJobDomain(MPIJob job, PodSpec spec) {
    String domain = job.getMetadata().getName() + "." + job.getMetadata().getNamespace() + ".svc.cluster.local";
    PodDNSConfig template = spec.getDnsConfig();
    List<String> searches = template == null || template.getSearches() == null ? new ArrayList<>()
        : new ArrayList<>(template.getSearches());
    searches.add(domain);
    // a copy: the template's own object belongs to the cached job
    spec.setDnsConfig(new PodDNSConfigBuilder(template == null ? new PodDNSConfig() : template)
        .withSearches(searches).build());
  }

  /** The launcher's variables: its role, the hostfile for the MPI implementation, and no GPUs unless it computes. */
  static List<EnvVar> launcherEnv(MPIJobSpec spec) {
    List<EnvVar> env = new ArrayList<>();
    env.add(new EnvVar(ROLE_ENV, "launcher", null));
    String slots = Integer.toString(spec.slots());
    switch (spec.implementation()) {
      case MPIJobSpec.INTEL -> {
        env.add(new EnvVar("I_MPI_HYDRA_HOST_FILE", HOSTFILE_PATH, null));
        env.add(new EnvVar("I_MPI_HYDRA_BOOTSTRAP_EXEC_EXTRA_ARGS", CONNECTION_ATTEMPTS, null));
        env.add(new EnvVar("I_MPI_PERHOST", slots, null));
      }
      case MPIJobSpec.MPICH -> {
        env.add(new EnvVar("HYDRA_HOST_FILE", HOSTFILE_PATH, null));
        env.add(new EnvVar("HYDRA_LAUNCH_EXTRA_ARGS", CONNECTION_ATTEMPTS, null));
      }
      default -> {
        env.add(new EnvVar("OMPI_MCA_orte_keep_fqdn_hostnames", "true", null));
        env.add(new EnvVar("OMPI_MCA_orte_default_hostfile", HOSTFILE_PATH, null));
        env.add(new EnvVar("OMPI_MCA_plm_rsh_args", CONNECTION_ATTEMPTS, null));
        env.add(new EnvVar("OMPI_MCA_orte_set_default_slots", slots, null));
      }
    }
    if (!spec.launcherIsWorker()) {
      // a launcher that only runs mpirun must not grab GPUs through a GPU-enabled container runtime
      env.add(new EnvVar("NVIDIA_VISIBLE_DEVICES", null, null));
      env.add(new EnvVar("NVIDIA_DRIVER_CAPABILITIES", null, null));
    }
    return env;
  }

  private static void mountConfig(MPIJob job, PodSpec spec, Container main) {
    addVolume(spec, new VolumeBuilder().withName(CONFIG_VOLUME).withNewConfigMap()
        .withName(MpiFramework.configMapName(job.getMetadata().getName()))
        .withItems(item(HOSTFILE, HOSTFILE, READ_ONLY), item(DISCOVER_HOSTS, DISCOVER_HOSTS, EXECUTABLE))
        .endConfigMap().build());
    addMount(main, new VolumeMountBuilder().withName(CONFIG_VOLUME).withMountPath(CONFIG_MOUNT_PATH).build());
  }

  /**
   * The key pair at {@code sshAuthMountPath}: {@code id_rsa} (private), {@code id_rsa.pub} and {@code authorized_keys}
   * (both public). Only in root's default home is the mode forced to 0600, which sshd demands there; elsewhere the
   * user's securityContext (fsGroup) decides, as upstream.
   */
  private static void mountSshAuth(MPIJob job, PodSpec spec, Container main) {
    String path = job.getSpec().sshMountPath();
    Integer mode = MPIJobSpec.DEFAULT_SSH_AUTH_MOUNT_PATH.equals(path) ? OWNER_ONLY : null;
    addVolume(spec, new VolumeBuilder().withName(SSH_VOLUME).withNewSecret()
        .withSecretName(SshAuthSecrets.name(job.getMetadata().getName()))
        .withDefaultMode(mode)
        .withItems(item(SshAuthSecrets.PRIVATE_KEY, "id_rsa", null),
            item(SshAuthSecrets.PUBLIC_KEY, "id_rsa.pub", null),
            item(SshAuthSecrets.PUBLIC_KEY, "authorized_keys", null))
        .endSecret().build());
    addMount(main, new VolumeMountBuilder().withName(SSH_VOLUME).withMountPath(path).build());
  }

  private static KeyToPath item(String key, String path, Integer mode) {
    return new KeyToPathBuilder().withKey(key).withPath(path).withMode(mode).build();
  }

  private static void addVolume(PodSpec spec, Volume volume) {
    List<Volume> volumes = spec.getVolumes() == null ? new ArrayList<>() : new ArrayList<>(spec.getVolumes());
    volumes.add(volume);
    spec.setVolumes(volumes);
  }

  private static void addMount(Container container, VolumeMount mount) {
    List<VolumeMount> mounts = container.getVolumeMounts() == null ? new ArrayList<>()
        : new ArrayList<>(container.getVolumeMounts());
    mounts.add(mount);
    container.setVolumeMounts(mounts);
  }

  private static boolean isEmpty(List<String> list) {
    return list == null || list.isEmpty();
  }
}
