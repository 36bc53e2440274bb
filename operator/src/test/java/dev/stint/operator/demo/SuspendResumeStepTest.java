package dev.stint.operator.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.operator.demo.DemoJobs.DemoJob;
import dev.stint.operator.testkind.SleepFramework;
import dev.stint.operator.testkind.SleepJob;
import dev.stint.operator.testkind.SleepJobs;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The script step by step, with the job's status and pods given by the test: no operator, no kubelet, no timing. */
@EnableKubernetesMockClient(crud = true)
class SuspendResumeStepTest {
  private static final Duration PAUSE = Duration.ofSeconds(2);
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  KubernetesClient client;
  private final ByteArrayOutputStream output = new ByteArrayOutputStream();
  private SuspendResumeStep script;

  @BeforeEach
  void createTheJob() {
    client.apiextensions().v1().customResourceDefinitions().resource(SleepFramework.crd()).create();
    client.resources(SleepJob.class).inNamespace("default").resource(SleepJobs.job("j", 2, "Never", Map.of()))
        .create();
    script = new SuspendResumeStep(client, "default", new PrintStream(output, true, StandardCharsets.UTF_8), PAUSE);
  }

  @Test
  void suspendsOnceRunningResumesAfterThePauseAndIsDoneWhenNewPodsFromTheEditedTemplatesRun() {
    script.advance(job(status("Created")), List.of(), T0);
    assertThat(stored().getSpec().getRunPolicy()).as("not running yet: nothing done").isNull();

    script.advance(job(status("Running")), List.of(pod("old-0", false), pod("old-1", false)), T0);
    assertThat(stored().getSpec().getRunPolicy().getSuspend()).isTrue();
    assertThat(lines()).containsExactly(
        ">> suspending j: kubectl patch sleepjob j --type merge -p '{\"spec\":{\"runPolicy\":{\"suspend\":true}}}'");

    script.advance(job(status("Suspended")), List.of(pod("old-1", false)), T0);
    assertThat(lines()).as("a pod is left: not suspended yet").hasSize(1);
    JobStatus suspended = status("Suspended");
    suspended.setSuspensions(1);
    script.advance(job(suspended), List.of(), T0);
    assertThat(lines()).last()
        .isEqualTo(">> j is suspended: 2 pods deleted, active 0, suspensions 1; the job object stays");

    script.advance(job(suspended), List.of(), T0.plus(PAUSE).minusMillis(1));
    assertThat(stored().getSpec().getRunPolicy().getSuspend()).as("within the pause").isTrue();
    script.advance(job(suspended), List.of(), T0.plus(PAUSE));
    SleepJob resumed = stored();
    assertThat(resumed.getSpec().getRunPolicy().getSuspend()).isFalse();
    assertThat(resumed.getSpec().getSleepReplicaSpecs().get("Worker").getTemplate().getSpec().getNodeSelector())
        .isEqualTo(SuspendResumeStep.RESUME_NODE_SELECTOR);
    assertThat(resumed.getSpec().getSleepReplicaSpecs().get("Worker").getTemplate().getSpec().getContainers())
        .as("a merge patch keeps the rest of the template").hasSize(1);
    assertThat(lines()).last().isEqualTo(
        ">> resuming j: kubectl patch sleepjob j --type merge -p '{\"spec\":{\"runPolicy\":{\"suspend\":false}}}'");

    script.advance(job(status("Created")), List.of(pod("new-0", true)), T0.plus(PAUSE));
    assertThat(script.done()).as("one of two pods back").isFalse();
    script.advance(job(status("Running")), List.of(pod("new-0", true), pod("new-1", true)), T0.plus(PAUSE));
    assertThat(script.done()).isTrue();
    assertThat(lines()).last().isEqualTo(
        ">> j is running again: 2 new pods, each with nodeSelector stint.dev/demo-pool=resumed from the edited "
            + "templates");
    assertThat(script.story())
        .isEqualTo("suspended with 2 pods running, resumed, 2 new pods from the current templates");
  }

  @Test
  void newPodsWithoutTheEditedNodeSelectorAreNotDone() {
    script.advance(job(status("Running")), List.of(pod("old-0", false), pod("old-1", false)), T0);
    script.advance(job(status("Suspended")), List.of(), T0);
    script.advance(job(status("Suspended")), List.of(), T0.plus(PAUSE));

    script.advance(job(status("Running")), List.of(pod("new-0", true), pod("new-1", false)), T0.plus(PAUSE));

    assertThat(script.done()).isFalse();
    assertThat(lines()).last().isEqualTo(">> j: 1 of 2 new pods lack the edited nodeSelector");
    assertThat(script.story()).isEqualTo("suspended and resumed, but its new pods lack the edited nodeSelector");
  }

  @Test
  void aJobThatEndsBeforeItRunsIsNeverSuspended() {
    script.advance(job(status("Succeeded")), List.of(), T0);

    assertThat(stored().getSpec().getRunPolicy()).isNull();
    assertThat(script.done()).isFalse();
    assertThat(lines()).containsExactly(
        ">> j ended before it ran with all its pods up: the demo could not suspend it");
    assertThat(script.story()).isEqualTo("it ended before the demo could suspend it");
  }

  @Test
  void aRefusedPatchEndsTheScriptAndSaysWhy() {
    DemoJob running = job(status("Running"));
    client.resources(SleepJob.class).inNamespace("default").withName("j").delete();

    assertThat(script.advance(running, List.of(pod("old-0", false)), T0)).isTrue();

    assertThat(script.done()).isFalse();
    assertThat(lines()).last().asString().startsWith(">> j: the API server refused the patch: ");
    assertThat(script.story()).startsWith("the API server refused a patch: ").contains("Not Found");
  }

  private DemoJob job(JobStatus status) {
    SleepJob job = stored();
    job.setStatus(status);
    return new DemoJob(new SleepFramework(), job, JobExpectation.of(job));
  }

  private SleepJob stored() {
    return client.resources(SleepJob.class).inNamespace("default").withName("j").get();
  }

  /** A status whose only true condition, after Created, is {@code type}. */
  private static JobStatus status(String type) {
    JobStatus status = new JobStatus();
    status.setConditions(Stream.of("Created", type).distinct()
        .map(t -> new JobCondition(t, "True", "r", "m", "2026-01-01T00:00:00Z")).toList());
    status.setOutcome(type);
    return status;
  }

  private static Pod pod(String uid, boolean editedTemplate) {
    return new PodBuilder().withNewMetadata().withName(uid).withUid(uid).endMetadata()
        .withNewSpec().withNodeSelector(editedTemplate ? SuspendResumeStep.RESUME_NODE_SELECTOR : null).endSpec()
        .withNewStatus().withPhase("Running").endStatus().build();
  }

  private List<String> lines() {
    return output.toString(StandardCharsets.UTF_8).lines().toList();
  }
}
