package dev.stint.operator.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.operator.testkind.SleepFramework;
import dev.stint.operator.testkind.SleepJob;
import dev.stint.operator.testkind.SleepJobs;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.ReplicaStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class ProgressTableTest {

  @Test
  void aRowShowsStateSuspensionsReplicasPodsAndAge() {
    SleepJob job = SleepJobs.job("j", 3, "Never", Map.of());
    job.getMetadata().setCreationTimestamp("2026-01-01T00:00:00Z");
    job.setStatus(status(List.of(condition("Created", "True"), condition("Running", "True"))));
    job.getStatus().setOutcome("Running");
    job.getStatus().setSuspensions(2);
    ReplicaStatus workers = new ReplicaStatus();
    workers.setActive(2);
    workers.setSucceeded(1);
    job.getStatus().setReplicaStatuses(Map.of("Worker", workers));

    ProgressTable.Row row = ProgressTable.row(new SleepFramework(), job,
        List.of(pod("Running"), pod("Running"), pod("Succeeded")), Instant.parse("2026-01-01T00:01:05Z"));

    assertThat(row).isEqualTo(new ProgressTable.Row("j", "SleepJob", "Running", "2",
        "Worker 2/3 running, 1 succeeded", "2 Running, 1 Succeeded", "1m5s"));
  }

  @Test
  void aJobNeverSuspendedShowsZeroSuspensions() {
    assertThat(ProgressTable.suspensions(null)).isEqualTo("0");
    assertThat(ProgressTable.suspensions(status(List.of()))).isEqualTo("0");
  }

  static Stream<Arguments> states() {
    return Stream.of(
        Arguments.of("no status", null, "-"),
        Arguments.of("the outcome wins", outcome("PartiallySucceeded", List.of(condition("Created", "True"),
            condition("PartiallySucceeded", "True"), condition("Succeeded", "True"))), "PartiallySucceeded"),
        Arguments.of("suspended", outcome("Suspended", List.of(condition("Created", "True"),
            condition("Running", "False"), condition("Suspended", "True"))), "Suspended"),
        Arguments.of("resumed, pods not all running yet", outcome("Created", List.of(condition("Created", "True"),
            condition("Running", "False"), new JobCondition("Suspended", "False", "SleepJobResumed", "m",
                "2026-01-01T00:00:00Z"))), "Resumed"),
        Arguments.of("resumed and running again", outcome("Running", List.of(condition("Created", "True"),
            new JobCondition("Suspended", "False", "SleepJobResumed", "m", "2026-01-01T00:00:00Z"),
            condition("Running", "True"))), "Running"),
        Arguments.of("created, never suspended", outcome("Created", List.of(condition("Created", "True"))),
            "Created"),
        Arguments.of("last true wins", status(List.of(condition("Created", "True"), condition("Running", "False"),
            condition("Succeeded", "True"))), "Succeeded"),
        Arguments.of("running turned false", status(List.of(condition("Created", "True"),
            condition("Suspended", "True"), condition("Running", "False"))), "Suspended"),
        Arguments.of("nothing true", status(List.of(condition("Running", "False"))), "Running=False"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("states")
  void stateIsTheOutcomeElseTheLastTrueCondition(String name, JobStatus status, String expected) {
    assertThat(ProgressTable.state(status)).isEqualTo(expected);
  }

  @Test
  void renderAlignsColumns() {
    String table = ProgressTable.render(List.of(
        new ProgressTable.Row("a-long-name", "SleepJob", "Running", "1", "Worker 1/1 running", "1 Running", "3s")));

    assertThat(table).isEqualTo("""
        JOB          KIND      STATE    SUSPENSIONS  REPLICAS            PODS       AGE
        a-long-name  SleepJob  Running  1            Worker 1/1 running  1 Running  3s
        """);
  }

  private static JobStatus status(List<JobCondition> conditions) {
    JobStatus status = new JobStatus();
    status.setConditions(conditions);
    return status;
  }

  private static JobStatus outcome(String outcome, List<JobCondition> conditions) {
    JobStatus status = status(conditions);
    status.setOutcome(outcome);
    return status;
  }

  private static JobCondition condition(String type, String value) {
    return new JobCondition(type, value, "r", "m", "2026-01-01T00:00:00Z");
  }

  private static Pod pod(String phase) {
    return new PodBuilder().withNewMetadata().withName("p").endMetadata().withNewStatus().withPhase(phase)
        .endStatus().build();
  }
}
