package dev.stint.core.testing;

import dev.stint.spi.FrameworkDefaults;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.SuccessPolicy;
import dev.stint.spi.TrainingFramework;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;

/**
 * A framework for engine tests: Leader decides success when present (like PyTorch's Master), else all Workers; every
 * container gets {@code REPLICA=<type>-<index>} so tests can see that wiring ran.
 */
public class TestFramework implements TrainingFramework<TestJob> {
  public static final String LEADER = "Leader";
  public static final String WORKER = "Worker";

  @Override public String name() { return "test"; }

  @Override public Class<TestJob> jobType() { return TestJob.class; }

  @Override public List<String> replicaTypes() { return List.of(LEADER, WORKER); }

  @Override public FrameworkDefaults defaults() { return new FrameworkDefaults("main", "test-port", 7777, "OnFailure"); }

  @Override public boolean isLeader(TestJob job, ReplicaId replica) {
    return replica.type().equals(LEADER)
        || (leaderSpec(job) == null && replica.type().equals(WORKER) && replica.index() == 0);
  }

  @Override public void wire(TestJob job, ReplicaId replica, Pod pod) {
    pod.getSpec().getContainers().forEach(c -> {
      List<EnvVar> env = c.getEnv() == null ? new java.util.ArrayList<>() : new java.util.ArrayList<>(c.getEnv());
      env.add(new EnvVar("REPLICA", replica.toString(), null));
      c.setEnv(env);
    });
  }

  @Override public SuccessPolicy successPolicy(TestJob job) {
    return leaderSpec(job) != null ? SuccessPolicy.allOf(LEADER) : SuccessPolicy.allOf(WORKER);
  }

  private static Object leaderSpec(TestJob job) {
    return job.getSpec() == null || job.getSpec().replicaSpecs() == null ? null : job.getSpec().replicaSpecs().get(LEADER);
  }
}
