package dev.stint.tensorflow;

import dev.stint.spi.TrainingJobSpec;
import dev.stint.spi.api.ReplicaSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The checks of a TFJob that the engine's generic ones do not make. The CRD makes them too, as CEL rules; they are
 * repeated here because a job past an older CRD (or upstream's, which has none) would otherwise be wired wrongly: two
 * chiefs, or a chief of several replicas, would each believe they coordinate training, and an unknown
 * {@code successPolicy} would silently fall back to the Worker 0 rule.
 */
final class TFJobValidation {

  private TFJobValidation() { }

  /** The problems, each naming its field; empty when the job can run. */
  static List<String> problems(TFJob job) {
    TFJobSpec spec = job.getSpec();
    if (!TrainingJobSpec.hasReplicaSpecs(spec)) return List.of("spec.tfReplicaSpecs: must be set");
    List<String> problems = new ArrayList<>();
    Map<String, ReplicaSpec> specs = spec.getTfReplicaSpecs();
    if (specs.containsKey(TFJobSpec.CHIEF) && specs.containsKey(TFJobSpec.MASTER)) {
      problems.add("spec.tfReplicaSpecs: must not have more than 1 Chief or Master role");
    }
    for (String type : List.of(TFJobSpec.CHIEF, TFJobSpec.MASTER)) {
      ReplicaSpec chief = specs.get(type);
      if (chief != null && chief.replicasOrDefault() != 1) {
        problems.add("spec.tfReplicaSpecs." + type + ".replicas: must be 1");
      }
    }
    String successPolicy = spec.getSuccessPolicy();
    if (successPolicy != null && !successPolicy.isEmpty() && !TFJobSpec.ALL_WORKERS.equals(successPolicy)) {
      problems.add("spec.successPolicy: must be \"\" or AllWorkers, not \"" + successPolicy + "\"");
    }
    return problems;
  }
}
