package dev.stint.pytorch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.decision.Decision;
import dev.stint.core.decision.JobContext;
import dev.stint.core.decision.JobDecider;
import dev.stint.core.decision.Observed;
import dev.stint.core.model.Action;
import dev.stint.spi.api.FailurePolicySpec;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.RunPolicy;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * An elastic PyTorchJob with a failure policy: a member's failure restarts the whole gang like any job's (torchrun's
 * own {@code elasticPolicy.maxRestarts} is unrelated), and the autoscaler's change of the Worker count is never a
 * failure. The autoscaler itself stays through a restart.
 */
class ElasticGangRestartTest {
  static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

  static PyTorchJob elastic(int workers) {
    PyTorchJob job = TestPyTorchJobs.job("e").workers(workers).elastic(e -> {
      e.setMinReplicas(1);
      e.setMaxReplicas(4);
      e.setMetrics(List.of(TestPyTorchJobs.cpuUtilization(80)));
    }).build();
    job.getMetadata().setUid("uid-e");
    RunPolicy runPolicy = new RunPolicy();
    FailurePolicySpec policy = new FailurePolicySpec();
    policy.setMaxRestarts(2);
    runPolicy.setFailurePolicy(policy);
    job.getSpec().setRunPolicy(runPolicy);
    JobStatus status = new JobStatus();
    status.setStartTime(NOW.minusSeconds(60).toString());
    status.setConditions(new ArrayList<>(List.of(
        new JobCondition("Created", "True", "PyTorchJobCreated", "created", "2026-11-29T11:00:00Z"),
        new JobCondition("Running", "True", "PyTorchJobRunning", "running", "2026-11-29T11:00:00Z"))));
    job.setStatus(status);
    return job;
  }

  static Pod worker(int index, String phase, Integer exitCode) {
    PodBuilder pod = new PodBuilder().withNewMetadata().withName("e-worker-" + index).withNamespace("default")
        .addToLabels("training.kubeflow.org/operator-name", "pytorchjob-controller")
        .addToLabels("training.kubeflow.org/job-name", "e")
        .addToLabels("training.kubeflow.org/replica-type", "worker")
        .addToLabels("training.kubeflow.org/replica-index", Integer.toString(index))
        .addToLabels("training.kubeflow.org/restart-attempt", "0").endMetadata()
        .withNewSpec().addNewContainer().withName("pytorch").endContainer().endSpec();
    var container = new io.fabric8.kubernetes.api.model.ContainerStatusBuilder().withName("pytorch");
    if (exitCode == null) {
      container.withNewState().withNewRunning().endRunning().endState();
    } else {
      container.withNewState().withNewTerminated().withExitCode(exitCode).endTerminated().endState();
    }
    return pod.withNewStatus().withPhase(phase).withContainerStatuses(container.build()).endStatus().build();
  }

  static Decision decide(PyTorchJob job, List<Pod> pods) {
    var hpa = new PyTorchFramework().supportingResources(job, new dev.stint.spi.ReplicaOutcomes(java.util.Map.of()))
        .stream().map(r -> r.resource()).toList();
    return JobDecider.decide(new JobContext<>(job, new PyTorchFramework(), NOW), new Observed(pods, List.of(), hpa));
  }

  static List<String> deleted(Decision d) {
    return d.actions().stream().filter(a -> a instanceof Action.DeletePod).map(a -> ((Action.DeletePod) a).why())
        .toList();
  }

  @Test
  void theAutoscalerRemovingAWorkerIsNoFailure() {
    Decision d = decide(elastic(2), IntStream.range(0, 3).mapToObj(i -> worker(i, "Running", null)).toList());
    assertThat(deleted(d)).containsExactly("scaled down");
    assertThat(d.status().getRestarts()).isNull();
  }

  @Test
  void aWorkerFailingRestartsTheWholeElasticGangAndKeepsTheAutoscaler() {
    Decision d = decide(elastic(3), List.of(worker(0, "Running", null), worker(1, "Failed", 137),
        worker(2, "Running", null)));
    assertThat(deleted(d)).containsExactly("gang restart", "gang restart", "gang restart");
    assertThat(d.actions()).noneMatch(a -> a instanceof Action.DeleteResource);
    assertThat(d.status().getRestarts()).isEqualTo(1);
    assertThat(d.status().condition("Restarting").orElseThrow().getMessage())
        .contains("Worker 1 exited with code 137");
  }
}
