package dev.stint.core.kueue;

import static dev.stint.core.kueue.KueueWorkloads.workload;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** When a queued job's new LocalQueue or WorkloadPriorityClass label reaches its Workload. */
class QueueingChangeTest {
  static KueueWorkloads queued() {
    return workload("w").queue("team-q").edit(w -> ((Map<String, Object>) w.getAdditionalProperties().get("spec"))
        .put("priorityClassRef", Map.of("group", "kueue.x-k8s.io", "kind", "WorkloadPriorityClass", "name", "low")));
  }

  static Stream<Arguments> decide() {
    return Stream.of(
        Arguments.of("nothing changed", queued(), "team-q", "low", Optional.empty()),
        Arguments.of("another queue while pending", queued(), "other-q", "low",
            Optional.of(new WorkloadWrite.SetQueueing("other-q", null))),
        Arguments.of("another queue once admitted: kept", queued().admitted("cq", "worker", Map.of("cpu", "a"), null),
            "other-q", "low", Optional.empty()),
        Arguments.of("another queue with quota reserved: kept", queued()
            .condition("QuotaReserved", "True", "QuotaReserved"), "other-q", "low", Optional.empty()),
        Arguments.of("queue label removed: kept", queued(), null, "low", Optional.empty()),
        Arguments.of("made urgent while pending", queued(), "team-q", "high",
            Optional.of(new WorkloadWrite.SetQueueing(null, "high"))),
        Arguments.of("made urgent while admitted", queued().admitted("cq", "worker", Map.of("cpu", "a"), null),
            "team-q", "high", Optional.of(new WorkloadWrite.SetQueueing(null, "high"))),
        Arguments.of("both while pending", queued(), "other-q", "high",
            Optional.of(new WorkloadWrite.SetQueueing("other-q", "high"))),
        Arguments.of("a class where the pods' PriorityClass was", workload("w").queue("team-q").edit(w ->
                ((Map<String, Object>) w.getAdditionalProperties().get("spec")).put("priorityClassRef",
                    Map.of("group", "scheduling.k8s.io", "kind", "PriorityClass", "name", "high-pods"))),
            "team-q", "high", Optional.of(new WorkloadWrite.SetQueueing(null, "high"))),
        Arguments.of("priority label removed: kept", queued(), "team-q", null, Optional.empty()),
        Arguments.of("finished: left alone", queued().condition("Finished", "True", "Succeeded"), "other-q", "high",
            Optional.empty()),
        Arguments.of("being deleted: left alone", queued().deleting(), "other-q", "high", Optional.empty()),
        Arguments.of("no Workload yet", null, "other-q", "high", Optional.empty()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void decide(String name, KueueWorkloads workload, String queue, String priorityClass,
              Optional<WorkloadWrite> expected) {
    assertThat(QueueingChange.decide(workload == null ? null : workload.view(), queue, priorityClass))
        .isEqualTo(expected);
  }

  static Stream<Arguments> labelsChanged() {
    return Stream.of(
        Arguments.of("none", Map.of(), Map.of(), false),
        Arguments.of("another label", Map.of("team", "a"), Map.of("team", "b"), false),
        Arguments.of("the queue", Map.of(KueueApi.QUEUE_NAME_LABEL, "a"), Map.of(KueueApi.QUEUE_NAME_LABEL, "b"), true),
        Arguments.of("the priority class added", Map.of(), Map.of(KueueApi.PRIORITY_CLASS_LABEL, "high"), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void labelsChanged(String name, Map<String, String> before, Map<String, String> after, boolean expected) {
    assertThat(QueueingChange.labelsChanged(before, after)).isEqualTo(expected);
  }
}
