package dev.stint.core.testing;

import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.ReplicaSpec;
import dev.stint.spi.api.RunPolicy;
import dev.stint.testdoubles.TestJob;
import dev.stint.testdoubles.TestJobSpec;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;

/** Fluent {@link TestJob} fixtures: {@code TestJobs.job("j").leader(1).workers(2).restartPolicy("Never").build()}. */
public final class TestJobs {
  private final TestJob job = new TestJob();

  private TestJobs(String name) {
    job.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").withUid("uid-" + name)
        .withGeneration(1L).build());
    job.setSpec(new TestJobSpec());
    job.getSpec().setRunPolicy(new RunPolicy());
  }

  public static TestJobs job(String name) {
    return new TestJobs(name);
  }

  public TestJobs leader(int replicas) { return replicas(TestFramework.LEADER, replicas); }

  public TestJobs workers(int replicas) { return replicas(TestFramework.WORKER, replicas); }

  public TestJobs replicas(String type, int replicas) {
    ReplicaSpec spec = new ReplicaSpec();
    spec.setReplicas(replicas);
    spec.setTemplate(new PodTemplateSpecBuilder()
        .withNewMetadata().addToLabels("team", "ml").endMetadata()
        .withNewSpec().withContainers(new ContainerBuilder().withName("main").withImage("busybox").build())
        .withTerminationGracePeriodSeconds(30L).endSpec().build());
    job.getSpec().getTestReplicaSpecs().put(type, spec);
    return this;
  }

  public TestJobs restartPolicy(String policy) {
    job.getSpec().getTestReplicaSpecs().values().forEach(s -> s.setRestartPolicy(policy));
    return this;
  }

  public TestJobs runPolicy(java.util.function.Consumer<RunPolicy> edit) {
    edit.accept(job.getSpec().getRunPolicy());
    return this;
  }

  public TestJobs suspend(boolean suspend) { return runPolicy(p -> p.setSuspend(suspend)); }

  public TestJobs status(JobStatus status) {
    job.setStatus(status);
    return this;
  }

  public TestJobs edit(java.util.function.Consumer<TestJob> edit) {
    edit.accept(job);
    return this;
  }

  public TestJob build() {
    return job;
  }
}
