package dev.stint.operator.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stint.operator.CommandFailure;
import dev.stint.operator.testkind.SleepJob;
import dev.stint.operator.testkind.SleepJobs;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class JobExpectationTest {

  @Test
  void withoutAnnotationsAJobMustSucceedAndIsNotSuspended() {
    JobExpectation expectation = JobExpectation.of(job(Map.of()));

    assertThat(expectation.suspendFor()).isEmpty();
    assertThat(expectation.judge(ended(job(Map.of()), "Succeeded", null), Optional.empty()))
        .isEqualTo(new JobExpectation.Verdict(true, "  ok   j: Succeeded, as expected"));
  }

  @Test
  void aPartialSuccessIsJudgedWithTheMessageThatNamesTheFailedReplicas() {
    SleepJob job = job(Map.of(JobExpectation.EXPECTED_OUTCOME, "PartiallySucceeded"));
    JobStatus status = new JobStatus();
    status.setOutcome("PartiallySucceeded");
    status.setConditions(List.of(new JobCondition("PartiallySucceeded", "True", "SleepJobPartiallySucceeded",
        "SleepJob j partially succeeded: Worker 1 failed (exit code 1)", "2026-01-01T00:00:00Z")));
    job.setStatus(status);

    assertThat(JobExpectation.of(job).judge(job, Optional.empty())).isEqualTo(new JobExpectation.Verdict(true,
        "  ok   j: PartiallySucceeded, as expected: SleepJob j partially succeeded: Worker 1 failed (exit code 1)"));
  }

  @Test
  void aJobThatDidNotFinishIsNotAsExpected() {
    SleepJob job = job(Map.of());

    assertThat(JobExpectation.of(job).judge(job, Optional.empty()))
        .isEqualTo(new JobExpectation.Verdict(false, "  FAIL j: not finished, but the demo expects Succeeded"));
  }

  @Test
  void aJobToSuspendThatNeverWasIsNotAsExpectedEvenWhenItSucceeded() {
    SleepJob job = job(Map.of(JobExpectation.SUSPEND_SECONDS, "2.5"));
    JobExpectation expectation = JobExpectation.of(job);
    SuspendResumeStep script = new SuspendResumeStep(null, "default", System.out, Duration.ofMillis(2500));

    assertThat(expectation.suspendFor()).contains(Duration.ofMillis(2500));
    assertThat(expectation.judge(ended(job, "Succeeded", null), Optional.of(script)))
        .isEqualTo(new JobExpectation.Verdict(false, "  FAIL j: Succeeded, as expected; suspensions 0 (the demo "
            + "expects 1): the demo waited in vain for it to run, to suspend it"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "stint.dev/demo-expected-outcome | Done     | stint.dev/demo-expected-outcome must be one of Succeeded, "
          + "PartiallySucceeded, Failed, not 'Done'",
      "stint.dev/demo-suspend-seconds  | soon     | stint.dev/demo-suspend-seconds must be a number of seconds from 0 "
          + "to 3600, not 'soon'",
      "stint.dev/demo-suspend-seconds  | -1       | stint.dev/demo-suspend-seconds must be a number of seconds from 0 "
          + "to 3600, not '-1'"})
  void aValueTheDemoCannotUseStopsItNamingTheJobAndTheAnnotation(String annotation, String value, String message) {
    assertThatThrownBy(() -> JobExpectation.of(job(Map.of(annotation, value)))).isInstanceOf(CommandFailure.class)
        .hasMessage("SleepJob j: " + message);
  }

  private static SleepJob job(Map<String, String> annotations) {
    SleepJob job = SleepJobs.job("j", 1, "Never", Map.of());
    job.getMetadata().setAnnotations(annotations);
    return job;
  }

  private static SleepJob ended(SleepJob job, String outcome, Integer suspensions) {
    JobStatus status = new JobStatus();
    status.setOutcome(outcome);
    status.setSuspensions(suspensions);
    status.setConditions(List.of(new JobCondition(outcome, "True", "r", "m", "2026-01-01T00:00:00Z")));
    job.setStatus(status);
    return job;
  }
}
