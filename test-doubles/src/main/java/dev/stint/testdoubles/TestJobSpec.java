package dev.stint.testdoubles;

import dev.stint.spi.TrainingJobSpec;
import dev.stint.spi.api.ReplicaSpec;
import dev.stint.spi.api.RunPolicy;
import java.util.LinkedHashMap;
import java.util.Map;

/** The spec of {@link TestJob}: a run policy and the replica specs, under {@code testReplicaSpecs}. */
public class TestJobSpec implements TrainingJobSpec {
  private RunPolicy runPolicy;
  private Map<String, ReplicaSpec> testReplicaSpecs = new LinkedHashMap<>();

  public RunPolicy getRunPolicy() { return runPolicy; }
  public void setRunPolicy(RunPolicy runPolicy) { this.runPolicy = runPolicy; }
  public Map<String, ReplicaSpec> getTestReplicaSpecs() { return testReplicaSpecs; }
  public void setTestReplicaSpecs(Map<String, ReplicaSpec> v) { this.testReplicaSpecs = v; }

  @Override public RunPolicy runPolicy() { return runPolicy; }
  @Override public Map<String, ReplicaSpec> replicaSpecs() { return testReplicaSpecs; }
  @Override public String replicaSpecsField() { return "testReplicaSpecs"; }
}
