package dev.stint.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.testing.PrometheusText;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
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

  PrometheusText scrape() {
    return PrometheusText.parse(metrics.scrape());
  }

  @AfterEach
  void close() {
    metrics.close();
  }

  /** A job that has started: it has a startTime. */
  static JobStatus started(String... trueConditions) {
    JobStatus s = status(trueConditions);
    s.setStartTime("2026-01-01T00:00:00Z");
    return s;
  }

  @Test
  void aJobCreatedSuspendedStopsNothingAndIsNotTimed() {
    lifecycle.record("u", "PyTorchJob", status(), status("Suspended"), 0, now);
    lifecycle.record("u", "PyTorchJob", status("Suspended"), status("Suspended"), 0, now);

    assertThat(scrape().value("stint_suspend_to_inactive_seconds_count", "kind", "PyTorchJob")).isZero();
    assertThat(scrape().value("stint_suspend_to_no_pods_seconds_count", "kind", "PyTorchJob")).isZero();
  }

  @Test
  void suspendAndResumeLatencies() {
    Instant request = now;
    now = now.plusMillis(300);
    lifecycle.record("u", "PyTorchJob", started("Running"), status("Suspended"), 3, request);
    assertThat(scrape().value("stint_suspend_to_inactive_seconds_count", "kind", "PyTorchJob")).isEqualTo(1);
    assertThat(scrape().value("stint_suspend_to_inactive_seconds_bucket", "kind", "PyTorchJob", "le", "0.25"))
        .isZero();
    assertThat(scrape().value("stint_suspend_to_inactive_seconds_bucket", "kind", "PyTorchJob", "le", "0.5"))
        .isEqualTo(1);
    assertThat(scrape().value("stint_suspend_to_no_pods_seconds_count", "kind", "PyTorchJob")).isZero();

    now = now.plusSeconds(20);
    lifecycle.record("u", "PyTorchJob", status("Suspended"), status("Suspended"), 0, now);
    PrometheusText afterNoPods = scrape();
    assertThat(afterNoPods.type("stint_suspend_to_no_pods_seconds")).isEqualTo("histogram");
    assertThat(afterNoPods.value("stint_suspend_to_no_pods_seconds_count", "kind", "PyTorchJob")).isEqualTo(1);
    // 20.3 s: above the 10 s bound, within the 30 s one
    assertThat(afterNoPods.value("stint_suspend_to_no_pods_seconds_bucket", "kind", "PyTorchJob", "le", "10.0"))
        .isZero();
    assertThat(afterNoPods.value("stint_suspend_to_no_pods_seconds_bucket", "kind", "PyTorchJob", "le", "30.0"))
        .isEqualTo(1);

    Instant resume = now;
    lifecycle.record("u", "PyTorchJob", status("Suspended"), status(), 0, resume);
    now = now.plusSeconds(4);
    lifecycle.record("u", "PyTorchJob", status(), status("Running"), 3, now);
    assertThat(scrape().value("stint_resume_to_running_seconds_count", "kind", "PyTorchJob")).isEqualTo(1);
    assertThat(scrape().value("stint_resume_to_running_seconds_sum", "kind", "PyTorchJob")).isEqualTo(4.0);
  }

  @Test
  void outcomesAreCountedOncePerTransitionByKind() {
    lifecycle.record("u", "PyTorchJob", status("Running"), status("PartiallySucceeded", "Succeeded"), 0, now);
    lifecycle.record("u", "PyTorchJob", status("PartiallySucceeded", "Succeeded"),
        status("PartiallySucceeded", "Succeeded"), 0, now);
    lifecycle.record("v", "TFJob", status("Running"), status("Failed"), 0, now);
    lifecycle.failedToCreate("MPIJob");
    lifecycle.retried("MPIJob");
    lifecycle.retried("MPIJob");

    PrometheusText scrape = scrape();
    assertThat(scrape.type("stint_jobs_partially_succeeded_total")).isEqualTo("counter");
    assertThat(scrape.value("stint_jobs_partially_succeeded_total", "kind", "PyTorchJob")).isEqualTo(1);
    assertThat(scrape.value("stint_jobs_succeeded_total", "kind", "PyTorchJob")).isEqualTo(1);
    assertThat(scrape.value("stint_jobs_failed_total", "kind", "TFJob")).isEqualTo(1);
    assertThat(scrape.value("stint_jobs_failed_total", "kind", "PyTorchJob")).isZero();
    assertThat(scrape.value("stint_jobs_failed_create_total", "kind", "MPIJob")).isEqualTo(1);
    assertThat(scrape.value("stint_refused_retries_total", "kind", "MPIJob")).isEqualTo(2);
    // the old name without the stint_ prefix is gone
    assertThat(scrape.samples("jobs_partially_succeeded_total")).isEmpty();
  }

  static JobStatus restarted(Integer restarts, Integer counted) {
    JobStatus s = status("Restarting");
    s.setRestarts(restarts);
    s.setRestartsCountTowardsMax(counted);
    return s;
  }

  @Test
  void gangRestartsCountedOrNot() {
    lifecycle.record("u", "TFJob", status("Running"), restarted(1, 1), 4, now);
    lifecycle.record("u", "TFJob", restarted(1, 1), restarted(1, 1), 0, now); // the same restart, seen again
    lifecycle.record("u", "TFJob", restarted(1, 1), restarted(2, 1), 4, now); // a disruption: free
    lifecycle.record("v", "TFJob", status("Running"), restarted(5, null), 4, now); // taken back from pod labels
    assertThat(scrape().value("stint_gang_restarts_total", "kind", "TFJob", "counted", "true")).isEqualTo(1);
    assertThat(scrape().value("stint_gang_restarts_total", "kind", "TFJob", "counted", "false")).isEqualTo(1);
  }
}
