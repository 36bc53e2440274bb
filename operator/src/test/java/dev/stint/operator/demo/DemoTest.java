package dev.stint.operator.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stint.core.testing.FaultyJob;
import dev.stint.core.testing.TestCrds;
import dev.stint.operator.CommandFailure;
import dev.stint.operator.testkind.SleepFramework;
import dev.stint.operator.testkind.SleepJob;
import dev.stint.operator.testkind.SleepJobs;
import dev.stint.spi.api.JobCondition;
import dev.stint.testdoubles.SimulatedKubelet;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

class DemoTest extends DemoOnMockServer {

  @Test
  void jobsRunToSuccessAndTheDemoExitsZero() throws Exception {
    SleepJob job = SleepJobs.job("sleepy", 2, "Never", Map.of(SimulatedKubelet.RUN_SECONDS, "1"));

    int exit = demo(SleepJobs.crds(), SleepJobs.examples(job)).run(client);

    assertThat(exit).isZero();
    SleepJob done = client.resources(SleepJob.class).inNamespace(Demo.NAMESPACE).withName("sleepy").get();
    assertThat(done.getStatus().getConditions()).extracting(JobCondition::getType, JobCondition::getStatus,
            JobCondition::getReason)
        .containsSubsequence(
            Tuple.tuple("Created", "True", "SleepJobCreated"),
            Tuple.tuple("Succeeded", "True", "SleepJobSucceeded"));
    assertThat(done.getStatus().condition("Running")).get().extracting(JobCondition::getStatus).isEqualTo("False");
    assertThat(pods("sleepy")).extracting(p -> p.getStatus().getPhase()).containsOnly("Succeeded").hasSize(2);
  }

  /**
   * Once failed now and then, when status was a JSON Patch computed against a stale cached job; core's StatusWriter
   * now replaces the status whole and serves its own last write until the cache catches up.
   */
  @Test
  void finalReplicaCountsMatchThePods() throws Exception {
    SleepJob job = SleepJobs.job("counted", 2, "Never", Map.of(SimulatedKubelet.RUN_SECONDS, "1"));

    demo(SleepJobs.crds(), SleepJobs.examples(job)).run(client);

    SleepJob done = client.resources(SleepJob.class).inNamespace(Demo.NAMESPACE).withName("counted").get();
    assertThat(done.getStatus().getReplicaStatuses().get("Worker").succeeded()).isEqualTo(2);
  }

  @Test
  void aJobWhoseWorkerExitsNonZeroFailsAndTheDemoExitsOne() throws Exception {
    SleepJob job = SleepJobs.job("broken", 1, "Never",
        Map.of(SimulatedKubelet.RUN_SECONDS, "0.5", SimulatedKubelet.EXIT_CODE, "3"));

    int exit = demo(SleepJobs.crds(), SleepJobs.examples(job)).run(client);

    assertThat(exit).isEqualTo(1);
    SleepJob done = client.resources(SleepJob.class).inNamespace(Demo.NAMESPACE).withName("broken").get();
    assertThat(done.getStatus().condition("Failed")).get()
        .extracting(JobCondition::getStatus, JobCondition::getReason)
        .containsExactly("True", "SleepJobFailed");
    assertThat(pods("broken")).extracting(p -> p.getStatus().getContainerStatuses().get(0).getState()
        .getTerminated().getExitCode()).containsExactly(3);
    assertThat(output())
        .contains("FAIL broken: Failed, but the demo expects Succeeded: SleepJob broken is failed",
            "Not as expected: broken");
  }

  @Test
  void withoutRunSecondsTheDemoGivesTheWorkersARunTime() throws Exception {
    SleepJob job = SleepJobs.job("defaulted", 1, "Never", Map.of());

    int exit = demo(SleepJobs.crds(), SleepJobs.examples(job)).run(client);

    assertThat(exit).isZero();
    assertThat(pods("defaulted")).extracting(p -> p.getMetadata().getAnnotations().get(SimulatedKubelet.RUN_SECONDS))
        .containsExactly("6");
  }

  @Test
  void aCrdBesideTheExampleJobsIsInstalledForALoadedFramework() throws Exception {
    SleepJob job = SleepJobs.job("beside", 1, "Never", Map.of(SimulatedKubelet.RUN_SECONDS, "0.5"));
    List<ManifestSource.Manifest> examples = new ArrayList<>(SleepJobs.examples(job).manifests());
    examples.add(new ManifestSource.Manifest("plugins/sleep/crds/sleepjobs.yml",
        new KubernetesSerialization().asYaml(SleepFramework.crd())));

    int exit = demo(ManifestSource.of("no crds", List.of()), ManifestSource.of("examples", examples)).run(client);

    assertThat(exit).isZero();
    assertThat(output()).doesNotContain("skipping CustomResourceDefinition");
  }

  @Test
  void aCrdBesideTheExampleJobsOfAFrameworkNotLoadedIsLeftAlone() throws Exception {
    SleepJob job = SleepJobs.job("alone", 1, "Never", Map.of(SimulatedKubelet.RUN_SECONDS, "0.5"));
    List<ManifestSource.Manifest> examples = new ArrayList<>(SleepJobs.examples(job).manifests());
    examples.add(new ManifestSource.Manifest("plugins/faulty/crds/faultyjobs.yml",
        new KubernetesSerialization().asYaml(TestCrds.of(FaultyJob.class))));
    examples.add(new ManifestSource.Manifest("plugins/faulty/example.yaml", """
        apiVersion: test.stint.dev/v1
        kind: FaultyJob
        metadata:
          name: needs-the-plugin
        """));

    int exit = demo(SleepJobs.crds(), ManifestSource.of("examples", examples)).run(client);

    assertThat(exit).isZero();
    assertThat(client.apiextensions().v1().customResourceDefinitions().withName("faultyjobs.test.stint.dev").get())
        .isNull();
    assertThat(output())
        .contains("skipping FaultyJob needs-the-plugin in plugins/faulty/example.yaml: no loaded framework serves "
            + "test.stint.dev/v1 FaultyJob")
        .doesNotContain("skipping CustomResourceDefinition");
  }

  @Test
  void noCrdsIsAClearFailure() {
    Demo demo = demo(ManifestSource.of("empty crds", List.of()),
        SleepJobs.examples(SleepJobs.job("x", 1, "Never", Map.of())));

    assertThatThrownBy(() -> demo.run(client)).isInstanceOf(CommandFailure.class)
        .hasMessageContaining("no CRDs in empty crds");
  }

  @Test
  void noJobsOfALoadedKindIsAClearFailure() {
    String otherKind = """
        apiVersion: other.example.com/v1
        kind: OtherJob
        metadata:
          name: other
        """;
    Demo demo = demo(SleepJobs.crds(),
        ManifestSource.of("other examples", List.of(new ManifestSource.Manifest("other.yaml", otherKind))));

    assertThatThrownBy(() -> demo.run(client)).isInstanceOf(CommandFailure.class)
        .hasMessageContaining("no jobs in other examples of the kinds the demo runs (SleepJob)");
    assertThat(output()).contains("skipping OtherJob other in other.yaml");
  }

  private Demo demo(ManifestSource crds, ManifestSource examples) {
    return demo(crds, examples, Duration.ofSeconds(60));
  }
}
