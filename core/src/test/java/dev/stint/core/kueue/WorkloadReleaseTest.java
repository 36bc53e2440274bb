package dev.stint.core.kueue;

import static dev.stint.core.kueue.KueueWorkloads.workload;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WorkloadReleaseTest {
  static final String T = "2026-12-01T12:00:00Z";
  static final String OLD = "2026-12-01T10:00:00Z";

  /**
   * The whole body, as sent: the lock, admission null, and every condition (Kueue's kept, the four set), so that a
   * merge patch, which replaces the list, drops none.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "Preempted, True",
      "NodeFailures, True",
      "PodsReadyTimeout, False",
      "Deactivated, False",
      "DeactivatedDueToRequeuingLimitExceeded, False",
  })
  void releasesWithTheFullConditionsList(String reason, String requeued) {
    WorkloadView workload = workload("w").queue("q").admitted("cq", "worker", Map.of("cpu", "spot"), null)
        .condition("PodsReady", "True", "Started").evicted(reason).view();

    String body = WorkloadWriter.json(WorkloadRelease.body(workload, workload.condition("Evicted").orElseThrow(), T));

    assertThat(body).isEqualTo("{\"metadata\":{\"resourceVersion\":\"7\"},\"status\":{\"admission\":null,"
        + "\"conditions\":["
        + condition("QuotaReserved", "False", "Pending", "The workload has no reservation", T) + ","
        + condition("Admitted", "False", "NoReservation", "The workload has no reservation", T) + ","
        + condition("PodsReady", "False", "WaitForStart", "Not all pods are ready or succeeded", T) + ","
        + condition("Evicted", "True", reason, "Evicted " + reason, OLD) + ","
        + condition("Requeued", requeued, reason, "Evicted " + reason, T) + "]}}");
  }

  @Test
  void keepsTheTransitionTimeOfAConditionWhoseStatusStays() {
    WorkloadView workload = workload("w").queue("q").admitted("cq", "worker", Map.of("cpu", "spot"), null)
        .condition("Requeued", "True", "BackoffFinished").evicted("Preempted").view();

    String body = WorkloadWriter.json(WorkloadRelease.body(workload, workload.condition("Evicted").orElseThrow(), T));

    assertThat(body).contains(condition("Requeued", "True", "Preempted", "Evicted Preempted", OLD));
  }

  @Test
  void removesTheFinalizerOnlyWhereItIs() {
    assertThat(WorkloadWriter.removeFinalizer(1)).isEqualTo("[{\"op\":\"test\",\"path\":\"/metadata/finalizers/1\","
        + "\"value\":\"kueue.x-k8s.io/resource-in-use\"},{\"op\":\"remove\",\"path\":\"/metadata/finalizers/1\"}]");
  }

  private static String condition(String type, String status, String reason, String message, String time) {
    return "{\"type\":\"" + type + "\",\"status\":\"" + status + "\",\"reason\":\"" + reason + "\",\"message\":\""
        + message + "\",\"lastTransitionTime\":\"" + time + "\",\"observedGeneration\":1}";
  }
}
