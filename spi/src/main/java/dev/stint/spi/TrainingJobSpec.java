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
}
