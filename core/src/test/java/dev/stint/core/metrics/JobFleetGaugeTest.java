package dev.stint.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.testing.PrometheusText;
import dev.stint.core.testing.TestJobs;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import dev.stint.testdoubles.TestJob;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code stint_jobs{kind, state}}: the jobs of a kind by state, counted from its cache when scraped. */
class JobFleetGaugeTest {
  final StintMetrics metrics = new StintMetrics();
  final AtomicBoolean leading = new AtomicBoolean(true);
  final JobLifecycleMetrics lifecycle = new JobLifecycleMetrics(metrics, Clock.systemUTC(), leading::get);
  final List<TrainingJob<?>> cache = new CopyOnWriteArrayList<>();

  /** A status with these conditions True, each {@code Type} or {@code Type/Reason}. */
  static JobStatus status(String conditions) {
    JobStatus s = new JobStatus();
    List<JobCondition> list = new ArrayList<>();
    for (String c : conditions.isBlank() ? new String[0] : conditions.split(" ")) {
      String[] typeAndReason = c.split("/");
      list.add(new JobCondition(typeAndReason[0], "True", typeAndReason.length > 1 ? typeAndReason[1] : "r", "m",
          "t"));
    }
    s.setConditions(list);
    return s;
  }

  @ParameterizedTest(name = "[{0}] -> {1}")
  @CsvSource(delimiter = '|', value = {
      "'' | CREATED",
      "Created | CREATED",
      "Created Running | RUNNING",
      "Created Restarting | RESTARTING",
      "Created Suspended/PyTorchJobSuspended | SUSPENDED",
      "Created Suspended/PyTorchJobWaitingForAdmission | QUEUED",
      "Created Suspended/PyTorchJobEvicted | QUEUED",
      "Created Running Succeeded | SUCCEEDED",
      "Created Running PartiallySucceeded Succeeded | SUCCEEDED",
      "Created Failed | FAILED",
      "Created Suspended/PyTorchJobSuspended Failed | FAILED"})
  void aJobCountsInOneState(String conditions, JobState state) {
    assertThat(JobState.of(status(conditions))).isEqualTo(state);
  }

  @Test
  void aJobWithoutStatusIsCreated() {
    assertThat(JobState.of(null)).isEqualTo(JobState.CREATED);
  }

  double jobs(String kind, String state) {
    return PrometheusText.parse(metrics.scrape()).value("stint_jobs", "kind", kind, "state", state);
  }

  void add(String name, String conditions) {
    var job = TestJobs.job(name).workers(1).build();
    job.setStatus(status(conditions));
    cache.add(job);
  }

  @Test
  void countsTheCachedJobsOfTheKindAtEachScrapeEveryStateFromTheStart() {
    lifecycle.countJobs("TestJob", () -> cache.stream());
    for (JobState state : JobState.values()) {
      assertThat(jobs("TestJob", state.label())).as(state.label()).isZero();
    }
    add("a", "Created Running");
    add("b", "Created Running");
    add("c", "Created Suspended/TestJobWaitingForAdmission");
    assertThat(jobs("TestJob", "running")).isEqualTo(2);
    assertThat(jobs("TestJob", "queued")).isEqualTo(1);

    cache.remove(0);
    ((TestJob) cache.get(0)).setStatus(status("Created Running Succeeded"));
    assertThat(jobs("TestJob", "running")).isZero();
    assertThat(jobs("TestJob", "succeeded")).isEqualTo(1);
  }

  @Test
  void aStandbyCountsNothingAndADownKindIsNotANumber() {
    add("a", "Created Running");
    lifecycle.countJobs("TestJob", () -> cache.stream());
    leading.set(false);
    assertThat(jobs("TestJob", "running")).isZero();
    leading.set(true);
    assertThat(jobs("TestJob", "running")).isEqualTo(1);

    // the kind restarted: its new cache is read, and one that cannot be listed gives no count
    lifecycle.countJobs("TestJob", () -> Stream.<TrainingJob<?>>empty());
    assertThat(jobs("TestJob", "running")).isZero();
    lifecycle.countJobs("TestJob", () -> {
      throw new IllegalStateException("informer stopped");
    });
    assertThat(jobs("TestJob", "running")).isNaN();
  }
}
