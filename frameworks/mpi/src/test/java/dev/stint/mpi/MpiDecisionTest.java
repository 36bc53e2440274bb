package dev.stint.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.decision.Decision;
import dev.stint.core.decision.JobContext;
import dev.stint.core.decision.JobDecider;
import dev.stint.core.decision.Observed;
import dev.stint.core.model.Action;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** MPIJobs through the engine's pure decision: the launcher decides the outcome; names, gating and suspension. */
class MpiDecisionTest {
  static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  static final MpiFramework FRAMEWORK = new MpiFramework();
  static final ReplicaId LAUNCHER = new ReplicaId(MPIJobSpec.LAUNCHER, 0);

  static Decision decide(MPIJob job, List<Pod> pods) {
    return JobDecider.decide(new JobContext<>(job, FRAMEWORK, NOW), new Observed(pods, List.of(), List.of()));
  }

  static MPIJob runningJob(String launcherRestartPolicy) {
    MPIJob job = TestMPIJobs.job("pi").launcher().workers(2).build();
    if (launcherRestartPolicy != null) {
      job.getSpec().getMpiReplicaSpecs().get(MPIJobSpec.LAUNCHER).setRestartPolicy(launcherRestartPolicy);
    }
    JobStatus status = new JobStatus();
    status.setStartTime(NOW.minusSeconds(60).toString());
    status.setConditions(new ArrayList<>(List.of(
        new JobCondition("Created", "True", "MPIJobCreated", "MPIJob pi is created.", "2026-11-29T11:00:00Z"))));
    job.setStatus(status);
    return job;
  }

  static Pod pod(MPIJob job, String type, int index, String phase, Integer exitCode) {
    return TestMPIJobs.observed(job, new ReplicaId(type, index), phase, exitCode);
  }

  static List<String> conditions(Decision decision) {
    return decision.status().getConditions().stream()
        .map(c -> c.getType() + "=" + c.getStatus() + "/" + c.getReason() + ": " + c.getMessage()).toList();
  }

  static <T> List<T> actions(Decision d, Class<T> type) {
    return d.actions().stream().filter(type::isInstance).map(type::cast).toList();
  }

  /** launcher restart policy, launcher phase and exit code, worker 0 phase and exit code -> last condition. */
  static Stream<Arguments> outcomes() {
    return Stream.of(
        Arguments.of(null, "Running", null, "Running", null,
            "Running=True/MPIJobRunning: MPIJob default/pi is running."),
        Arguments.of(null, "Succeeded", 0, "Running", null,
            "Succeeded=True/MPIJobSucceeded: MPIJob default/pi successfully completed."),
        Arguments.of("Never", "Failed", 1, "Running", null,
            "Failed=True/MPIJobFailed: MPIJob default/pi has failed because 1 Launcher replica(s) failed. "
                + "Launcher 0 failed (exit code 1)."),
        Arguments.of(null, "Failed", 1, "Running", null,
            "Restarting=True/MPIJobRestarting: job pi is restarting because Launcher replica(s) failed."),
        Arguments.of(null, "Running", null, "Failed", 1, "Created=True/MPIJobCreated: MPIJob pi is created."),
        Arguments.of(null, "Succeeded", 0, "Failed", 1,
            "Succeeded=True/MPIJobPartiallySucceeded: MPIJob pi partially succeeded: Worker 0 failed (exit code 1)"));
  }

  @ParameterizedTest(name = "launcher {0} {1}/{2}, worker {3}/{4}")
  @MethodSource("outcomes")
  void theLauncherDecides(String launcherPolicy, String launcherPhase, Integer launcherExit, String workerPhase,
                          Integer workerExit, String lastCondition) {
    MPIJob job = runningJob(launcherPolicy);
    List<Pod> pods = List.of(pod(job, "Launcher", 0, launcherPhase, launcherExit),
        pod(job, "Worker", 0, workerPhase, workerExit), pod(job, "Worker", 1, "Running", null));

    List<String> conditions = conditions(decide(job, pods));

    assertThat(conditions.get(conditions.size() - 1)).isEqualTo(lastCondition);
    assertThat(conditions).noneMatch(c -> c.startsWith("Failed=True") && !lastCondition.startsWith("Failed"));
  }

  @Test
  void finishedJobStopsTheWorkersStillRunning() {
    MPIJob job = runningJob(null);
    Decision decision = decide(job, List.of(pod(job, "Launcher", 0, "Succeeded", 0),
        pod(job, "Worker", 0, "Running", null), pod(job, "Worker", 1, "Running", null)));

    assertThat(actions(decision, Action.DeletePod.class)).extracting(Action.DeletePod::name)
        .containsExactly("pi-worker-0", "pi-worker-1");
    assertThat(decision.status().getReplicaStatuses().get("Launcher").succeeded()).isEqualTo(1);
    assertThat(decision.status().getCompletionTime()).isEqualTo(NOW.toString());
  }

  @Test
  void newJobGetsUpstreamPodNamesNoPerPodServicesAndItsSupportingObjects() {
    MPIJob job = TestMPIJobs.job("pi").launcher().workers(2).build();
    Decision decision = decide(job, List.of());

    assertThat(actions(decision, Action.CreatePod.class)).extracting(a -> a.pod().getMetadata().getName())
        .containsExactly("pi-launcher", "pi-worker-0", "pi-worker-1");
    assertThat(actions(decision, Action.CreateService.class)).isEmpty();
    assertThat(actions(decision, Action.ApplyResource.class))
        .extracting(a -> a.resource().getKind() + "/" + a.resource().getMetadata().getName())
        .containsExactly("Service/pi", "ConfigMap/pi-config", "Secret/pi-ssh");
    Pod launcher = actions(decision, Action.CreatePod.class).get(0).pod();
    assertThat(launcher.getSpec().getRestartPolicy()).isEqualTo("OnFailure");
    assertThat(launcher.getSpec().getContainers().get(0).getPorts()).as("no framework port").isNullOrEmpty();
    assertThat(actions(decision, Action.CreatePod.class).get(1).pod().getSpec().getRestartPolicy()).isEqualTo("Never");
  }

  @Test
  void workersDefaultToNone() {
    MPIJob job = TestMPIJobs.job("solo").launcher().build();
    Decision decision = decide(job, List.of());

    assertThat(actions(decision, Action.CreatePod.class)).extracting(a -> a.pod().getMetadata().getName())
        .containsExactly("solo-launcher");
  }

  @Test
  void waitForWorkersReadyCreatesTheLauncherOnceEveryWorkerRuns() {
    MPIJob job = TestMPIJobs.job("pi").launcher().workers(2)
        .spec(s -> s.setLauncherCreationPolicy(MPIJobSpec.WAIT_FOR_WORKERS_READY)).build();

    assertThat(actions(decide(job, List.of()), Action.CreatePod.class))
        .extracting(a -> a.pod().getMetadata().getName()).containsExactly("pi-worker-0", "pi-worker-1");
    assertThat(actions(decide(job, List.of(pod(job, "Worker", 0, "Running", null),
        pod(job, "Worker", 1, "Pending", null))), Action.CreatePod.class)).isEmpty();
    assertThat(actions(decide(job, List.of(pod(job, "Worker", 0, "Running", null),
        pod(job, "Worker", 1, "Running", null))), Action.CreatePod.class))
        .extracting(a -> a.pod().getMetadata().getName()).containsExactly("pi-launcher");
  }

  @Test
  void suspendedJobGetsItsSupportingObjectsButNoPods() {
    MPIJob job = TestMPIJobs.job("pi").launcher().workers(2).spec(s -> {
      s.setRunPolicy(new MpiRunPolicy());
      s.getRunPolicy().setSuspend(true);
    }).build();
    Decision decision = decide(job, List.of());

    assertThat(actions(decision, Action.CreatePod.class)).isEmpty();
    assertThat(actions(decision, Action.ApplyResource.class))
        .extracting(a -> a.resource().getKind() + "/" + a.resource().getMetadata().getName())
        .containsExactly("Service/pi", "ConfigMap/pi-config", "Secret/pi-ssh");
    assertThat(conditions(decision)).containsExactly("Created=True/MPIJobCreated: MPIJob pi is created.",
        "Suspended=True/MPIJobSuspended: MPIJob pi is suspended.");
  }

  @Test
  void jobManagedByAnotherControllerIsLeftAlone() {
    MPIJob mine = TestMPIJobs.job("pi").launcher().spec(s -> {
      s.setRunPolicy(new MpiRunPolicy());
      s.getRunPolicy().setManagedBy("kubeflow.org/mpi-operator");
    }).build();
    MPIJob kueues = TestMPIJobs.job("pi").launcher().spec(s -> {
      s.setRunPolicy(new MpiRunPolicy());
      s.getRunPolicy().setManagedBy("kueue.x-k8s.io/multikueue");
    }).build();

    assertThat(actions(decide(mine, List.of()), Action.CreatePod.class)).hasSize(1);
    assertThat(decide(kueues, List.of()).actions()).isEmpty();
    assertThat(decide(kueues, List.of()).status()).isNull();
  }
}
