package dev.stint.tensorflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.decision.Decision;
import dev.stint.core.decision.JobContext;
import dev.stint.core.decision.JobDecider;
import dev.stint.core.decision.Observed;
import dev.stint.core.model.Action;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * TFJob status through the engine's pure decision: upstream's TFJob table (chief decides, else Worker 0 or every
 * Worker; any failed replica fails the job unless dynamic), with Stint's success-first rule that turns "chief
 * succeeded while workers failed" into a partial success.
 */
class TFJobStatusTest {
  static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  private static final TensorFlowFramework FRAMEWORK = new TensorFlowFramework("");

  static Decision decide(TFJob job, List<Pod> pods) {
    return JobDecider.decide(new JobContext<>(job, FRAMEWORK, NOW), new Observed(pods, servicesFor(pods), List.of()));
  }

  static List<Service> servicesFor(List<Pod> pods) {
    return pods.stream().map(p -> {
      Service service = new Service();
      service.setMetadata(new ObjectMeta());
      service.getMetadata().setName(p.getMetadata().getName());
      return service;
    }).toList();
  }

  static JobStatus runningStatus() {
    JobStatus status = new JobStatus();
    status.setStartTime(NOW.minusSeconds(30).toString());
    status.setConditions(new ArrayList<>(List.of(
        new JobCondition("Created", "True", "TFJobCreated", "TFJob j is created.", "2026-11-29T11:00:00Z"),
        new JobCondition("Running", "True", "TFJobRunning", "TFJob ns/j is running.", "2026-11-29T11:00:00Z"))));
    return status;
  }

  /**
   * Pods of one job from a compact description: {@code "Chief:S Worker:RF PS:R"} gives Chief 0 succeeded, Worker 0
   * running, Worker 1 failed (exit 1), PS 0 running. R running, S succeeded, F failed with exit 1, K failed with exit
   * 137, P pending, - no pod.
   */
  static List<Pod> pods(TFJob job, String description) {
    List<Pod> pods = new ArrayList<>();
    for (String part : description.split(" ")) {
      String[] typeAndStates = part.split(":");
      String states = typeAndStates[1];
      for (int i = 0; i < states.length(); i++) {
        TestTFPods pod = TestTFPods.of(job, typeAndStates[0], i);
        switch (states.charAt(i)) {
          case 'R' -> pods.add(pod.running());
          case 'S' -> pods.add(pod.succeeded());
          case 'F' -> pods.add(pod.failed(1));
          case 'K' -> pods.add(pod.failed(137));
          case 'P' -> pods.add(pod.pending());
          default -> { }
        }
      }
    }
    return pods;
  }

  static TestTFJobs withChief() {
    return TestTFJobs.job("j").namespace("ns").chief(1).workers(2).ps(1).status(runningStatus());
  }

  static TestTFJobs withoutChief() {
    return TestTFJobs.job("j").namespace("ns").workers(2).ps(1).status(runningStatus());
  }

  static Stream<Arguments> outcomes() {
    return Stream.of(
        Arguments.of("everything running", withChief(), "Chief:R PS:R Worker:RR", "Running"),
        Arguments.of("chief succeeded", withChief(), "Chief:S PS:R Worker:RR", "Succeeded"),
        Arguments.of("chief running, every worker succeeded", withChief(), "Chief:R PS:R Worker:SS", "Running"),
        Arguments.of("chief succeeded, a worker failed", withChief(), "Chief:S PS:R Worker:SF", "PartiallySucceeded"),
        Arguments.of("chief running, a worker failed", withChief(), "Chief:R PS:R Worker:RF", "Failed"),
        Arguments.of("chief failed", withChief(), "Chief:F PS:R Worker:RR", "Failed"),
        Arguments.of("parameter server failed", withChief(), "Chief:R PS:F Worker:RR", "Failed"),
        Arguments.of("master succeeded", TestTFJobs.job("j").namespace("ns").master(1).workers(1)
            .status(runningStatus()), "Master:S Worker:R", "Succeeded"),
        Arguments.of("evaluator failed", TestTFJobs.job("j").namespace("ns").chief(1).evaluator(1).workers(1)
            .status(runningStatus()), "Chief:R Evaluator:F Worker:R", "Failed"),
        Arguments.of("no chief, worker 0 succeeded", withoutChief(), "PS:R Worker:SR", "Succeeded"),
        Arguments.of("no chief, worker 1 succeeded", withoutChief(), "PS:R Worker:RS", "Running"),
        Arguments.of("no chief, worker 0 succeeded, worker 1 failed", withoutChief(), "PS:R Worker:SF",
            "PartiallySucceeded"),
        Arguments.of("no chief, worker 1 failed", withoutChief(), "PS:R Worker:RF", "Failed"),
        Arguments.of("AllWorkers, worker 0 succeeded", withoutChief().successPolicy("AllWorkers"),
            "PS:R Worker:SR", "Running"),
        Arguments.of("AllWorkers, every worker succeeded", withoutChief().successPolicy("AllWorkers"),
            "PS:R Worker:SS", "Succeeded"),
        Arguments.of("dynamic workers, worker 1 failed", withoutChief().dynamicWorkers(), "PS:R Worker:RF",
            "Running"),
        Arguments.of("dynamic workers, worker 0 succeeded, worker 1 failed", withoutChief().dynamicWorkers(),
            "PS:R Worker:SF", "PartiallySucceeded"),
        Arguments.of("dynamic workers, parameter server failed", withoutChief().dynamicWorkers(), "PS:F Worker:RR",
            "Failed"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("outcomes")
  void outcomeOfTheJob(String name, TestTFJobs fixture, String pods, String outcome) {
    TFJob job = fixture.build();
    Decision d = decide(job, pods(job, pods));

    assertThat(d.status().getOutcome()).isEqualTo(outcome);
    boolean finished = !"Running".equals(outcome);
    assertThat(d.status().getCompletionTime()).isEqualTo(finished ? NOW.toString() : null);
    if (finished) {
      // a finished job stops what still runs
      List<String> running = pods(job, pods).stream().filter(p -> "Running".equals(p.getStatus().getPhase()))
          .map(p -> p.getMetadata().getName()).toList();
      assertThat(actions(d, Action.DeletePod.class)).extracting(Action.DeletePod::name)
          .containsExactlyInAnyOrderElementsOf(running);
    }
  }

  @Test
  void chiefSucceededWhileWorkersFailedIsAPartialSuccessNotAlsoAFailure() {
    TFJob job = withChief().build();
    Decision d = decide(job, pods(job, "Chief:S PS:R Worker:FF"));

    String message = "TFJob j partially succeeded: Worker 0,1 failed (exit codes 1, 1)";
    assertThat(conditions(d.status())).containsExactly("Created=True/TFJobCreated", "Running=False/TFJobRunning",
        "PartiallySucceeded=True/TFJobPartiallySucceeded", "Succeeded=True/TFJobPartiallySucceeded");
    assertThat(d.status().condition("Succeeded").orElseThrow().getMessage()).isEqualTo(message);
    assertThat(d.status().isTrue("Failed")).isFalse();
    assertThat(d.status().getReplicaStatuses().get("Worker").getFailedIndexes()).isEqualTo("0-1");
    assertThat(d.status().getReplicaStatuses().get("Chief").getSucceededIndexes()).isEqualTo("0");
  }

  @Test
  void fullSuccessUsesTheTfjobMessage() {
    TFJob job = withoutChief().build();
    Decision d = decide(job, pods(job, "PS:R Worker:SS"));

    assertThat(conditions(d.status())).containsExactly("Created=True/TFJobCreated", "Running=False/TFJobRunning",
        "Succeeded=True/TFJobSucceeded");
    assertThat(d.status().condition("Succeeded").orElseThrow().getMessage())
        .isEqualTo("TFJob ns/j successfully completed.");
  }

  @Test
  void failedParameterServerFailsTheJobNamingIt() {
    TFJob job = withChief().build();
    Decision d = decide(job, pods(job, "Chief:R PS:F Worker:RR"));

    JobCondition failed = d.status().condition("Failed").orElseThrow();
    assertThat(failed.getReason()).isEqualTo("TFJobFailed");
    assertThat(failed.getMessage())
        .isEqualTo("TFJob ns/j has failed because 1 PS replica(s) failed. PS 0 failed (exit code 1).");
  }

  @Test
  void runningOnceEveryReplicaIsUp() {
    TFJob job = TestTFJobs.job("j").namespace("ns").chief(1).workers(2).ps(1).build();
    Decision pending = decide(job, pods(job, "Chief:R PS:R Worker:RP"));
    Decision up = decide(job, pods(job, "Chief:R PS:R Worker:RR"));

    assertThat(pending.status().isTrue("Running")).isFalse();
    assertThat(up.status().condition("Running").orElseThrow().getMessage()).isEqualTo("TFJob ns/j is running.");
    assertThat(up.status().condition("Running").orElseThrow().getReason()).isEqualTo("TFJobRunning");
  }

  @Test
  void exitCodePolicyRetriesSignalsAndFailsOnApplicationErrors() {
    TFJob job = withoutChief().restartPolicy("ExitCode").build();
    Decision retried = decide(job, pods(job, "PS:R Worker:RK"));
    Decision failed = decide(job, pods(job, "PS:R Worker:RF"));

    assertThat(actions(retried, Action.DeletePod.class)).extracting(Action.DeletePod::name)
        .containsExactly("j-worker-1");
    assertThat(retried.status().condition("Restarting").orElseThrow().getMessage())
        .isEqualTo("job j is restarting because Worker replica(s) failed.");
    assertThat(retried.status().isTrue("Failed")).isFalse();
    assertThat(failed.status().condition("Failed").orElseThrow().getMessage())
        .isEqualTo("job \"j\" is failing because \"Worker\" replica(s) failed.");
  }

  @Test
  void newJobCreatesReplicasInUpstreamOrderWithRolesAndTfConfig() {
    TFJob job = TestTFJobs.job("dist").namespace("ns").workers(2).ps(1).evaluator(1).chief(1).build();
    Decision d = decide(job, List.of());

    List<Pod> created = actions(d, Action.CreatePod.class).stream().map(Action.CreatePod::pod).toList();
    assertThat(created).extracting(p -> p.getMetadata().getName()).containsExactly(
        "dist-chief-0", "dist-evaluator-0", "dist-ps-0", "dist-worker-0", "dist-worker-1");
    assertThat(created).filteredOn(p -> "master".equals(p.getMetadata().getLabels()
        .get("training.kubeflow.org/job-role"))).extracting(p -> p.getMetadata().getName())
        .containsExactly("dist-chief-0");
    Pod worker = created.get(4);
    assertThat(worker.getMetadata().getLabels())
        .containsEntry("training.kubeflow.org/operator-name", "tfjob-controller")
        .containsEntry("training.kubeflow.org/replica-type", "worker")
        .containsEntry("training.kubeflow.org/replica-index", "1");
    assertThat(worker.getSpec().getRestartPolicy()).isEqualTo("Never");
    assertThat(worker.getSpec().getContainers().get(0).getPorts()).singleElement()
        .satisfies(p -> assertThat(p.getName() + ":" + p.getContainerPort()).isEqualTo("tfjob-port:2222"));
    assertThat(worker.getSpec().getContainers().get(0).getEnv()).extracting(EnvVar::getName)
        .containsExactly("TF_CONFIG");
    assertThat(actions(d, Action.CreateService.class)).hasSize(5);
  }

  @Test
  void workerZeroIsTheLeaderWithoutChief() {
    TFJob job = TestTFJobs.job("j").namespace("ns").workers(2).ps(1).build();
    List<Pod> created = actions(decide(job, List.of()), Action.CreatePod.class).stream()
        .map(Action.CreatePod::pod).toList();

    assertThat(created).filteredOn(p -> "master".equals(p.getMetadata().getLabels()
        .get("training.kubeflow.org/job-role"))).extracting(p -> p.getMetadata().getName())
        .containsExactly("j-worker-0");
  }

  @Test
  void keysOutsideUpstreamsSpellingFailValidation() {
    TFJob job = TestTFJobs.job("j").namespace("ns").replicaType("WORKER", 2).build();
    Decision d = decide(job, List.of());

    JobCondition failed = d.status().condition("Failed").orElseThrow();
    assertThat(failed.getReason()).isEqualTo("TFJobFailedValidation");
    assertThat(failed.getMessage()).contains("spec.tfReplicaSpecs.WORKER");
    assertThat(actions(d, Action.CreatePod.class)).isEmpty();
  }

  static List<String> conditions(JobStatus status) {
    return status.getConditions().stream().map(c -> c.getType() + "=" + c.getStatus() + "/" + c.getReason()).toList();
  }

  static <T> List<T> actions(Decision d, Class<T> type) {
    return d.actions().stream().filter(type::isInstance).map(type::cast).toList();
  }
}
