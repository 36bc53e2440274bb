package dev.stint.operator.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.operator.testkind.SleepJob;
import dev.stint.operator.testkind.SleepJobs;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.RunPolicy;
import dev.stint.spi.api.SuccessPolicySpec;
import dev.stint.spi.api.SuccessRule;
import dev.stint.testdoubles.SimulatedKubelet;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** The two stories the demo tells beside plain success: a job suspended and resumed, and a partial success. */
class DemoStoryTest extends DemoOnMockServer {

  @Test
  void aJobSuspendedWhileRunningLosesItsPodsGetsThemBackFromTheEditedTemplateAndSucceeds() throws Exception {
    // 5 s of running leaves the demo ample time to see the job run and suspend it before its pods end
    SleepJob job = SleepJobs.job("paused", 2, "Never", Map.of(SimulatedKubelet.RUN_SECONDS, "5"));
    job.getMetadata().setAnnotations(Map.of(JobExpectation.SUSPEND_SECONDS, "0.5"));
    PodHistory history = new PodHistory();

    int exit;
    try (Watch watch = client.pods().inNamespace(Demo.NAMESPACE)
        .withLabel("training.kubeflow.org/job-name", "paused").watch(history)) {
      exit = demo(job).run(client);
    }

    assertThat(exit).isZero();
    assertThat(history.firstPods()).as("the pods before the suspension").hasSize(2);
    assertThat(history.emptiedAfterFirstPods()).as("every pod deleted before any came back").isTrue();
    assertThat(history.podsAfterEmptied()).hasSize(2).doesNotContainAnyElementsOf(history.firstPods());
    assertThat(pods("paused")).extracting(p -> p.getSpec().getNodeSelector())
        .as("the new pods come from the templates as edited while suspended")
        .containsOnly(SuspendResumeStep.RESUME_NODE_SELECTOR);
    SleepJob done = client.resources(SleepJob.class).inNamespace(Demo.NAMESPACE).withName("paused").get();
    assertThat(done.getStatus().getSuspensions()).isEqualTo(1);
    assertThat(done.getStatus().getOutcome()).isEqualTo("Succeeded");
    assertThat(done.getStatus().condition("Suspended")).get()
        .extracting(JobCondition::getStatus, JobCondition::getReason).containsExactly("False", "SleepJobResumed");
    assertThat(done.getStatus().getReplicaStatuses().get("Worker").succeeded()).isEqualTo(2);
    assertThat(output()).contains(
        ">> suspending paused: kubectl patch sleepjob paused --type merge"
            + " -p '{\"spec\":{\"runPolicy\":{\"suspend\":true}}}'",
        ">> paused is suspended: 2 pods deleted, active 0, suspensions 1; the job object stays",
        ">> resuming paused: kubectl patch sleepjob paused --type merge"
            + " -p '{\"spec\":{\"runPolicy\":{\"suspend\":false}}}'",
        ">> paused is running again: 2 new pods, each with nodeSelector stint.dev/demo-pool=resumed",
        "ok   paused: Succeeded, as expected; suspensions 1: suspended with 2 pods running, resumed, 2 new pods");
    // the table printed just before the line "paused is suspended" shows what that line was decided on
    assertThat(output()).as("the live table shows the job suspended with no pods and no active replica")
        .containsPattern("(?m)^paused\\s+SleepJob\\s+Suspended\\s+1\\s+Worker 0/2 running(, 2 terminating)?\\s+-\\s");
    assertThat(output())
        .containsPattern("(?m)^paused\\s+SleepJob\\s+Succeeded\\s+1\\s+Worker 0/2 running, 2 succeeded");
  }

  @Test
  void aJobWhosePolicyHoldsWhileAReplicaFailedEndsPartiallySucceeded() throws Exception {
    // Worker 0 fails: the slow start creates it alone, before the others, and the kubelet writes a pass's pods in
    // name order, so its failure is seen before the second success meets the policy, never after
    SleepJob job = SleepJobs.job("partial", 3, "Never", Map.of(SimulatedKubelet.RUN_SECONDS, "1",
        SimulatedKubelet.EXIT_CODE, "1", SimulatedKubelet.EXIT_CODE_INDEXES, "0"));
    job.getMetadata().setAnnotations(Map.of(JobExpectation.EXPECTED_OUTCOME, "PartiallySucceeded"));
    succeedWhenWorkersSucceeded(job, 2);

    int exit = demo(job).run(client);

    assertThat(exit).isZero();
    SleepJob done = client.resources(SleepJob.class).inNamespace(Demo.NAMESPACE).withName("partial").get();
    String message = "SleepJob partial partially succeeded: Worker 0 failed (exit code 1)";
    assertThat(done.getStatus().getConditions()).extracting(JobCondition::getType, JobCondition::getStatus,
            JobCondition::getReason, JobCondition::getMessage)
        .containsSubsequence(
            Tuple.tuple("PartiallySucceeded", "True", "SleepJobPartiallySucceeded", message),
            Tuple.tuple("Succeeded", "True", "SleepJobPartiallySucceeded", message));
    assertThat(done.getStatus().getOutcome()).isEqualTo("PartiallySucceeded");
    assertThat(done.getStatus().getReplicaStatuses().get("Worker"))
        .satisfies(w -> {
          assertThat(w.succeeded()).isEqualTo(2);
          assertThat(w.failed()).isEqualTo(1);
          assertThat(w.getFailedIndexes()).isEqualTo("0");
        });
    assertThat(output())
        .containsPattern("(?m)^partial\\s+SleepJob\\s+PartiallySucceeded\\s+0\\s+Worker 0/3 running, 2 succeeded, "
            + "1 failed\\s+2 Succeeded, 1 Failed")
        .contains("  partial: PartiallySucceeded=True (SleepJobPartiallySucceeded) " + message,
            "ok   partial: PartiallySucceeded, as expected: " + message,
            "All 1 job(s) ended as expected.");
  }

  @Test
  void aJobThatEndsOtherwiseThanItsExampleExpectsMakesTheDemoExitOne() throws Exception {
    SleepJob job = SleepJobs.job("all-fine", 1, "Never", Map.of(SimulatedKubelet.RUN_SECONDS, "0.5"));
    job.getMetadata().setAnnotations(Map.of(JobExpectation.EXPECTED_OUTCOME, "PartiallySucceeded"));

    int exit = demo(job).run(client);

    assertThat(exit).isEqualTo(1);
    assertThat(output()).contains("FAIL all-fine: Succeeded, but the demo expects PartiallySucceeded",
        "Not as expected: all-fine");
  }

  private static void succeedWhenWorkersSucceeded(SleepJob job, int workers) {
    SuccessRule rule = new SuccessRule();
    rule.setSucceeded(Map.of("Worker", workers));
    SuccessPolicySpec policy = new SuccessPolicySpec();
    policy.setRules(List.of(rule));
    RunPolicy runPolicy = new RunPolicy();
    runPolicy.setSuccessPolicy(policy);
    job.getSpec().setRunPolicy(runPolicy);
  }

  private Demo demo(SleepJob job) {
    return demo(SleepJobs.crds(), SleepJobs.examples(job), Duration.ofSeconds(90));
  }

  /** The pods of a job as they came and went, in the order the API server told. */
  private static final class PodHistory implements Watcher<Pod> {
    private final List<String> events = new ArrayList<>();

    @Override
    public synchronized void eventReceived(Action action, Pod pod) {
      if (action == Action.ADDED || action == Action.DELETED) {
        events.add(action + " " + pod.getMetadata().getUid());
      }
    }

    @Override
    public void onClose(WatcherException cause) { }

    /** The pods that existed before the first moment with none left. */
    synchronized Set<String> firstPods() {
      return walk().get(0);
    }

    synchronized boolean emptiedAfterFirstPods() {
      return walk().size() > 1;
    }

    /** The pods added after every first pod was deleted. */
    synchronized Set<String> podsAfterEmptied() {
      List<Set<String>> generations = walk();
      return generations.size() > 1 ? generations.get(1) : Set.of();
    }

    /** The pods added between moments with no pod: one set per such stretch. */
    private List<Set<String>> walk() {
      List<Set<String>> generations = new ArrayList<>(List.of(new LinkedHashSet<>()));
      Set<String> present = new HashSet<>();
      for (String event : events) {
        String uid = event.substring(event.indexOf(' ') + 1);
        if (event.startsWith("ADDED")) {
          if (present.isEmpty() && !generations.get(generations.size() - 1).isEmpty()) {
            generations.add(new LinkedHashSet<>());
          }
          present.add(uid);
          generations.get(generations.size() - 1).add(uid);
        } else {
          present.remove(uid);
        }
      }
      return generations;
    }
  }
}
