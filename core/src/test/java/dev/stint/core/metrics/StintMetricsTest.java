package dev.stint.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.testing.PrometheusText;
import dev.stint.core.testing.PrometheusText.Sample;
import dev.stint.testdoubles.TestJob;
import dev.stint.core.testing.TestJobs;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class StintMetricsTest {
  final StintMetrics metrics = new StintMetrics();

  @AfterEach
  void close() {
    metrics.close();
  }

  @Test
  void histogramBucketsAreInNumericOrderEndingWithInf() {
    JobLifecycleMetrics lifecycle = new JobLifecycleMetrics(metrics, Clock.systemUTC());
    Instant start = Instant.now().minusSeconds(3);
    lifecycle.record("u", "PyTorchJob", JobLifecycleMetricsTest.started("Running"),
        JobLifecycleMetricsTest.status("Suspended"), 2, start);
    metrics.timer("stint.test.latency", "a test", "TFJob", StintMetrics.LATENCY_BUCKETS_SECONDS)
        .record(Duration.ofMillis(700));

    PrometheusText scrape = PrometheusText.parse(metrics.scrape());
    List<String> les = scrape.samples("stint_suspend_to_inactive_seconds_bucket", "kind", "PyTorchJob").stream()
        .map(s -> s.labels().get("le")).toList();
    assertThat(les).containsExactly("0.1", "0.25", "0.5", "1.0", "2.5", "5.0", "10.0", "30.0", "60.0", "120.0",
        "300.0", "600.0", "+Inf");
    Map<String, List<Sample>> histograms = bucketsBySeries(scrape);
    assertThat(histograms).hasSizeGreaterThanOrEqualTo(2);
    histograms.forEach((series, buckets) -> {
      double[] bounds = buckets.stream().mapToDouble(b -> bound(b.labels().get("le"))).toArray();
      assertThat(bounds).as(series).isSorted().doesNotHaveDuplicates();
      assertThat(bounds[bounds.length - 1]).as(series).isEqualTo(Double.POSITIVE_INFINITY);
      double[] counts = buckets.stream().mapToDouble(Sample::value).toArray();
      assertThat(counts).as(series + ": cumulative").isSorted();
    });
  }

  @Test
  void theJvmsMemoryGcThreadsProcessorsAndUptimeAreThere() {
    PrometheusText scrape = PrometheusText.parse(metrics.scrape());
    assertThat(scrape.value("jvm_memory_used_bytes", "area", "heap")).isPositive();
    assertThat(scrape.value("jvm_memory_max_bytes", "area", "heap")).isPositive();
    assertThat(scrape.type("jvm_gc_memory_allocated_bytes_total")).isEqualTo("counter");
    assertThat(scrape.value("jvm_threads_live_threads")).isPositive();
    assertThat(scrape.value("system_cpu_count")).isPositive();
    assertThat(scrape.samples("process_uptime_seconds")).hasSize(1);
  }

  @Test
  void josdksFailedReconcilesAreCountedByKindAndExceptionWithoutTheJobsName() {
    TestJob job = TestJobs.job("broken").build();
    metrics.josdk().failedReconciliation(job, new IllegalStateException("boom"),
        Map.of(Constants.RESOURCE_GVK_KEY, GroupVersionKind.gvkFor(TestJob.class)));

    PrometheusText scrape = PrometheusText.parse(metrics.scrape());
    List<Sample> failed = scrape.samples("operator_sdk_reconciliations_failed_total", "kind", "TestJob");
    assertThat(failed).hasSize(1);
    assertThat(failed.get(0).value()).isEqualTo(1);
    assertThat(failed.get(0).labels()).containsEntry("exception", "IllegalStateException")
        .containsEntry("group", "test.stint.dev").doesNotContainKeys("name", "namespace");
  }

  @Test
  void josdksPerControllerGaugesShareOneNameAndAttemptNumbersAreCapped() {
    AtomicInteger queued = metrics.registry().gauge(JosdkMeterFilter.QUEUE_SIZE + ".testjob-controller",
        List.of(io.micrometer.core.instrument.Tag.of("kind", "TestJob")), new AtomicInteger(3));
    metrics.registry().counter("operator.sdk.reconciliations.started", "kind", "TestJob",
        JosdkMeterFilter.ATTEMPT_TAG, "12").increment();
    metrics.registry().counter("operator.sdk.reconciliations.started", "kind", "TestJob",
        JosdkMeterFilter.ATTEMPT_TAG, "37").increment();
    metrics.registry().counter("operator.sdk.reconciliations.started", "kind", "TestJob",
        JosdkMeterFilter.ATTEMPT_TAG, "2").increment();

    PrometheusText scrape = PrometheusText.parse(metrics.scrape());
    assertThat(queued).hasValue(3);
    assertThat(scrape.value("operator_sdk_reconciliations_queue_size", "controller", "testjob-controller",
        "kind", "TestJob")).isEqualTo(3);
    assertThat(scrape.value("operator_sdk_reconciliations_started_total", "reconciliations_retries_number", ">10"))
        .isEqualTo(2);
    assertThat(scrape.value("operator_sdk_reconciliations_started_total", "reconciliations_retries_number", "2"))
        .isEqualTo(1);
  }

  @Test
  void josdksReconcileTimersGetExplicitBucketsAndNoClientSidePercentiles() {
    Timer.builder("operator.sdk.controllers.execution.reconcile").tag("controller", "testjob-controller")
        .publishPercentiles(0.3, 0.5, 0.95).publishPercentileHistogram().register(metrics.registry())
        .record(Duration.ofMillis(30));

    PrometheusText scrape = PrometheusText.parse(metrics.scrape());
    List<Sample> buckets = scrape.samples("operator_sdk_controllers_execution_reconcile_seconds_bucket");
    assertThat(buckets).hasSize(StintMetrics.REQUEST_BUCKETS_SECONDS.length + 1);
    assertThat(scrape.value("operator_sdk_controllers_execution_reconcile_seconds_bucket", "le", "0.025")).isZero();
    assertThat(scrape.value("operator_sdk_controllers_execution_reconcile_seconds_bucket", "le", "0.05"))
        .isEqualTo(1);
    assertThat(scrape.all()).noneMatch(s -> s.labels().containsKey("quantile"));
  }

  /** The {@code _bucket} samples of each histogram series (name and labels but {@code le}), in scrape order. */
  private static Map<String, List<Sample>> bucketsBySeries(PrometheusText scrape) {
    Map<String, List<Sample>> series = new LinkedHashMap<>();
    for (Sample s : scrape.all()) {
      if (s.name().endsWith("_bucket")) {
        Map<String, String> labels = new LinkedHashMap<>(s.labels());
        labels.remove("le");
        series.computeIfAbsent(s.name() + labels, k -> new ArrayList<>()).add(s);
      }
    }
    return series;
  }

  private static double bound(String le) {
    return le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
  }
}
