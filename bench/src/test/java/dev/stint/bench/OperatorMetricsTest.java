package dev.stint.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class OperatorMetricsTest {
  private static final String REQUESTS = """
      stint_kube_api_request_duration_seconds_count{resource="pods",verb="create"} 4
      stint_kube_api_request_duration_seconds_sum{resource="pods",verb="create"} 0.8
      """;

  @Test
  void readsTheRequestTimesBesideTheReconciles() {
    assertThat(OperatorMetrics.parse(REQUESTS).requests().counts()).containsOnly(Map.entry("create pods", 4.0));
  }

  @Test
  void countsReconcilesOfJosdkOverAttemptsAndOfControllerRuntimeOverResults() {
    String josdk = REQUESTS + """
        operator_sdk_reconciliations_started_total{kind="PyTorchJob",reconciliations_retries_number="0"} 40.0
        operator_sdk_reconciliations_started_total{kind="PyTorchJob",reconciliations_retries_number="1"} 2.0
        operator_sdk_reconciliations_success_total{kind="PyTorchJob"} 41.0
        """;
    String controllerRuntime = """
        controller_runtime_reconcile_total{controller="pytorchjob-controller",result="success"} 30
        controller_runtime_reconcile_total{controller="pytorchjob-controller",result="requeue"} 5
        controller_runtime_reconcile_total{controller="tfjob-controller",result="success"} 0
        """;
    assertThat(OperatorMetrics.parse(josdk).reconciles()).isEqualTo(42.0);
    assertThat(OperatorMetrics.parse(controllerRuntime).reconciles()).isEqualTo(35.0);
    OperatorMetrics later = OperatorMetrics.parse(josdk.replace("} 40.0", "} 100.0"));
    assertThat(later.since(OperatorMetrics.parse(josdk)).reconciles()).isEqualTo(60.0);
    // an operator whose /metrics has no reconcile counter: not counted, not zero
    assertThat(OperatorMetrics.parse(REQUESTS).reconciles()).isNull();
    assertThat(later.since(OperatorMetrics.parse(REQUESTS)).reconciles()).isNull();
  }

  @Test
  void noUrlOrNoAnswerIsNothing() {
    assertThat(OperatorMetrics.scrape("")).isEqualTo(OperatorMetrics.NONE);
    assertThat(OperatorMetrics.scrape("http://127.0.0.1:1/metrics").requests().counts()).isEmpty();
  }
}
