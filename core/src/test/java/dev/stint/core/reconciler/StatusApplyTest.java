package dev.stint.core.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatusApplyTest {
  @Test
  void readsTheTopLevelResourceVersionWhereverMetadataIs() {
    assertThat(StatusApply.resourceVersion("{\"apiVersion\":\"kubeflow.org/v1\",\"kind\":\"PyTorchJob\","
        + "\"metadata\":{\"name\":\"j\",\"labels\":{\"resourceVersion\":\"no\"},\"resourceVersion\":\"42\"},"
        + "\"spec\":{}}")).isEqualTo("42");
    assertThat(StatusApply.resourceVersion("{\"spec\":{\"metadata\":{\"resourceVersion\":\"no\"}},"
        + "\"status\":[1,{\"a\":2}],\"metadata\":{\"resourceVersion\":\"7\"}}")).isEqualTo("7");
  }

  @Test
  void hasNoResourceVersionForAnAnswerWithout() {
    assertThat(StatusApply.resourceVersion("{\"metadata\":{\"name\":\"j\"}}")).isNull();
    assertThat(StatusApply.resourceVersion("[]")).isNull();
    assertThat(StatusApply.resourceVersion("not json")).isNull();
  }
}
