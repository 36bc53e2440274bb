package dev.stint.pytorch;

import dev.stint.spi.TrainingJobSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The semantic checks of a PyTorchJob that its CRD does not make: values that upstream accepted at admission but that
 * cannot run (a {@code nprocPerNode} torchrun rejects, elastic bounds the autoscaler rejects). The structural rules
 * (replica types, Master replicas, the {@code pytorch} container, ...) are CEL rules in the CRD; the ones that would
 * make wiring wrong are checked here again, for clusters that still run an older CRD (or upstream's, which has none).
 */
final class PyTorchJobValidation {

  /**
   * What torchrun's {@code --nproc-per-node} takes: a positive count, or a word ({@code auto}, {@code cpu},
   * {@code gpu}, {@code xpu}, a device backend's name such as {@code npu}); the CRD has the same pattern.
   */
  static final String NPROC_PER_NODE_PATTERN = "^([a-z][a-z0-9_]*|[1-9][0-9]*)$";
  private static final Pattern NPROC_PER_NODE = Pattern.compile(NPROC_PER_NODE_PATTERN);
  private static final int MAX_PORT = 65535;

  private PyTorchJobValidation() { }

  /** The problems, each naming its field; empty when the job can run. */
  static List<String> problems(PyTorchJob job) {
    PyTorchJobSpec spec = job.getSpec();
    // the CRD requires both; checked again because wiring cannot do without them
    if (!TrainingJobSpec.hasReplicaSpecs(spec)) return List.of("spec.pytorchReplicaSpecs: must be set");
    List<String> problems = new ArrayList<>();
    replicaProblems(spec, problems);
    if (spec.getNprocPerNode() != null && !NPROC_PER_NODE.matcher(spec.getNprocPerNode()).matches()) {
      problems.add("spec.nprocPerNode: must be auto, cpu, gpu, a device type or a positive integer, not \""
          + spec.getNprocPerNode() + "\"");
    }
    if (spec.getElasticPolicy() != null) {
      elasticProblems(spec.getElasticPolicy(), problems);
    }
    return problems;
  }

  private static void replicaProblems(PyTorchJobSpec spec, List<String> problems) {
    var master = spec.getPytorchReplicaSpecs().get(PyTorchJobSpec.MASTER);
    var worker = spec.getPytorchReplicaSpecs().get(PyTorchJobSpec.WORKER);
    if (master != null && master.replicasOrDefault() != 1) {
      problems.add("spec.pytorchReplicaSpecs.Master.replicas: must be 1");
    }
    if (worker != null && worker.replicasOrDefault() < 1) {
      problems.add("spec.pytorchReplicaSpecs.Worker.replicas: must be at least 1");
    }
    if (spec.getElasticPolicy() != null && worker == null) {
      problems.add("spec.elasticPolicy: needs a Worker replica spec");
    }
    if (spec.getNprocPerNode() != null && spec.getElasticPolicy() != null
        && spec.getElasticPolicy().getNProcPerNode() != null) {
      problems.add("spec.nprocPerNode: must not be set together with the deprecated spec.elasticPolicy.nProcPerNode");
    }
  }

  private static void elasticProblems(ElasticPolicy elastic, List<String> problems) {
    Integer min = elastic.getMinReplicas();
    Integer max = elastic.getMaxReplicas();
    if (min != null && min < 1) {
      problems.add("spec.elasticPolicy.minReplicas: must be at least 1");
    }
    if (max != null && max < 1) {
      problems.add("spec.elasticPolicy.maxReplicas: must be at least 1");
    }
    if (min != null && max != null && min > max) {
      problems.add("spec.elasticPolicy.maxReplicas: must not be less than minReplicas (" + min + ")");
    }
    if (elastic.getRdzvPort() != null && (elastic.getRdzvPort() < 1 || elastic.getRdzvPort() > MAX_PORT)) {
      problems.add("spec.elasticPolicy.rdzvPort: must be a port number between 1 and " + MAX_PORT);
    }
    if (elastic.getNProcPerNode() != null && elastic.getNProcPerNode() < 1) {
      problems.add("spec.elasticPolicy.nProcPerNode: must be at least 1");
    }
    if (elastic.getMaxRestarts() != null && elastic.getMaxRestarts() < 0) {
      problems.add("spec.elasticPolicy.maxRestarts: must not be negative");
    }
  }
}
