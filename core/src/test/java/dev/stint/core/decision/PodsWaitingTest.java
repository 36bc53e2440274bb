package dev.stint.core.decision;

import static dev.stint.core.decision.JobDeciderTest.NOW;
import static dev.stint.core.decision.JobDeciderTest.decide;
import static dev.stint.core.decision.JobDeciderTest.runningStatus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.model.Action;
import dev.stint.core.testing.TestJobs;
import dev.stint.core.testing.TestPods;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import dev.stint.testdoubles.KubeletStatuses;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Pods that exist and cannot run: pod statuses in, the {@code PodsWaiting} condition (and Running, and limits) out. */
class PodsWaitingTest {
  private static final List<String> MAIN = List.of("main");
  private static final String PULL = "Back-off pulling image \"nope:1\"";

  static Stream<Arguments> causes() {
    return Stream.of(
        Arguments.of("unschedulable", (Function<Pod, PodStatus>) p -> KubeletStatuses.unschedulable(
            KubeletStatuses.NO_GPU), "TestJobUnschedulable", "Worker 1: Unschedulable: " + KubeletStatuses.NO_GPU),
        Arguments.of("image pull", status("ErrImagePull", "rpc error: code = NotFound desc = failed to pull image"),
            "TestJobErrImagePull", "Worker 1: ErrImagePull: rpc error: code = NotFound desc = failed to pull image"),
        Arguments.of("image pull back-off", status("ImagePullBackOff", PULL), "TestJobImagePullBackOff",
            "Worker 1: ImagePullBackOff: " + PULL),
        Arguments.of("missing secret", status("CreateContainerConfigError", "secret \"x\" not found"),
            "TestJobCreateContainerConfigError", "Worker 1: CreateContainerConfigError: secret \"x\" not found"),
        Arguments.of("a reason Stint does not know", status("SomethingNew", ""), "TestJobSomethingNew",
            "Worker 1: SomethingNew"),
        Arguments.of("crash loop", (Function<Pod, PodStatus>) p -> KubeletStatuses.crashLooping(
            p.getMetadata().getName(), MAIN, 3), "TestJobCrashLoopBackOff", "Worker 1: CrashLoopBackOff: back-off 40s "
            + "restarting failed container=main pod=j-worker-1_default(uid); last exit code 3 (Error)"),
        Arguments.of("init container for over 5 minutes", (Function<Pod, PodStatus>) p -> KubeletStatuses
            .initializing("init", MAIN, NOW.minus(Duration.ofMinutes(6)).toString()), "TestJobPodInitializing",
            "Worker 1: PodInitializing: init container init has been running since 2026-11-29T11:54:00Z, over 5 "
                + "minutes"));
  }

  private static Function<Pod, PodStatus> status(String reason, String message) {
    return p -> KubeletStatuses.waiting(MAIN, reason, message);
  }

  /** A leader and three workers: every pod running but Worker 1, whose status is given. */
  private static List<Pod> pods(TestJob job, Function<Pod, PodStatus> worker1) {
    List<Pod> pods = new ArrayList<>(List.of(TestPods.of(job, "Leader", 0).running(),
        TestPods.of(job, "Worker", 0).running(), TestPods.of(job, "Worker", 2).running()));
    Pod waiting = TestPods.of(job, "Worker", 1).pending();
    waiting.setStatus(worker1.apply(waiting));
    pods.add(waiting);
    return pods;
  }

  private static TestJob job(JobStatus status) {
    return TestJobs.job("j").leader(1).workers(3).restartPolicy("OnFailure").status(status).build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("causes")
  void aPodThatCannotRunIsShownWithItsCauseAndWords(String name, Function<Pod, PodStatus> worker1, String reason,
                                                    String message) {
    TestJob job = job(runningStatus());
    Decision d = decide(job, pods(job, worker1));
    JobCondition waiting = d.status().condition("PodsWaiting").orElseThrow();
    assertThat(waiting.getStatus()).isEqualTo("True");
    assertThat(waiting.getReason()).isEqualTo(reason);
    assertThat(waiting.getMessage()).isEqualTo(message);
    assertThat(d.status().getConditions().get(d.status().getConditions().size() - 1).getType())
        .as("the last condition, kubectl's STATE").isEqualTo("PodsWaiting");
    assertThat(d.status().isTrue("Running")).isFalse();
    assertThat(d.status().isTrue("Failed")).isFalse();
    assertThat(d.status().getOutcome()).isEqualTo("PodsWaiting");
    assertThat(d.waiting()).containsExactly(new WaitingCause(reason.substring("TestJob".length()), message));
  }

  @Test
  void aStartInProgressIsNotACauseAndIsLookedAtAgainWhenItWouldBeSlow() {
    TestJob job = job(runningStatus());
    Decision d = decide(job, pods(job,
        p -> KubeletStatuses.initializing("init", MAIN, NOW.minus(Duration.ofMinutes(1)).toString())));
    assertThat(d.status().condition("PodsWaiting")).isEmpty();
    assertThat(d.requeueAfter()).contains(Duration.ofMinutes(4));

    Decision creating = decide(job, pods(job, status("ContainerCreating", "")));
    assertThat(creating.status().condition("PodsWaiting").orElseThrow().getMessage())
        .startsWith("Worker 1: ContainerCreating: container main has been in ContainerCreating since 2026-");
  }

  @Test
  void podsWithTheSameCauseShareOneMessageThatCountsThem() {
    TestJob job = TestJobs.job("j").leader(1).workers(8).build();
    job.setStatus(runningStatus());
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      Pod p = TestPods.of(job, "Worker", i).pending();
      p.setStatus(i < 3 ? KubeletStatuses.unschedulable(KubeletStatuses.NO_GPU) : KubeletStatuses.running(MAIN));
      pods.add(p);
    }
    Pod leader = TestPods.of(job, "Leader", 0).pending();
    leader.setStatus(KubeletStatuses.waiting(MAIN, "ImagePullBackOff", PULL));
    pods.add(leader);

    Decision d = decide(job, pods);
    JobCondition waiting = d.status().condition("PodsWaiting").orElseThrow();
    // the cause a user must fix first names the condition; the one that may heal with time comes after
    assertThat(waiting.getReason()).isEqualTo("TestJobImagePullBackOff");
    assertThat(waiting.getMessage()).isEqualTo("Leader 0: ImagePullBackOff: " + PULL + "; 3 of 8 Workers: "
        + "Unschedulable: " + KubeletStatuses.NO_GPU);
    assertThat(d.waiting()).extracting(WaitingCause::cause).containsExactly("ImagePullBackOff", "Unschedulable");
  }

  @Test
  void theConditionGoesAndRunningComesBackOnceThePodsRun() {
    TestJob job = job(runningStatus());
    JobStatus waiting = decide(job, pods(job, status("ImagePullBackOff", PULL))).status();
    assertThat(waiting.condition("Running").orElseThrow().getStatus()).isEqualTo("False");

    Decision runs = decide(job(waiting), pods(job, p -> KubeletStatuses.running(MAIN)));
    assertThat(runs.status().condition("PodsWaiting")).isEmpty();
    assertThat(runs.status().isTrue("Running")).isTrue();
    assertThat(runs.waiting()).isEmpty();
  }

  @Test
  void theMessageFollowsThePodsWhileTheCauseStays() {
    TestJob job = job(runningStatus());
    JobStatus first = decide(job, pods(job, status("ImagePullBackOff", PULL))).status();
    JobStatus second = decide(job(first), pods(job, status("ImagePullBackOff", "Back-off pulling image \"v2\"")))
        .status();
    JobCondition before = first.condition("PodsWaiting").orElseThrow();
    JobCondition after = second.condition("PodsWaiting").orElseThrow();
    assertThat(after.getMessage()).isEqualTo("Worker 1: ImagePullBackOff: Back-off pulling image \"v2\"");
    assertThat(after.getLastTransitionTime()).isEqualTo(before.getLastTransitionTime());
  }

  @Test
  void noLimitByDefault() {
    TestJob job = job(runningStatus());
    Decision d = decide(job, pods(job, p -> KubeletStatuses.unschedulable(KubeletStatuses.NO_GPU)));
    assertThat(d.status().isTrue("Failed")).isFalse();
  }

  @Test
  void theOptInLimitFailsTheJobNamingTheCause() {
    // the pods were created at 2026-01-01, long before NOW; the job started 30 s ago: it has waited 30 s
    TestJob under = TestJobs.job("j").leader(1).workers(3).runPolicy(p -> p.setPodsWaitingTimeoutSeconds(60L))
        .status(runningStatus()).build();
    Decision waiting = decide(under, pods(under, status("CreateContainerConfigError", "secret \"x\" not found")));
    assertThat(waiting.status().isTrue("Failed")).isFalse();
    assertThat(waiting.requeueAfter()).contains(Duration.ofSeconds(30));

    TestJob over = TestJobs.job("j").leader(1).workers(3).runPolicy(p -> p.setPodsWaitingTimeoutSeconds(30L))
        .status(runningStatus()).build();
    Decision failed = decide(over, pods(over, status("CreateContainerConfigError", "secret \"x\" not found")));
    JobCondition condition = failed.status().condition("Failed").orElseThrow();
    assertThat(condition.getReason()).isEqualTo("TestJobCreateContainerConfigError");
    assertThat(condition.getMessage()).isEqualTo("TestJob j has failed because Worker 1 waited more than 30 s to "
        + "start (spec.runPolicy.podsWaitingTimeoutSeconds): CreateContainerConfigError: secret \"x\" not found");
    assertThat(failed.status().condition("PodsWaiting")).isEmpty();
    assertThat(failed.actions()).filteredOn(a -> a instanceof Action.DeletePod).isNotEmpty();
  }

  @Test
  void aCrashLoopIsLeftToBackoffLimitNotToTheWaitingLimit() {
    TestJob job = TestJobs.job("j").leader(1).workers(3).runPolicy(p -> p.setPodsWaitingTimeoutSeconds(1L))
        .status(runningStatus()).build();
    Decision d = decide(job, pods(job, p -> KubeletStatuses.crashLooping(p.getMetadata().getName(), MAIN, 1)));
    assertThat(d.status().isTrue("Failed")).isFalse();
    assertThat(d.status().condition("PodsWaiting").orElseThrow().getReason()).isEqualTo("TestJobCrashLoopBackOff");
  }

  @Test
  void aSuspendedJobNeitherWaitsNorFails() {
    JobStatus waiting = decide(job(runningStatus()), pods(job(runningStatus()),
        p -> KubeletStatuses.unschedulable(KubeletStatuses.NO_GPU))).status();
    TestJob suspended = TestJobs.job("j").leader(1).workers(3).suspend(true)
        .runPolicy(p -> p.setPodsWaitingTimeoutSeconds(1L)).status(waiting).build();
    Decision d = decide(suspended, pods(suspended, p -> KubeletStatuses.unschedulable(KubeletStatuses.NO_GPU)));
    assertThat(d.status().condition("PodsWaiting")).isEmpty();
    assertThat(d.status().isTrue("Failed")).isFalse();
    assertThat(d.status().isTrue("Suspended")).isTrue();
  }

  @Test
  void theLimitCountsFromTheResumeNotFromBeforeTheSuspension() {
    // startTime is reset on resume: a pod created before it (or a clock that skewed) waits from the resume
    JobStatus resumed = runningStatus();
    resumed.setStartTime(NOW.minusSeconds(5).toString());
    TestJob job = TestJobs.job("j").leader(1).workers(3).runPolicy(p -> p.setPodsWaitingTimeoutSeconds(10L))
        .status(resumed).build();
    Decision d = decide(job, pods(job, p -> KubeletStatuses.unschedulable(KubeletStatuses.NO_GPU)));
    assertThat(d.status().isTrue("Failed")).isFalse();
    assertThat(d.requeueAfter()).contains(Duration.ofSeconds(5));
  }

  @Test
  void aTerminatingOrScaledDownPodIsNotWaiting() {
    TestJob job = job(runningStatus());
    List<Pod> pods = pods(job, p -> KubeletStatuses.running(MAIN));
    Pod gone = TestPods.of(job, "Worker", 5).pending();
    gone.setStatus(KubeletStatuses.unschedulable(KubeletStatuses.NO_GPU));
    pods.add(gone);
    assertThat(decide(job, pods).status().condition("PodsWaiting")).isEmpty();
  }

  @Test
  void aFinishedJobShowsNoWaitingPods() {
    JobStatus waiting = decide(job(runningStatus()), pods(job(runningStatus()),
        p -> KubeletStatuses.unschedulable(KubeletStatuses.NO_GPU))).status();
    TestJob job = job(waiting);
    List<Pod> pods = new ArrayList<>(List.of(TestPods.of(job, "Leader", 0).succeeded()));
    Pod worker = TestPods.of(job, "Worker", 1).pending();
    worker.setStatus(KubeletStatuses.unschedulable(KubeletStatuses.NO_GPU));
    pods.add(worker);
    Decision d = decide(job, pods);
    assertThat(d.status().isTrue("Succeeded")).isTrue();
    assertThat(d.status().condition("PodsWaiting")).isEmpty();
  }

  /**
   * The common case costs no request: pods just created (no status yet, or scheduled and not yet started) and pods
   * running with their init containers done ask for no condition, no requeue, no announcement, and a second pass on
   * the same pods changes nothing, so nothing is written.
   */
  @Test
  void podsStartingOrRunningNormallyAskForNothingMore() {
    TestJob job = job(runningStatus());
    List<Pod> pods = pods(job, p -> KubeletStatuses.running(MAIN));
    pods.forEach(p -> p.getStatus().setInitContainerStatuses(List.of(new io.fabric8.kubernetes.api.model
        .ContainerStatusBuilder().withName("init").withNewState().withNewTerminated().withExitCode(0)
        .endTerminated().endState().build())));
    Pod created = TestPods.of(job, "Worker", 2).pending();
    created.setStatus(null);
    pods.set(2, created);
    Decision first = decide(job, pods);
    assertThat(first.waiting()).isEmpty();
    assertThat(first.requeueAfter()).isEmpty();
    assertThat(first.status().condition("PodsWaiting")).isEmpty();
    assertThat(decide(job(first.status()), pods).status()).isEqualTo(first.status());
  }

  @Test
  void pluralsOfReplicaTypes() {
    assertThat(PodsWaitingPolicy.plural("Worker")).isEqualTo("Workers");
    assertThat(PodsWaitingPolicy.plural("PS")).isEqualTo("PS");
  }
}
