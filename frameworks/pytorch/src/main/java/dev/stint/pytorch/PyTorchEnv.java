package dev.stint.pytorch;

import dev.stint.spi.FrameworkDefaults;
import dev.stint.spi.ReplicaHosts;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.api.ReplicaSpec;
import io.fabric8.kubernetes.api.model.EnvVar;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The environment the Kubeflow training operator (v1.7+) gives every container of a PyTorchJob pod, in upstream's
 * order: {@code PYTHONUNBUFFERED}; with a Master, {@code MASTER_PORT}, {@code PET_MASTER_PORT}, {@code MASTER_ADDR},
 * {@code PET_MASTER_ADDR}, {@code WORLD_SIZE}, {@code RANK}, {@code PET_NODE_RANK}; {@code PET_NPROC_PER_NODE};
 * then the elastic rendezvous settings, or {@code PET_NNODES} with the total replicas. Defaults (nprocPerNode, the
 * elastic bounds, the framework port) are applied here, in memory, as upstream's defaulting would have.
 */
final class PyTorchEnv {

  static final String CONTAINER = "pytorch";
  static final String PORT_NAME = "pytorchjob-port";
  static final int DEFAULT_PORT = 23456;
  static final String DEFAULT_RDZV_BACKEND = "c10d";
  static final FrameworkDefaults DEFAULTS = new FrameworkDefaults(CONTAINER, PORT_NAME, DEFAULT_PORT, "OnFailure");

  private PyTorchEnv() { }

  /** The variables to append to each container of {@code replica}'s pod. */
  static List<EnvVar> of(PyTorchJob job, ReplicaId replica) {
    PyTorchJobSpec spec = job.getSpec();
    List<EnvVar> env = new ArrayList<>();
    // upstream 1.6 and earlier set 0; 1.7+ disables buffering so that training logs appear as they are written
    env.add(var("PYTHONUNBUFFERED", "1"));
    if (spec.getPytorchReplicaSpecs().containsKey(PyTorchJobSpec.MASTER)) {
      addMaster(job, replica, env);
    }
    spec.effectiveNprocPerNode().ifPresent(n -> env.add(var("PET_NPROC_PER_NODE", n)));
    if (spec.getElasticPolicy() != null) {
      addElastic(job, env);
    } else {
      env.add(var("PET_NNODES", Integer.toString(totalReplicas(spec))));
    }
    return env;
  }

  private static void addMaster(PyTorchJob job, ReplicaId replica, List<EnvVar> env) {
    String port = Integer.toString(portOf(job, PyTorchJobSpec.MASTER));
    String address = ReplicaHosts.host(job, new ReplicaId(PyTorchJobSpec.MASTER, 0).podName(job.getMetadata().getName()));
    // the Master is rank 0; Worker i is node i + 1
    int rank = PyTorchJobSpec.WORKER.equals(replica.type()) ? replica.index() + 1 : replica.index();
    env.add(var("MASTER_PORT", port));
    env.add(var("PET_MASTER_PORT", port));
    env.add(var("MASTER_ADDR", address));
    env.add(var("PET_MASTER_ADDR", address));
    env.add(var("WORLD_SIZE", Integer.toString(worldSize(job.getSpec()))));
    env.add(var("RANK", Integer.toString(rank)));
    env.add(var("PET_NODE_RANK", Integer.toString(rank)));
  }

  private static void addElastic(PyTorchJob job, List<EnvVar> env) {
    ElasticPolicy elastic = job.getSpec().getElasticPolicy();
    int workers = workerReplicas(job.getSpec());
    String host = elastic.getRdzvHost() != null ? elastic.getRdzvHost()
        : ReplicaHosts.host(job, new ReplicaId(PyTorchJobSpec.WORKER, 0).podName(job.getMetadata().getName()));
    int port = elastic.getRdzvPort() != null ? elastic.getRdzvPort() : portOf(job, PyTorchJobSpec.WORKER);
    env.add(var("PET_RDZV_ENDPOINT", host + ":" + port));
    env.add(var("PET_RDZV_BACKEND",
        elastic.getRdzvBackend() != null ? elastic.getRdzvBackend() : DEFAULT_RDZV_BACKEND));
    env.add(var("PET_NNODES",
        elastic.effectiveMinReplicas(workers) + ":" + elastic.effectiveMaxReplicas(workers)));
    if (elastic.getMaxRestarts() != null) {
      env.add(var("PET_MAX_RESTARTS", elastic.getMaxRestarts().toString()));
    }
    if (elastic.getNProcPerNode() != null) {
      env.add(var("PET_NPROC_PER_NODE", elastic.getNProcPerNode().toString()));
    }
    if (elastic.getRdzvId() != null) {
      env.add(var("PET_RDZV_ID", elastic.getRdzvId()));
    }
    if (elastic.getRdzvConf() != null && !elastic.getRdzvConf().isEmpty()) {
      env.add(var("PET_RDZV_CONF", elastic.getRdzvConf().stream()
          .map(c -> c.getKey() + "=" + c.getValue()).collect(Collectors.joining(","))));
    }
    if (Boolean.TRUE.equals(elastic.getStandalone())) {
      env.add(var("PET_STANDALONE", ""));
    }
  }

  /**
   * Nodes times processes per node. Only an integer {@code nprocPerNode} multiplies; {@code auto}, {@code cpu} and
   * {@code gpu} count as one process per node, as upstream does (issue kubeflow/training-operator#1790).
   */
  static int worldSize(PyTorchJobSpec spec) {
    int processesPerNode = spec.effectiveNprocPerNode().flatMap(PyTorchEnv::parseInt).orElse(1);
    return totalReplicas(spec) * processesPerNode;
  }

  static int totalReplicas(PyTorchJobSpec spec) {
    return spec.getPytorchReplicaSpecs().values().stream().mapToInt(ReplicaSpec::replicasOrDefault).sum();
  }

  static int workerReplicas(PyTorchJobSpec spec) {
    ReplicaSpec worker = spec.getPytorchReplicaSpecs().get(PyTorchJobSpec.WORKER);
    return worker == null ? 0 : worker.replicasOrDefault();
  }

  /**
   * The {@code pytorchjob-port} of a replica type's {@code pytorch} container in the job's template, or 23456: the
   * engine adds the default port only to the pods it builds, never to the stored job, so a template without the
   * port means the default.
   */
  static int portOf(PyTorchJob job, String type) {
    return DEFAULTS.templatePort(job.getSpec().getPytorchReplicaSpecs().get(type));
  }

  private static Optional<Integer> parseInt(String value) {
    try {
      return Optional.of(Integer.parseInt(value));
    } catch (NumberFormatException notAnInteger) {
      return Optional.empty();
    }
  }

  private static EnvVar var(String name, String value) {
    EnvVar env = new EnvVar();
    env.setName(name);
    env.setValue(value);
    return env;
  }
}
