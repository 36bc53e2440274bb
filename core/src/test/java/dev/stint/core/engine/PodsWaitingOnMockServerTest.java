package dev.stint.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.core.testing.TestJobs;
import dev.stint.spi.api.JobCondition;
import dev.stint.testdoubles.KubeletStatuses;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Pods that exist and cannot run, through JOSDK and the informer caches: the job shows why within a pass of the
 * pods' status change, announces each cause once, counts itself in {@code stint_jobs_with_pods_waiting}, and drops it
 * all once its pods run.
 */
@EnableKubernetesMockClient(crud = true)
class PodsWaitingOnMockServerTest extends MockServerEngineTest {

  private JobCondition waiting(String job) {
    return status(job).condition("PodsWaiting").orElseThrow();
  }

  /** The number of times an event of that reason was recorded: Events posted, plus the count of those patched. */
  private int occurrences(String reason) {
    assertThat(operator.awaitEventsSent(Duration.ofSeconds(30))).as("events sent").isTrue();
    return client.v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> reason.equals(e.getReason())).mapToInt(Event::getCount).sum();
  }

  private double jobsWaiting(String reason) {
    return scrape().value("stint_jobs_with_pods_waiting", "kind", "TestJob", "reason", reason);
  }

  @Test
  void unschedulablePodsAreShownCountedAnnouncedOnceAndForgottenWhenTheyRun() {
    create(TestJobs.job("big").workers(3).build());
    await().untilAsserted(() -> assertThat(pods("big")).hasSize(3));
    pods("big").forEach(p -> kubelet.unschedulable(p.getMetadata().getName(), KubeletStatuses.NO_GPU));

    await().ignoreExceptions().untilAsserted(() -> {
      assertThat(waiting("big").getReason()).isEqualTo("TestJobUnschedulable");
      assertThat(waiting("big").getMessage()).isEqualTo("3 of 3 Workers: Unschedulable: " + KubeletStatuses.NO_GPU);
    });
    assertThat(status("big").getConditions()).last().extracting(JobCondition::getType).isEqualTo("PodsWaiting");
    assertThat(jobsWaiting("Unschedulable")).isEqualTo(1);

    // another cause on one pod: a second announcement, the gauge follows the condition's reason
    kubelet.waiting("big-worker-0", "ImagePullBackOff", "Back-off pulling image \"busybox\"");
    await().ignoreExceptions().untilAsserted(() -> assertThat(waiting("big").getMessage()).isEqualTo(
        "Worker 0: ImagePullBackOff: Back-off pulling image \"busybox\"; 2 of 3 Workers: Unschedulable: "
            + KubeletStatuses.NO_GPU));
    assertThat(waiting("big").getReason()).isEqualTo("TestJobImagePullBackOff");
    await().untilAsserted(() -> assertThat(jobsWaiting("ImagePullBackOff")).isEqualTo(1));
    assertThat(jobsWaiting("Unschedulable")).isZero();

    kubelet.runAll(pods("big"));
    await().untilAsserted(() -> assertThat(status("big").isTrue("Running")).isTrue());
    assertThat(status("big").condition("PodsWaiting")).isEmpty();
    assertThat(jobsWaiting("ImagePullBackOff")).isZero();
    assertThat(occurrences("TestJobUnschedulable")).as("one event per distinct cause").isEqualTo(1);
    assertThat(occurrences("TestJobImagePullBackOff")).isEqualTo(1);
  }

  @Test
  void aRestartedOperatorDoesNotAnnounceAgainWhatTheConditionShowsButDoesANewCause() {
    create(TestJobs.job("stuck").workers(2).build());
    await().untilAsserted(() -> assertThat(pods("stuck")).hasSize(2));
    pods("stuck").forEach(p -> kubelet.unschedulable(p.getMetadata().getName(), KubeletStatuses.NO_GPU));
    await().ignoreExceptions().untilAsserted(() -> assertThat(waiting("stuck").getReason())
        .isEqualTo("TestJobUnschedulable"));
    assertThat(occurrences("TestJobUnschedulable")).isEqualTo(1);

    restartOperator(); // a new process: what the last one announced is not in its memory, the condition is
    kubelet.waiting("stuck-worker-1", "ImagePullBackOff", "Back-off pulling image \"busybox\"");
    await().ignoreExceptions().untilAsserted(() -> assertThat(waiting("stuck").getReason())
        .isEqualTo("TestJobImagePullBackOff"));

    assertThat(occurrences("TestJobImagePullBackOff")).as("a cause the condition did not show").isEqualTo(1);
    assertThat(occurrences("TestJobUnschedulable")).as("shown by the condition before the restart").isEqualTo(1);
  }

  @Test
  void aCrashLoopingWorkerTakesRunningBackAndIsAnnouncedOnceThoughItRunsBetweenRestarts() {
    createRunning("loop", 2);
    kubelet.crashLooping("loop-worker-1", 1);
    await().ignoreExceptions().untilAsserted(() -> {
      assertThat(waiting("loop").getReason()).isEqualTo("TestJobCrashLoopBackOff");
      assertThat(status("loop").condition("Running").orElseThrow().getStatus()).isEqualTo("False");
    });
    assertThat(waiting("loop").getMessage()).startsWith("Worker 1: CrashLoopBackOff: back-off 40s restarting "
        + "failed container=").endsWith("; last exit code 1 (Error)");

    kubelet.run("loop-worker-1"); // the kubelet restarted it: it runs for a moment
    await().untilAsserted(() -> assertThat(status("loop").isTrue("Running")).isTrue());
    kubelet.crashLooping("loop-worker-1", 1);
    await().untilAsserted(() -> assertThat(status("loop").isTrue("PodsWaiting")).isTrue());
    assertThat(occurrences("TestJobCrashLoopBackOff")).as("the same cause, announced once").isEqualTo(1);
    assertThat(status("loop").isTrue("Failed")).as("no failure without a limit").isFalse();
  }

  @Test
  void theOptInLimitFailsAJobWhosePodsWaitTooLongOnTimeWithoutAnotherEvent() {
    create(TestJobs.job("late").workers(2).runPolicy(p -> p.setPodsWaitingTimeoutSeconds(2L)).build());
    await().untilAsserted(() -> assertThat(pods("late")).hasSize(2));
    kubelet.run("late-worker-0");
    kubelet.waiting("late-worker-1", "CreateContainerConfigError", "secret \"creds\" not found");

    // no pod changes after this: the decision's timed requeue fails the job
    await().ignoreExceptions().untilAsserted(() -> {
      JobCondition failed = status("late").condition("Failed").orElseThrow();
      assertThat(failed.getReason()).isEqualTo("TestJobCreateContainerConfigError");
      assertThat(failed.getMessage()).isEqualTo("TestJob late has failed because Worker 1 waited more than 2 s to "
          + "start (spec.runPolicy.podsWaitingTimeoutSeconds): CreateContainerConfigError: secret \"creds\" not found");
    });
    assertThat(status("late").condition("PodsWaiting")).isEmpty();
    await().untilAsserted(() -> assertThat(pods("late")).isEmpty());
  }
}
