package dev.stint.core.kueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** When a Workload outlived its job, and which job a Workload names. */
class WorkloadOrphanTest {

  @ParameterizedTest(name = "finalizer {0}, owner {1}/{2}, job now {3}: orphaned {4}")
  @CsvSource(nullValues = "-", value = {
      "true,  train, u1, -,  true",   // the job is gone
      "true,  train, u1, u2, true",   // deleted and made again under the same name
      "true,  train, u1, u1, false",  // the job is there
      "false, train, u1, -,  false",  // nothing held: Kueue lets it go by itself
      "true,  -,     u1, -,  false",  // no owner name: the job cannot be looked up
  })
  void orphaned(boolean finalizer, String ownerName, String ownerUid, String jobUidNow, boolean expected) {
    assertThat(WorkloadView.orphaned(finalizer, new WorkloadView.Owner(ownerName, ownerUid),
        Optional.ofNullable(jobUidNow))).isEqualTo(expected);
  }

  @Test
  void noOwnerIsNotOrphaned() {
    assertThat(WorkloadView.orphaned(true, null, Optional.empty())).isFalse();
  }

  @Test
  void theOwnerIsTheControllerReferenceElseTheJobUidLabel() {
    var owned = new GenericKubernetesResourceBuilder().withNewMetadata().withName("w")
        .addNewOwnerReference().withName("other").withUid("u0").withController(false).endOwnerReference()
        .addNewOwnerReference().withName("train").withUid("u1").withController(true).endOwnerReference()
        .endMetadata().build();
    assertThat(WorkloadView.ownerOf(owned)).isEqualTo(new WorkloadView.Owner("train", "u1"));
    var labelled = new GenericKubernetesResourceBuilder().withNewMetadata().withName("w")
        .withLabels(Map.of(KueueApi.JOB_UID_LABEL, "u1")).endMetadata().build();
    assertThat(WorkloadView.ownerOf(labelled)).isEqualTo(new WorkloadView.Owner(null, "u1"));
    assertThat(WorkloadView.ownerOf(new GenericKubernetesResourceBuilder().withNewMetadata().withName("w")
        .endMetadata().build())).isNull();
  }
}
