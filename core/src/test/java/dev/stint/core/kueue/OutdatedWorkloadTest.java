package dev.stint.core.kueue;

import static dev.stint.core.kueue.KueueWorkloads.workload;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** When a queued job's Workload gets the job's new podSets. */
class OutdatedWorkloadTest {
  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();
  static final WorkloadFor.PodSets NOW = new WorkloadFor.PodSets(
      List.of(Map.of("name", "worker", "count", 3)), "new-digest");

  static KueueWorkloads madeFrom(String digest) {
    return workload("w").queue("q").podSet("worker", 1).annotation(KueueApi.PODSETS_DIGEST, digest);
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("queued, made from other podSets", madeFrom("old-digest"), true),
        Arguments.of("queued, up to date", madeFrom("new-digest"), false),
        Arguments.of("made before the digest: taken as up to date", workload("w").queue("q"), false),
        Arguments.of("admitted: Kueue admitted what it saw", madeFrom("old-digest")
            .admitted("cq", "worker", Map.of("cpu", "a"), null), false),
        Arguments.of("quota reserved, not yet admitted", madeFrom("old-digest")
            .condition("QuotaReserved", "True", "QuotaReserved"), false),
        Arguments.of("evicted and released: queued again", madeFrom("old-digest")
            .condition("QuotaReserved", "False", "Pending").evicted("Preempted"), true),
        Arguments.of("finished", madeFrom("old-digest").condition("Finished", "True", "Succeeded"), false),
        Arguments.of("being deleted", madeFrom("old-digest").deleting(), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void decide(String name, KueueWorkloads workload, boolean replaced) {
    Optional<WorkloadWrite> write = OutdatedWorkload.decide(workload.view(), NOW);
    assertThat(write).isEqualTo(replaced ? Optional.of(new WorkloadWrite.ReplacePodSets(NOW)) : Optional.empty());
  }

  @org.junit.jupiter.api.Test
  void thePatchIsLockedByTheResourceVersionAndCarriesTheNewDigest() throws Exception {
    // compared as JSON: the podSet is a Map.of, whose order changes from one JVM to the next
    assertThat(JSON.readTree(WorkloadWriter.replacePodSets("42", NOW))).isEqualTo(JSON.readTree(
        "[{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\",\"value\":\"42\"},"
        + "{\"op\":\"replace\",\"path\":\"/spec/podSets\",\"value\":[{\"name\":\"worker\",\"count\":3}]},"
        + "{\"op\":\"add\",\"path\":\"/metadata/annotations/stint.dev~1podsets-digest\",\"value\":\"new-digest\"}]"));
  }
}
