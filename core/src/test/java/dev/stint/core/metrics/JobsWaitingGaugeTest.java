package dev.stint.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.testing.PrometheusText;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code stint_jobs_with_pods_waiting}: jobs whose pods cannot run, by kind and cause, from the statuses written. */
class JobsWaitingGaugeTest {
  final StintMetrics metrics = new StintMetrics();
  final JobLifecycleMetrics lifecycle = new JobLifecycleMetrics(metrics, Clock.systemUTC());

  static JobStatus waiting(String reason) {
    JobStatus s = new JobStatus();
    List<JobCondition> conditions = new ArrayList<>(List.of(new JobCondition("Created", "True", "c", "m", "t")));
    if (reason != null) {
      conditions.add(new JobCondition("PodsWaiting", "True", reason, "Worker 0: ...", "t"));
    }
    s.setConditions(conditions);
    return s;
  }

  double gauge(String kind, String reason) {
    return PrometheusText.parse(metrics.scrape()).value("stint_jobs_with_pods_waiting", "kind", kind, "reason", reason);
  }

  void record(String uid, String kind, String before, String after) {
    lifecycle.record(uid, kind, waiting(before), waiting(after), 1, java.time.Instant.now());
  }

  @Test
  void countsEachJobOnceUnderItsCurrentCauseAndForgetsDeletedJobs() {
    record("a", "PyTorchJob", null, "PyTorchJobUnschedulable");
    record("b", "PyTorchJob", null, "PyTorchJobUnschedulable");
    record("c", "TFJob", null, "TFJobImagePullBackOff");
    record("a", "PyTorchJob", "PyTorchJobUnschedulable", "PyTorchJobUnschedulable"); // a pass that changed nothing
    assertThat(gauge("PyTorchJob", "Unschedulable")).isEqualTo(2);
    assertThat(gauge("TFJob", "ImagePullBackOff")).isEqualTo(1);

    record("a", "PyTorchJob", "PyTorchJobUnschedulable", "PyTorchJobErrImagePull");
    record("b", "PyTorchJob", "PyTorchJobUnschedulable", null); // its pods run
    lifecycle.forget("c");
    assertThat(gauge("PyTorchJob", "Unschedulable")).isZero();
    assertThat(gauge("PyTorchJob", "ErrImagePull")).isEqualTo(1);
    assertThat(gauge("TFJob", "ImagePullBackOff")).isZero();
  }
}
