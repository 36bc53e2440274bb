package dev.stint.core.kueue;

import static dev.stint.core.kueue.KueueWorkloads.workload;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.kueue.WorkloadWrite.ApplyCondition;
import dev.stint.core.kueue.WorkloadWrite.Create;
import dev.stint.core.kueue.WorkloadWrite.Release;
import dev.stint.core.kueue.WorkloadWrite.RemoveFinalizer;
import dev.stint.core.kueue.WorkloadWrite.SetActive;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class WorkloadSyncTest {
  static final Instant NOW = Instant.parse("2026-12-01T12:00:00.700Z");
  static final String T = "2026-12-01T12:00:00Z";

  static JobStatus status(String... trueConditions) {
    JobStatus status = new JobStatus();
    List<JobCondition> conditions = new ArrayList<>();
    for (String type : trueConditions) {
      conditions.add(new JobCondition(type, "True", "TestJob" + type, "job " + type.toLowerCase(), T));
    }
    status.setConditions(conditions);
    return status;
  }

  static List<Pod> pods(String... phases) {
    List<Pod> pods = new ArrayList<>();
    for (String phase : phases) {
      PodBuilder pod = new PodBuilder().withNewMetadata().withName("p" + pods.size()).endMetadata();
      if (phase.equals("Terminating")) {
        pod.editMetadata().withDeletionTimestamp(T).endMetadata().withNewStatus().withPhase("Running").endStatus();
      } else {
        pod.withNewStatus().withPhase(phase).endStatus();
      }
      pods.add(pod.build());
    }
    return pods;
  }

  static KueueWorkloads admitted() {
    return workload("w").queue("q").admitted("cq", "worker", Map.of("cpu", "spot"), null);
  }

  static WorkloadCondition condition(String type, String status, String reason, String message) {
    return new WorkloadCondition(type, status, reason, message, T, 1L);
  }

  static Stream<Arguments> decide() {
    return Stream.of(
        Arguments.of("no Workload: create it", null, status("Created"), false, pods(), List.of(new Create())),
        Arguments.of("no Workload, job finished: none", null, status("Succeeded"), false, pods(), List.of()),
        Arguments.of("queued: nothing to write", workload("w").queue("q"), status("Created", "Suspended"), false,
            pods(), List.of()),
        Arguments.of("admitted, not yet running", admitted(), status("Created"), false, pods("Pending"), List.of()),
        Arguments.of("running: PodsReady", admitted(), status("Created", "Running"), false, pods("Running"),
            List.of(new ApplyCondition(condition("PodsReady", "True", "Started",
                "All pods reached readiness and the workload is running"), "stint-pods-ready"))),
        Arguments.of("running, PodsReady already", admitted().condition("PodsReady", "True", "Started"),
            status("Created", "Running"), false, pods("Running"), List.of()),
        Arguments.of("restarting: PodsReady False", admitted().condition("PodsReady", "True", "Started"),
            status("Created", "Restarting"), false, pods("Running"),
            List.of(new ApplyCondition(condition("PodsReady", "False", "WaitForRecovery",
                "At least one pod has failed, waiting for recovery"), "stint-pods-ready"))),
        Arguments.of("running again: Recovered", admitted().condition("PodsReady", "False", "WaitForRecovery"),
            status("Created", "Running"), false, pods("Running"),
            List.of(new ApplyCondition(condition("PodsReady", "True", "Recovered",
                "All pods reached readiness and the workload is running"), "stint-pods-ready"))),
        Arguments.of("succeeded: Finished, then the finalizer", admitted(), status("Created", "Succeeded"), false,
            pods("Succeeded"), List.of(new ApplyCondition(condition("Finished", "True", "Succeeded",
                "job succeeded"), "stint-finished"), new RemoveFinalizer(0))),
        Arguments.of("failed, Finished already: the finalizer", admitted().condition("Finished", "True", "Failed"),
            status("Created", "Failed"), false, pods(), List.of(new RemoveFinalizer(0))),
        Arguments.of("finished and released: none", admitted().condition("Finished", "True", "Succeeded")
            .edit(w -> w.getMetadata().setFinalizers(List.of())), status("Succeeded"), false, pods(), List.of()),
        Arguments.of("evicted, pods still running: wait", admitted().evicted("Preempted"),
            status("Created", "Suspended"), false, pods("Running", "Terminating"), List.of()),
        Arguments.of("evicted, pods gone: release", admitted().evicted("Preempted"), status("Suspended"), false,
            pods("Terminating", "Succeeded"), List.of(Release.class)),
        Arguments.of("evicted and released: none", workload("w").queue("q").evicted("Preempted")
            .condition("QuotaReserved", "False", "Pending"), status("Suspended"), false, pods(), List.of()),
        Arguments.of("the user suspends: deactivate", admitted(), status("Suspended"), true, pods("Terminating"),
            List.of(new SetActive(false))),
        Arguments.of("the user resumes: activate", workload("w").queue("q").active(false)
            .annotation(KueueApi.DEACTIVATED_BY_SUSPEND, "true"), status("Suspended"), false, pods(),
            List.of(new SetActive(true))),
        Arguments.of("Kueue deactivated it: left so", workload("w").queue("q").active(false)
            .evicted("DeactivatedDueToRequeuingLimitExceeded").condition("QuotaReserved", "False", "Pending"),
            status("Suspended"), false, pods(), List.of()),
        Arguments.of("being deleted, pods gone: the finalizer", admitted().deleting(), status("Suspended"), false,
            pods(), List.of(new RemoveFinalizer(0))),
        Arguments.of("being deleted, pods running: wait", admitted().deleting(), status("Suspended"), false,
            pods("Running"), List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void decide(String name, KueueWorkloads workload, JobStatus next, boolean suspended, List<Pod> pods,
              List<Object> expected) {
    List<WorkloadWrite> writes = WorkloadSync.decide(workload == null ? null : workload.view(), next, suspended,
        pods, NOW);
    assertWrites(writes, expected);
  }

  static Stream<Arguments> decideDispatched() {
    return Stream.of(
        Arguments.of("no Workload: create it", null, false, List.of(new Create())),
        Arguments.of("queued or admitted: nothing (no pod runs here)", admitted(), false, List.of()),
        Arguments.of("the worker's Finished copied back: the finalizer", admitted().condition("Finished", "True",
            "Succeeded"), false, List.of(new RemoveFinalizer(0))),
        Arguments.of("finished and released: none", admitted().condition("Finished", "True", "Succeeded")
            .edit(w -> w.getMetadata().setFinalizers(List.of())), false, List.of()),
        Arguments.of("being deleted: the finalizer", admitted().deleting(), false, List.of(new RemoveFinalizer(0))),
        Arguments.of("the user suspends: deactivate", admitted(), true, List.of(new SetActive(false))),
        Arguments.of("the user resumes: activate", workload("w").queue("q").active(false)
            .annotation(KueueApi.DEACTIVATED_BY_SUSPEND, "true"), false, List.of(new SetActive(true))),
        Arguments.of("evicted (no pod here to wait for): release", admitted().evicted("Preempted"), false,
            List.of(Release.class)),
        Arguments.of("evicted and released: none", workload("w").queue("q").evicted("Preempted")
            .condition("QuotaReserved", "False", "Pending"), false, List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void decideDispatched(String name, KueueWorkloads workload, boolean suspended, List<Object> expected) {
    List<WorkloadWrite> writes = WorkloadSync.decideDispatched(workload == null ? null : workload.view(), suspended,
        NOW);
    assertWrites(writes, expected);
  }

  /** Each expected entry is the write itself, or its class when its body is another test's matter. */
  static void assertWrites(List<WorkloadWrite> writes, List<Object> expected) {
    assertThat(writes).hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      if (expected.get(i) instanceof Class<?> type) {
        assertThat(writes.get(i)).isInstanceOf(type);
      } else {
        assertThat(writes.get(i)).isEqualTo(expected.get(i));
      }
    }
  }
}
