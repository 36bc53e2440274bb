package dev.stint.core.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.model.Action;
import dev.stint.core.model.JobEvent;
import dev.stint.core.testing.TestFramework;
import dev.stint.core.testing.TestJobs;
import dev.stint.core.testing.TestPods;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.ReplicaStatus;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JobDeciderTest {
  static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  static final TestFramework FRAMEWORK = new TestFramework();

  static Decision decide(TestJob job, List<Pod> pods) {
    return decide(job, pods, servicesFor(pods));
  }

  static Decision decide(TestJob job, List<Pod> pods, List<Service> services) {
    return JobDecider.decide(new JobContext<>(job, FRAMEWORK, NOW), new Observed(pods, services, List.of()));
  }

  static List<Service> servicesFor(List<Pod> pods) {
    return pods.stream().map(p -> {
      Service s = new Service();
      s.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
      s.getMetadata().setName(p.getMetadata().getName());
      return s;
    }).toList();
  }

  static List<String> conditions(JobStatus status) {
    return status.getConditions().stream().map(c -> c.getType() + "=" + c.getStatus() + "/" + c.getReason()).toList();
  }

  static <T> List<T> actions(Decision d, Class<T> type) {
    return d.actions().stream().filter(type::isInstance).map(type::cast).toList();
  }

  static JobStatus runningStatus() {
    JobStatus s = new JobStatus();
    s.setStartTime(NOW.minusSeconds(30).toString());
    s.setConditions(new ArrayList<>(List.of(
        new JobCondition("Created", "True", "TestJobCreated", "TestJob j is created.", "2026-11-29T11:00:00Z"),
        new JobCondition("Running", "True", "TestJobRunning", "TestJob j is running.", "2026-11-29T11:00:00Z"))));
    return s;
  }

  @Test
  void newJobGetsOnePodAndOneHeadlessServicePerReplica() {
    TestJob job = TestJobs.job("j").leader(1).workers(2).build();
    Decision d = decide(job, List.of());
    // every pod before any service: the applier sends a run of one kind at once, two waves instead of six calls
    assertThat(d.actions()).extracting(a -> a.getClass().getSimpleName()).containsExactly(
        "CreatePod", "CreatePod", "CreatePod", "CreateService", "CreateService", "CreateService");

    List<Pod> pods = actions(d, Action.CreatePod.class).stream().map(Action.CreatePod::pod).toList();
    assertThat(pods).extracting(p -> p.getMetadata().getName()).containsExactly("j-leader-0", "j-worker-0", "j-worker-1");
    Pod worker1 = pods.get(2);
    assertThat(worker1.getMetadata().getLabels()).containsEntry("training.kubeflow.org/operator-name", "testjob-controller")
        .containsEntry("training.kubeflow.org/job-name", "j").containsEntry("training.kubeflow.org/replica-type", "worker")
        .containsEntry("training.kubeflow.org/replica-index", "1").containsEntry("team", "ml")
        .doesNotContainKey("training.kubeflow.org/job-role");
    assertThat(pods.get(0).getMetadata().getLabels()).containsEntry("training.kubeflow.org/job-role", "master");
    assertThat(worker1.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
      assertThat(o.getKind()).isEqualTo("TestJob");
      assertThat(o.getApiVersion()).isEqualTo("test.stint.dev/v1");
      assertThat(o.getUid()).isEqualTo("uid-j");
      assertThat(o.getController()).isTrue();
      assertThat(o.getBlockOwnerDeletion()).isTrue();
    });
    assertThat(worker1.getSpec().getRestartPolicy()).isEqualTo("OnFailure");
    assertThat(worker1.getSpec().getContainers().get(0).getPorts()).singleElement()
        .satisfies(p -> assertThat(p.getName() + ":" + p.getContainerPort()).isEqualTo("test-port:7777"));
    assertThat(worker1.getSpec().getContainers().get(0).getEnv()).extracting(EnvVar::getValue).containsExactly("Worker-1");

    List<Service> services = actions(d, Action.CreateService.class).stream().map(Action.CreateService::service).toList();
    assertThat(services).extracting(s -> s.getMetadata().getName()).containsExactly("j-leader-0", "j-worker-0", "j-worker-1");
    assertThat(services.get(2).getSpec().getClusterIP()).isEqualTo("None");
    assertThat(services.get(2).getSpec().getSelector()).hasSize(4).containsEntry("training.kubeflow.org/replica-index", "1");
    assertThat(services.get(2).getSpec().getPorts()).singleElement().satisfies(p -> assertThat(p.getPort()).isEqualTo(7777));

    assertThat(conditions(d.status())).containsExactly("Created=True/TestJobCreated");
    assertThat(d.status().getStartTime()).isEqualTo("2026-11-29T12:00:00Z");
    assertThat(d.events()).extracting(JobEvent::reason).containsExactly("TestJobCreated");
  }

  @Test
  void existingPodsAndServicesAreNotCreatedAgain() {
    TestJob job = TestJobs.job("j").leader(1).workers(1).status(runningStatus()).build();
    List<Pod> pods = List.of(TestPods.of(job, "Leader", 0).pending(), TestPods.of(job, "Worker", 0).terminating());
    assertThat(decide(job, pods).actions()).isEmpty();
  }

  @Test
  void missingServiceIsRecreatedAlone() {
    TestJob job = TestJobs.job("j").workers(1).status(runningStatus()).build();
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).running()), List.of());
    assertThat(d.actions()).singleElement().isInstanceOf(Action.CreateService.class);
  }

  @Test
  void runningOnlyOnceEveryReplicaRuns() {
    TestJob job = TestJobs.job("j").leader(1).workers(2).build();
    Decision partial = decide(job, List.of(TestPods.of(job, "Leader", 0).running(),
        TestPods.of(job, "Worker", 0).running(), TestPods.of(job, "Worker", 1).pending()));
    assertThat(conditions(partial.status())).containsExactly("Created=True/TestJobCreated");

    Decision all = decide(job, List.of(TestPods.of(job, "Leader", 0).running(),
        TestPods.of(job, "Worker", 0).running(), TestPods.of(job, "Worker", 1).running()));
    assertThat(conditions(all.status())).containsExactly("Created=True/TestJobCreated", "Running=True/TestJobRunning");
    assertThat(all.status().condition("Running").orElseThrow().getMessage()).isEqualTo("TestJob j is running.");
    ReplicaStatus workers = all.status().getReplicaStatuses().get("Worker");
    assertThat(workers.active()).isEqualTo(2);
    assertThat(workers.getSelector()).isEqualTo("training.kubeflow.org/job-name=j,"
        + "training.kubeflow.org/operator-name=testjob-controller,training.kubeflow.org/replica-type=worker");
  }

  static Stream<Arguments> restartPolicies() {
    return Stream.of(
        Arguments.of("OnFailure", 1, true, null),
        Arguments.of("Always", 1, true, null),
        Arguments.of("ExitCode", 137, true, null),
        Arguments.of("ExitCode", 128, true, null),
        Arguments.of("ExitCode", 1, false, "job \"j\" is failing because \"Worker\" replica(s) failed."),
        Arguments.of("ExitCode", 127, false, "job \"j\" is failing because \"Worker\" replica(s) failed."),
        Arguments.of("Never", 1, false, "TestJob j is failed because 1 Worker replica(s) failed. "
            + "Worker 1 failed (exit code 1)."),
        Arguments.of("Never", 137, false, "TestJob j is failed because 1 Worker replica(s) failed. "
            + "Worker 1 failed (exit code 137)."));
  }

  @ParameterizedTest(name = "{0} exit {1}")
  @MethodSource("restartPolicies")
  void failedPodFollowsRestartPolicy(String policy, int exitCode, boolean restarted, String failure) {
    TestJob job = TestJobs.job("j").workers(2).restartPolicy(policy).status(runningStatus()).build();
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).running(), TestPods.of(job, "Worker", 1).failed(exitCode)));
    if (restarted) {
      assertThat(actions(d, Action.DeletePod.class)).extracting(Action.DeletePod::name).containsExactly("j-worker-1");
      assertThat(conditions(d.status())).containsExactly("Created=True/TestJobCreated", "Restarting=True/TestJobRestarting");
      assertThat(d.status().getReplicaStatuses().get("Worker").restarts()).isEqualTo(1);
      assertThat(d.status().getCompletionTime()).isNull();
    } else {
      JobCondition failed = d.status().condition("Failed").orElseThrow();
      assertThat(failed.getReason()).isEqualTo("TestJobFailed");
      assertThat(failed.getMessage()).isEqualTo(failure);
      assertThat(d.status().getCompletionTime()).isEqualTo(NOW.toString());
      assertThat(conditions(d.status())).containsExactly("Created=True/TestJobCreated", "Running=False/TestJobRunning",
          "Failed=True/TestJobFailed");
      // the replica still running is stopped; the failed one stays (cleanPodPolicy None)
      assertThat(actions(d, Action.DeletePod.class)).extracting(Action.DeletePod::name).containsExactly("j-worker-0");
    }
    assertThat(d.status().getReplicaStatuses().get("Worker").failed()).isEqualTo(1);
  }

  @Test
  void backoffLimitCountsPodRecreations() {
    JobStatus status = runningStatus();
    ReplicaStatus workers = new ReplicaStatus();
    workers.setRestarts(2);
    status.setReplicaStatuses(new java.util.LinkedHashMap<>(Map.of("Worker", workers)));
    TestJob job = TestJobs.job("j").workers(2).restartPolicy("ExitCode").runPolicy(p -> p.setBackoffLimit(2))
        .status(status).build();
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).running(), TestPods.of(job, "Worker", 1).failed(137)));
    assertThat(d.status().condition("Failed").orElseThrow().getMessage())
        .isEqualTo("Job j has failed because it has reached the specified backoff limit");
    assertThat(actions(d, Action.DeletePod.class)).extracting(Action.DeletePod::name).containsExactly("j-worker-0");
    assertThat(actions(d, Action.CreatePod.class)).isEmpty();
  }

  @Test
  void backoffLimitCountsContainerRestartsOfRunningPods() {
    TestJob job = TestJobs.job("j").workers(1).runPolicy(p -> p.setBackoffLimit(3)).status(runningStatus()).build();
    assertThat(decide(job, List.of(TestPods.of(job, "Worker", 0).running(2))).status().isTrue("Failed")).isFalse();
    assertThat(decide(job, List.of(TestPods.of(job, "Worker", 0).running(3))).status().isTrue("Failed")).isTrue();
  }

  @Test
  void deadlineFailsTheJobOnTimeAndRequeuesBeforeIt() {
    TestJob late = TestJobs.job("j").workers(1).runPolicy(p -> p.setActiveDeadlineSeconds(30L)).status(runningStatus()).build();
    Decision d = decide(late, List.of(TestPods.of(late, "Worker", 0).running()));
    assertThat(d.status().condition("Failed").orElseThrow().getMessage())
        .isEqualTo("Job j has failed because it was active longer than specified deadline"
            + " (spec.runPolicy.activeDeadlineSeconds: 30)");
    assertThat(actions(d, Action.DeletePod.class)).extracting(Action.DeletePod::name).containsExactly("j-worker-0");

    TestJob early = TestJobs.job("j").workers(1).runPolicy(p -> p.setActiveDeadlineSeconds(100L)).status(runningStatus()).build();
    Decision e = decide(early, List.of(TestPods.of(early, "Worker", 0).running()));
    assertThat(e.status().isTrue("Failed")).isFalse();
    assertThat(e.requeueAfter()).contains(Duration.ofSeconds(70));
  }

  /** The largest limits the CRD accepts are times that never come (a review saw an exception on every pass). */
  @Test
  void aDeadlineOrWaitLimitBeyondTheEndOfTimeIsOneThatNeverComes() {
    TestJob job = TestJobs.job("j").workers(1).runPolicy(p -> {
      p.setActiveDeadlineSeconds(Long.MAX_VALUE);
      p.setPodsWaitingTimeoutSeconds(Long.MAX_VALUE);
    }).status(runningStatus()).build();
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).running()));
    assertThat(d.status().isTrue("Failed")).isFalse();
    assertThat(d.requeueAfter()).contains(Duration.ofDays(1));
  }

  static JobStatus finished(String type, long secondsAgo) {
    JobStatus s = runningStatus();
    Conditions.set(s, ConditionType.valueOf(type), true, "TestJob" + type, "done", NOW.minusSeconds(secondsAgo).toString());
    s.setCompletionTime(NOW.minusSeconds(secondsAgo).toString());
    return s;
  }

  @Test
  void ttlDeletesTheJobOnceItHasPassed() {
    TestJob expired = TestJobs.job("j").workers(1).runPolicy(p -> p.setTtlSecondsAfterFinished(50))
        .status(finished("Succeeded", 100)).build();
    assertThat(decide(expired, List.of()).actions()).containsExactly(new Action.DeleteJob());

    TestJob fresh = TestJobs.job("j").workers(1).runPolicy(p -> p.setTtlSecondsAfterFinished(500))
        .status(finished("Failed", 100)).build();
    Decision d = decide(fresh, List.of());
    assertThat(d.actions()).isEmpty();
    assertThat(d.requeueAfter()).contains(Duration.ofSeconds(400));
  }

  static Stream<Arguments> cleanPodPolicies() {
    return Stream.of(
        Arguments.of(null, List.of("j-worker-1"), List.of()),
        Arguments.of("None", List.of("j-worker-1"), List.of()),
        Arguments.of("Running", List.of("j-worker-1"), List.of()),
        Arguments.of("All", List.of("j-worker-0", "j-worker-1"), List.of("j-worker-0")));
  }

  /**
   * A running pod's Service goes once the pod is seen going, not with the deletion's request: that deletion holds
   * only for the pod as last seen, and a pod that ended meanwhile is kept, with its Service (a review saw a kept,
   * completed worker without it when two workers ended together).
   */
  @ParameterizedTest(name = "cleanPodPolicy {0}")
  @MethodSource("cleanPodPolicies")
  void finishedJobKeepsFinishedPodsAsCleanPodPolicySays(String policy, List<String> deleted, List<String> services) {
    TestJob job = TestJobs.job("j").workers(2).runPolicy(p -> p.setCleanPodPolicy(policy))
        .status(finished("Succeeded", 5)).build();
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).succeeded(), TestPods.of(job, "Worker", 1).running()));
    assertThat(actions(d, Action.DeletePod.class)).extracting(Action.DeletePod::name).containsExactlyElementsOf(deleted);
    assertThat(actions(d, Action.DeleteService.class)).extracting(Action.DeleteService::name)
        .containsExactlyElementsOf(services);

    Pod going = TestPods.of(job, "Worker", 1).terminating();
    List<Pod> next = "All".equals(policy) ? List.of(going) : List.of(TestPods.of(job, "Worker", 0).succeeded(), going);
    Decision after = decide(job, next, servicesFor(List.of(TestPods.of(job, "Worker", 0).succeeded(), going)));
    assertThat(actions(after, Action.DeleteService.class)).extracting(Action.DeleteService::name)
        .as("the Service of the pod going, and of one already gone")
        .containsExactlyElementsOf("All".equals(policy) ? List.of("j-worker-0", "j-worker-1") : List.of("j-worker-1"));
    assertThat(actions(after, Action.DeletePod.class)).isEmpty();
  }

  @Test
  void leaderSuccessEndsTheJobAndStopsRunningWorkers() {
    TestJob job = TestJobs.job("j").leader(1).workers(2).status(runningStatus()).build();
    Decision d = decide(job, List.of(TestPods.of(job, "Leader", 0).succeeded(),
        TestPods.of(job, "Worker", 0).running(), TestPods.of(job, "Worker", 1).succeeded()));
    assertThat(conditions(d.status())).containsExactly("Created=True/TestJobCreated", "Running=False/TestJobRunning",
        "Succeeded=True/TestJobSucceeded");
    assertThat(d.status().condition("Succeeded").orElseThrow().getMessage()).isEqualTo("TestJob j is successfully completed.");
    assertThat(d.status().getCompletionTime()).isEqualTo(NOW.toString());
    assertThat(actions(d, Action.DeletePod.class)).extracting(Action.DeletePod::name).containsExactly("j-worker-0");
    assertThat(d.status().getReplicaStatuses().get("Worker").active()).isZero();
  }

  @Test
  void scaleDownDeletesIndexesAtOrAboveReplicas() {
    TestJob job = TestJobs.job("j").workers(2).status(runningStatus()).build();
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).running(), TestPods.of(job, "Worker", 1).running(),
        TestPods.of(job, "Worker", 2).running()));
    assertThat(actions(d, Action.DeletePod.class)).extracting(Action.DeletePod::name).containsExactly("j-worker-2");
    assertThat(actions(d, Action.DeleteService.class)).extracting(Action.DeleteService::name).containsExactly("j-worker-2");
  }

  @Test
  void createdSuspendedGetsNoPodsAndNoStartTime() {
    TestJob job = TestJobs.job("j").leader(1).workers(1).suspend(true).build();
    Decision d = decide(job, List.of());
    assertThat(d.actions()).isEmpty();
    assertThat(conditions(d.status())).containsExactly("Created=True/TestJobCreated", "Suspended=True/TestJobSuspended");
    assertThat(d.status().getStartTime()).isNull();
    assertThat(d.status().getSuspensions()).isNull();
  }

  @Test
  void suspendingARunningJobDeletesEverythingWhateverCleanPodPolicy() {
    TestJob job = TestJobs.job("j").leader(1).workers(1).suspend(true).runPolicy(p -> p.setCleanPodPolicy("None"))
        .status(runningStatus()).build();
    Decision d = decide(job, List.of(TestPods.of(job, "Leader", 0).running(), TestPods.of(job, "Worker", 0).succeeded()));
    assertThat(actions(d, Action.DeletePod.class)).extracting(Action.DeletePod::name).containsExactly("j-leader-0", "j-worker-0");
    assertThat(actions(d, Action.DeleteService.class)).hasSize(2);
    assertThat(conditions(d.status())).containsExactly("Created=True/TestJobCreated", "Running=False/TestJobSuspended",
        "Suspended=True/TestJobSuspended");
    assertThat(d.status().condition("Suspended").orElseThrow().getMessage()).isEqualTo("TestJob j is suspended.");
    assertThat(d.status().getReplicaStatuses().get("Leader").active()).isZero();
    assertThat(d.status().getReplicaStatuses().get("Leader").terminating()).isEqualTo(1);
    assertThat(d.status().getStartTime()).isEqualTo(NOW.minusSeconds(30).toString());
    assertThat(d.status().getSuspensions()).isEqualTo(1);
  }

  @Test
  void resumingResetsStartTimeAndRecreatesPods() {
    JobStatus suspended = runningStatus();
    Conditions.set(suspended, ConditionType.Running, false, "TestJobSuspended", "s", "2026-11-29T11:30:00Z");
    Conditions.set(suspended, ConditionType.Suspended, true, "TestJobSuspended", "s", "2026-11-29T11:30:00Z");
    TestJob job = TestJobs.job("j").workers(1).status(suspended).build();
    Decision d = decide(job, List.of());
    assertThat(conditions(d.status())).containsExactly("Created=True/TestJobCreated", "Running=False/TestJobSuspended",
        "Suspended=False/TestJobResumed");
    assertThat(d.status().condition("Suspended").orElseThrow().getMessage()).isEqualTo("TestJob j is resumed.");
    assertThat(d.status().getStartTime()).isEqualTo(NOW.toString());
    assertThat(actions(d, Action.CreatePod.class)).hasSize(1);
  }

  @Test
  void finishedJobIgnoresSuspend() {
    TestJob job = TestJobs.job("j").workers(1).suspend(true).status(finished("Succeeded", 5)).build();
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).succeeded()));
    assertThat(d.status().condition("Suspended")).isEmpty();
    assertThat(d.actions()).isEmpty();
  }

  @Test
  void externallyManagedJobGetsNoWrites() {
    TestJob job = TestJobs.job("j").workers(1).runPolicy(p -> p.setManagedBy("kueue.x-k8s.io/multikueue")).build();
    Decision d = decide(job, List.of());
    assertThat(d.status()).isNull();
    assertThat(d.actions()).isEmpty();
    assertThat(d.events()).isEmpty();
  }

  @Test
  void invalidJobFailsWithAMessageNamingTheField() {
    TestJob job = TestJobs.job("j").workers(1).edit(j -> j.getSpec().getTestReplicaSpecs().get("Worker")
        .getTemplate().getSpec().getContainers().get(0).setName("other")).build();
    Decision d = decide(job, List.of());
    JobCondition failed = d.status().condition("Failed").orElseThrow();
    assertThat(failed.getReason()).isEqualTo("TestJobFailedValidation");
    assertThat(failed.getMessage()).contains("spec.testReplicaSpecs.Worker.template.spec.containers: must have a container named main");
    assertThat(actions(d, Action.CreatePod.class)).isEmpty();
  }

  @Test
  void unknownReplicaTypeIsNamed() {
    TestJob job = TestJobs.job("j").replicas("Chief", 1).build();
    assertThat(decide(job, List.of()).status().condition("Failed").orElseThrow().getMessage())
        .contains("spec.testReplicaSpecs.Chief: unknown replica type Chief");
  }
}
