package dev.stint.spi;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.stint.spi.api.ReplicaSpec;
import dev.stint.spi.api.RunPolicy;
import java.util.Map;

/**
 * The part of a job's spec that the engine reads, whatever the kind. A kind's spec class implements it by returning
 * its own fields, for example {@code pytorchReplicaSpecs}.
 */
public interface TrainingJobSpec {

  /** {@code spec.runPolicy}, or null when absent. */
  @JsonIgnore
  RunPolicy runPolicy();

  /** The replica specs keyed by replica type ({@code Master}, {@code Worker}, ...), or null when absent. */
  @JsonIgnore
  Map<String, ReplicaSpec> replicaSpecs();

  /** The JSON name of the replica-spec map in the spec, used in messages: {@code pytorchReplicaSpecs}. */
  @JsonIgnore
  String replicaSpecsField();

  /**
   * Whether a spec (null for a job without one) has at least one replica spec. The CRDs require the map, but a job
   * stored under an older CRD, or upstream's, may lack it: a framework's validation reports that before it looks
   * inside.
   */
  static boolean hasReplicaSpecs(TrainingJobSpec spec) {
    return spec != null && spec.replicaSpecs() != null && !spec.replicaSpecs().isEmpty();
  }
}
