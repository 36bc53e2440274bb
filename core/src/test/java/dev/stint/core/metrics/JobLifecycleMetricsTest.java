package dev.stint.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobLifecycleMetricsTest {
  final StintMetrics metrics = new StintMetrics();
  Instant now = Instant.parse("2026-11-29T12:00:00Z");
  final Clock clock = new Clock() {
    @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
    @Override public Clock withZone(java.time.ZoneId zone) { return this; }
    @Override public Instant instant() { return now; }
  };
  final JobLifecycleMetrics lifecycle = new JobLifecycleMetrics(metrics, clock);

  static JobStatus status(String... trueConditions) {
    JobStatus s = new JobStatus();
    List<JobCondition> conditions = new ArrayList<>();
    for (String type : trueConditions) {
      conditions.add(new JobCondition(type, "True", "r", "m", "t"));
    }
    s.setConditions(conditions);
    return s;
  }

  @Test
  void suspendAndResumeLatencies() {
    Instant request = now;
    now = now.plusMillis(300);
    lifecycle.record("u", "PyTorchJob", status("Running"), status("Suspended"), 3, request);
    assertThat(metrics.observations(JobLifecycleMetrics.SUSPEND_TO_INACTIVE, "PyTorchJob")).isEqualTo(1);
    assertThat(metrics.observations(JobLifecycleMetrics.SUSPEND_TO_NO_PODS, "PyTorchJob")).isZero();

    now = now.plusSeconds(20);
    lifecycle.record("u", "PyTorchJob", status("Suspended"), status("Suspended"), 0, now);
    assertThat(metrics.observations(JobLifecycleMetrics.SUSPEND_TO_NO_PODS, "PyTorchJob")).isEqualTo(1);
    assertThat(metrics.scrape()).contains("stint_suspend_to_no_pods_seconds_bucket{kind=\"PyTorchJob\",le=\"30.0\"} 1")
        .contains("stint_suspend_to_no_pods_seconds_bucket{kind=\"PyTorchJob\",le=\"10.0\"} 0")
        .contains("# TYPE stint_suspend_to_no_pods_seconds histogram");

    Instant resume = now;
    lifecycle.record("u", "PyTorchJob", status("Suspended"), status(), 0, resume);
    now = now.plusSeconds(4);
    lifecycle.record("u", "PyTorchJob", status(), status("Running"), 3, now);
    assertThat(metrics.observations(JobLifecycleMetrics.RESUME_TO_RUNNING, "PyTorchJob")).isEqualTo(1);
    assertThat(metrics.scrape()).contains("stint_resume_to_running_seconds_sum{kind=\"PyTorchJob\"} 4.0");
  }

  @Test
  void outcomesAreCountedOncePerTransition() {
    lifecycle.record("u", "PyTorchJob", status("Running"), status("PartiallySucceeded", "Succeeded"), 0, now);
    lifecycle.record("u", "PyTorchJob", status("PartiallySucceeded", "Succeeded"),
        status("PartiallySucceeded", "Succeeded"), 0, now);
    assertThat(metrics.counter(JobLifecycleMetrics.PARTIALLY_SUCCEEDED, "PyTorchJob")).isEqualTo(1);
    assertThat(metrics.counter(JobLifecycleMetrics.SUCCEEDED, "PyTorchJob")).isEqualTo(1);
    assertThat(metrics.scrape()).contains("# TYPE jobs_partially_succeeded_total counter")
        .contains("jobs_partially_succeeded_total{kind=\"PyTorchJob\"} 1");
  }
}
