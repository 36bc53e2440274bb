package dev.stint.core.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.model.Action;
import dev.stint.core.model.JobLabels;
import dev.stint.core.testing.TestFramework;
import dev.stint.core.testing.TestJobs;
import dev.stint.spi.FrameworkDefaults;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.WithPodNames;
import dev.stint.spi.WithReplicaDefaults;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SPI hooks a kind unlike Kubeflow v1 uses (MPIJob v2): its own pod names, defaults per replica type, and a main
 * container that is simply the first one, without a framework port.
 */
class FrameworkHooksTest {
  static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

  /** Leaders named {@code <job>-leader}, Workers default to 0 replicas and Never; no named container, no port. */
  static final class HookedFramework extends TestFramework implements WithReplicaDefaults, WithPodNames<TestJob> {
    @Override public FrameworkDefaults defaults() { return FrameworkDefaults.firstContainerNoPort("OnFailure"); }

    @Override public String defaultRestartPolicy(String type) { return LEADER.equals(type) ? "OnFailure" : "Never"; }

    @Override public int defaultReplicas(String type) { return LEADER.equals(type) ? 1 : 0; }

    @Override public String podName(TestJob job, ReplicaId replica) {
      return LEADER.equals(replica.type()) ? job.getMetadata().getName() + "-leader" : replica.podName(job.getMetadata().getName());
    }
  }

  static Decision decide(TestJob job, List<Pod> pods) {
    return JobDecider.decide(new JobContext<>(job, new HookedFramework(), NOW),
        new Observed(pods, List.of(), List.of()));
  }

  static List<Pod> created(Decision d) {
    return d.actions().stream().filter(Action.CreatePod.class::isInstance).map(a -> ((Action.CreatePod) a).pod())
        .toList();
  }

  static TestJob job() {
    TestJob job = TestJobs.job("j").leader(1).workers(2).build();
    // any container name will do, and replicas and restart policies are left to the framework's defaults
    job.getSpec().getTestReplicaSpecs().values().forEach(spec -> {
      spec.getTemplate().getSpec().getContainers().get(0).setName("anything");
      spec.setReplicas(null);
    });
    return job;
  }

  @Test
  void podsAreNamedByTheFrameworkAndGetItsDefaultsPerType() {
    TestJob job = job();
    job.getSpec().getTestReplicaSpecs().get(TestFramework.WORKER).setReplicas(2);

    List<Pod> pods = created(decide(job, List.of()));

    assertThat(pods).extracting(p -> p.getMetadata().getName()).containsExactly("j-leader", "j-worker-0", "j-worker-1");
    assertThat(pods).extracting(p -> p.getSpec().getRestartPolicy()).containsExactly("OnFailure", "Never", "Never");
    assertThat(pods.get(0).getMetadata().getLabels()).containsEntry(JobLabels.REPLICA_INDEX, "0");
    Container main = pods.get(0).getSpec().getContainers().get(0);
    assertThat(main.getPorts()).as("no framework port").isNullOrEmpty();
    assertThat(decide(job, List.of()).actions()).filteredOn(Action.CreateService.class::isInstance)
        .extracting(a -> ((Action.CreateService) a).service().getMetadata().getName())
        .containsExactly("j-leader", "j-worker-0", "j-worker-1");
  }

  @Test
  void unsetReplicasTakeTheFrameworksDefault() {
    assertThat(created(decide(job(), List.of()))).extracting(p -> p.getMetadata().getName())
        .containsExactly("j-leader");
  }

  @Test
  void existingPodUnderTheFrameworksNameIsNotCreatedAgain() {
    TestJob job = job();
    Pod leader = observed(job, "Running", null);

    assertThat(created(decide(job, List.of(leader)))).isEmpty();
  }

  @Test
  void exitCodeComesFromTheFirstContainer() {
    TestJob job = job();
    job.getSpec().getTestReplicaSpecs().get(TestFramework.LEADER).setRestartPolicy("Never");

    Decision d = decide(job, List.of(observed(job, "Failed", 3)));

    assertThat(d.status().condition("Failed")).hasValueSatisfying(c ->
        assertThat(c.getMessage()).endsWith("Leader 0 failed (exit code 3)."));
  }

  /** The leader's pod as the kubelet leaves it, its one container named {@code anything}. */
  private static Pod observed(TestJob job, String phase, Integer exitCode) {
    ReplicaId leader = new ReplicaId(TestFramework.LEADER, 0);
    PodBuilder pod = new PodBuilder().withNewMetadata().withName("j-leader").withNamespace("default")
        .withLabels(JobLabels.ofReplica("testjob-controller", "j", leader))
        .withCreationTimestamp("2026-01-01T00:00:00Z").endMetadata()
        .withNewSpec().addNewContainer().withName("anything").withImage("busybox").endContainer().endSpec();
    var status = pod.withNewStatus().withPhase(phase).addNewContainerStatus().withName("anything").withRestartCount(0);
    if (exitCode != null) {
      status.withNewState().withNewTerminated().withExitCode(exitCode).endTerminated().endState();
    }
    return status.endContainerStatus().endStatus().build();
  }
}
