package dev.stint.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.core.testing.TestJobs;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The engine behind JOSDK on the fabric8 CRUD mock server, with a fake kubelet moving pod phases. */
@EnableKubernetesMockClient(crud = true)
class EngineOnMockServerTest extends MockServerEngineTest {

  @Test
  void jobRunsToSuccessAndStopsWorkersStillRunning() {
    create(TestJobs.job("ok").leader(1).workers(2).build());
    await().untilAsserted(() -> assertThat(pods("ok")).hasSize(3));
    await().untilAsserted(() -> assertThat(client.services().inNamespace("default").list().getItems()).hasSize(3));
    kubelet.runAll(pods("ok"));
    await().untilAsserted(() -> assertThat(status("ok").isTrue("Running")).isTrue());
    assertThat(status("ok").getReplicaStatuses().get("Worker").active()).isEqualTo(2);

    kubelet.succeed("ok-leader-0");
    await().untilAsserted(() -> assertThat(status("ok").isTrue("Succeeded")).isTrue());
    assertThat(status("ok").getCompletionTime()).isNotNull();
    await().untilAsserted(() -> assertThat(pods("ok")).extracting(p -> p.getMetadata().getName())
        .containsExactly("ok-leader-0"));
    assertThat(events("TestJobSucceeded")).isEqualTo(1);
  }

  @Test
  void operatorRestartWithPodsPresentCreatesNoDuplicates() {
    createRunning("again", 3);
    restartOperator();
    kubelet.succeed("again-worker-0");
    await().untilAsserted(() -> assertThat(status("again").getReplicaStatuses().get("Worker").succeeded()).isEqualTo(1));
    assertThat(pods("again")).hasSize(3);
    assertThat(events("SuccessfulCreatePod")).isEqualTo(3);
    assertThat(events("TestJobCreated")).isEqualTo(1);
  }

  @Test
  void deadlineFiresWithoutAnyOtherEvent() {
    create(TestJobs.job("slow").workers(1).runPolicy(p -> p.setActiveDeadlineSeconds(2L)).build());
    await().untilAsserted(() -> assertThat(pods("slow")).hasSize(1));
    kubelet.run("slow-worker-0");
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(status("slow").isTrue("Failed")).isTrue());
    assertThat(status("slow").condition("Failed").orElseThrow().getMessage())
        .isEqualTo("Job slow has failed because it was active longer than specified deadline"
            + " (spec.runPolicy.activeDeadlineSeconds: 2)");
    await().untilAsserted(() -> assertThat(pods("slow")).isEmpty());
  }

  @Test
  void restartedPodIsRecreatedAndBackoffLimitEndsTheRetries() {
    create(TestJobs.job("flaky").workers(1).restartPolicy("ExitCode").runPolicy(p -> p.setBackoffLimit(1)).build());
    await().untilAsserted(() -> assertThat(pods("flaky")).hasSize(1));
    String firstUid = pods("flaky").get(0).getMetadata().getUid();
    kubelet.fail("flaky-worker-0", 137);
    await().untilAsserted(() -> assertThat(pods("flaky")).singleElement()
        .satisfies(p -> assertThat(p.getMetadata().getUid()).isNotEqualTo(firstUid)));
    assertThat(status("flaky").getReplicaStatuses().get("Worker").restarts()).isEqualTo(1);
    kubelet.fail("flaky-worker-0", 137);
    await().untilAsserted(() -> assertThat(status("flaky").isTrue("Failed")).isTrue());
    assertThat(status("flaky").condition("Failed").orElseThrow().getMessage())
        .isEqualTo("Job flaky has failed because it has reached the specified backoff limit");
  }

  @Test
  void suspendDeletesPodsAndResumeRecreatesThemFromTheCurrentTemplate() {
    createRunning("pause", 2);

    client.resources(TestJob.class).inNamespace("default").withName("pause")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"runPolicy\":{\"suspend\":true}}}");
    await().untilAsserted(() -> assertThat(pods("pause")).isEmpty());
    await().untilAsserted(() -> assertThat(status("pause").isTrue("Suspended")).isTrue());
    assertThat(status("pause").getReplicaStatuses().get("Worker").active()).isZero();

    // one merge patch, as Kueue's admission does it: unsuspend and edit the template
    client.resources(TestJob.class).inNamespace("default").withName("pause").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"runPolicy\":"
        + "{\"suspend\":false},\"testReplicaSpecs\":{\"Worker\":{\"template\":{\"spec\":{\"nodeSelector\":{\"pool\":\"b\"}}}}}}}");
    await().untilAsserted(() -> assertThat(pods("pause")).hasSize(2)
        .allSatisfy(p -> assertThat(p.getSpec().getNodeSelector()).containsEntry("pool", "b")));
    await().ignoreExceptions().untilAsserted(() -> assertThat(status("pause").condition("Suspended").orElseThrow().getReason())
        .isEqualTo("TestJobResumed"));
  }

  @ParameterizedTest(name = "{0} exit {1}")
  @CsvSource({"OnFailure, 1, true", "Always, 1, true", "ExitCode, 137, true", "ExitCode, 1, false", "Never, 1, false",
      "Never, 137, false"})
  void failedPodIsRecreatedOrFailsTheJobAsTheRestartPolicySays(String policy, int exitCode, boolean recreated) {
    String name = "rp-" + policy.toLowerCase() + "-" + exitCode;
    create(TestJobs.job(name).workers(2).restartPolicy(policy).build());
    await().untilAsserted(() -> assertThat(pods(name)).hasSize(2));
    kubelet.runAll(pods(name));
    String failing = name + "-worker-1";
    String firstUid = client.pods().inNamespace("default").withName(failing).get().getMetadata().getUid();
    kubelet.fail(failing, exitCode);
    if (recreated) {
      await().untilAsserted(() -> assertThat(client.pods().inNamespace("default").withName(failing).get())
          .isNotNull().satisfies(p -> assertThat(p.getMetadata().getUid()).isNotEqualTo(firstUid)));
      await().untilAsserted(() -> assertThat(status(name).getReplicaStatuses().get("Worker").restarts()).isEqualTo(1));
      assertThat(status(name).isTrue("Failed")).isFalse();
    } else {
      await().untilAsserted(() -> assertThat(status(name).isTrue("Failed")).isTrue());
      assertThat(status(name).getCompletionTime()).isNotNull();
      // the replica still running is stopped, the failed pod stays for its logs (cleanPodPolicy None)
      await().untilAsserted(() -> assertThat(pods(name)).extracting(p -> p.getMetadata().getName())
          .containsExactly(failing));
    }
  }

  @ParameterizedTest(name = "cleanPodPolicy {0}")
  @CsvSource({"None, 1", "Running, 1", "All, 0"})
  void finishedJobKeepsPodsAsCleanPodPolicySays(String policy, int podsLeft) {
    String name = "clean-" + policy.toLowerCase();
    create(TestJobs.job(name).workers(1).runPolicy(p -> p.setCleanPodPolicy(policy)).build());
    await().untilAsserted(() -> assertThat(pods(name)).hasSize(1));
    kubelet.run(name + "-worker-0");
    kubelet.succeed(name + "-worker-0");
    await().untilAsserted(() -> assertThat(status(name).isTrue("Succeeded")).isTrue());
    await().untilAsserted(() -> assertThat(pods(name)).hasSize(podsLeft));
  }

  @Test
  void ttlDeletesTheFinishedJob() {
    create(TestJobs.job("short").workers(1).runPolicy(p -> p.setTtlSecondsAfterFinished(1)).build());
    await().untilAsserted(() -> assertThat(pods("short")).hasSize(1));
    kubelet.run("short-worker-0");
    kubelet.succeed("short-worker-0");
    await().untilAsserted(() -> assertThat(job("short")).isNull());
  }

  @Test
  void externallyManagedJobIsLeftAloneWhileOthersRun() {
    create(TestJobs.job("theirs").workers(1).runPolicy(p -> p.setManagedBy("kueue.x-k8s.io/multikueue")).build());
    create(TestJobs.job("ours").workers(1).build());
    await().untilAsserted(() -> assertThat(status("ours").isTrue("Created")).isTrue());
    await().untilAsserted(() -> assertThat(pods("ours")).hasSize(1));
    assertThat(job("theirs").getStatus()).isNull();
    assertThat(pods("theirs")).isEmpty();
  }

  @Test
  void invalidJobFailsWithTheFieldWhileOthersRun() {
    create(TestJobs.job("bad").workers(1).edit(j -> j.getSpec().getTestReplicaSpecs().get("Worker").getTemplate()
        .getSpec().getContainers().get(0).setImage("")).build());
    create(TestJobs.job("good").workers(1).build());
    await().untilAsserted(() -> assertThat(status("bad").isTrue("Failed")).isTrue());
    assertThat(status("bad").condition("Failed").orElseThrow().getMessage())
        .contains("spec.testReplicaSpecs.Worker.template.spec.containers[0].image: must not be empty");
    await().untilAsserted(() -> assertThat(pods("good")).hasSize(1));
    assertThat(pods("bad")).isEmpty();
  }
}
