package dev.stint.operator.testkind;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.stint.spi.TrainingJobSpec;
import dev.stint.spi.api.ReplicaSpec;
import dev.stint.spi.api.RunPolicy;
import java.util.Map;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class SleepJobSpec implements TrainingJobSpec {
  private RunPolicy runPolicy;
  private Map<String, ReplicaSpec> sleepReplicaSpecs;

  public RunPolicy getRunPolicy() { return runPolicy; }
  public void setRunPolicy(RunPolicy runPolicy) { this.runPolicy = runPolicy; }
  public Map<String, ReplicaSpec> getSleepReplicaSpecs() { return sleepReplicaSpecs; }
  public void setSleepReplicaSpecs(Map<String, ReplicaSpec> v) { this.sleepReplicaSpecs = v; }

  @Override public RunPolicy runPolicy() { return runPolicy; }

  @Override public Map<String, ReplicaSpec> replicaSpecs() { return sleepReplicaSpecs; }

  @Override public String replicaSpecsField() { return "sleepReplicaSpecs"; }
}
