package dev.stint.core.kueue;

import static dev.stint.core.kueue.KueueWorkloads.workload;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.model.EngineFramework;
import dev.stint.core.testing.TestFramework;
import dev.stint.core.testing.TestJobs;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PrebuiltWorkloadTest {
  static final TestFramework FRAMEWORK = new TestFramework();
  static final Instant NOW = Instant.parse("2026-12-01T12:00:00.700Z");
  static final TestJob JOB = TestJobs.job("copy").workers(2).build();
  static final WorkloadFor.PodSets TWO_WORKERS = WorkloadFor.podSetsOf(JOB, FRAMEWORK);

  static Stream<Arguments> decide() {
    WorkloadWrite outOfSync = new WorkloadWrite.ApplyCondition(new WorkloadCondition("Finished", "True", "OutOfSync",
        "The prebuilt workload is out of sync with its user job", "2026-12-01T12:00:00Z", 1L), "stint-finished");
    return Stream.of(
        Arguments.of("not adopted yet: adopt it", null, List.of(new WorkloadWrite.Adopt("made-before"))),
        Arguments.of("adopted and in sync: the usual protocol", workload("made-before").podSet("worker", 2),
            List.of()),
        Arguments.of("another count: finished as OutOfSync", workload("made-before").podSet("worker", 3),
            List.of(outOfSync)),
        Arguments.of("another podSet: finished as OutOfSync", workload("made-before").podSet("launcher", 1)
            .podSet("worker", 2), List.of(outOfSync)),
        Arguments.of("out of sync and finished already: none", workload("made-before").podSet("worker", 3)
            .condition("Finished", "True", "OutOfSync"), List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void decide(String name, KueueWorkloads workload, List<WorkloadWrite> expected) {
    assertThat(PrebuiltWorkload.decide("made-before", workload == null ? null : workload.view(), TWO_WORKERS, NOW))
        .isEqualTo(expected);
  }

  @Test
  @SuppressWarnings("unchecked")
  void adoptionMakesTheJobItsControllerKeepsOtherOwnersAndIsLockedByTheVersionRead() {
    OwnerReference other = new OwnerReferenceBuilder().withApiVersion("v1").withKind("ConfigMap").withName("note")
        .withUid("uid-note").build();
    var prebuilt = workload("made-before").edit(w -> {
      w.getMetadata().setFinalizers(List.of());
      w.getMetadata().setOwnerReferences(List.of(other));
    }).build();

    Map<String, Object> meta = (Map<String, Object>) PrebuiltWorkload.adoption(prebuilt, JOB, FRAMEWORK).orElseThrow()
        .get("metadata");

    assertThat(meta).containsEntry("resourceVersion", "7").containsEntry("finalizers", List.of(KueueApi.FINALIZER))
        .containsEntry("labels", Map.of(KueueApi.JOB_UID_LABEL, JOB.getMetadata().getUid(),
            "training.kubeflow.org/operator-name", EngineFramework.of(FRAMEWORK).controllerName()));
    assertThat((List<OwnerReference>) meta.get("ownerReferences")).containsExactly(other,
        WorkloadFor.ownerReference(JOB, FRAMEWORK));
  }

  @Test
  void aWorkloadAnotherObjectControlsIsNotAdopted() {
    var prebuilt = workload("made-before").edit(w -> w.getMetadata().setOwnerReferences(List.of(
        new OwnerReferenceBuilder().withApiVersion("batch/v1").withKind("Job").withName("other").withUid("uid-other")
            .withController(true).build()))).build();

    assertThat(PrebuiltWorkload.adoption(prebuilt, JOB, FRAMEWORK)).isEmpty();
  }
}
