package dev.stint.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.core.StintOperator;
import dev.stint.core.metrics.ApiRequestMetrics;
import dev.stint.core.metrics.StintMetrics;
import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.core.testing.PrometheusText;
import dev.stint.core.testing.TestFramework;
import dev.stint.core.testing.TestJobs;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.Test;

/**
 * What {@code /metrics} shows after the engine ran a job: JOSDK's reconcile meters by kind, and the operator's own
 * API requests by verb, resource and code (its client built with {@link ApiRequestMetrics}, as {@code stint run}
 * builds it; the test's own client is not counted).
 */
@EnableKubernetesMockClient(crud = true)
class MetricsOnMockServerTest extends MockServerEngineTest {

  @Override
  StintOperator newOperator() {
    StintMetrics metrics = new StintMetrics();
    var operatorClient = ApiRequestMetrics.install(
        new KubernetesClientBuilder().withConfig(client.getConfiguration()), metrics).build();
    return onMockServer(operatorClient, FrameworkRegistry.of(new TestFramework())).metrics(metrics)
        .closeClientOnStop(true).build();
  }

  @Test
  void aReconciledJobShowsInJosdksMetersByKindAndInTheClientsRequestsByVerbAndCode() {
    create(TestJobs.job("seen").workers(2).build());
    await().untilAsserted(() -> assertThat(pods("seen")).hasSize(2));
    await().untilAsserted(() -> {
      PrometheusText scrape = scrape();
      assertThat(scrape.value("operator_sdk_reconciliations_started_total", "kind", "TestJob")).isPositive();
      assertThat(scrape.value("operator_sdk_reconciliations_success_total", "kind", "TestJob")).isPositive();
      assertThat(scrape.value("operator_sdk_controllers_execution_reconcile_seconds_count",
          "controller", "testjob-controller", "resource_kind", "TestJob")).isPositive();
    });

    PrometheusText scrape = scrape();
    assertThat(scrape.samples("operator_sdk_reconciliations_queue_size", "controller", "testjob-controller",
        "kind", "TestJob")).hasSize(1);
    assertThat(scrape.samples("operator_sdk_reconciliations_executions", "controller", "testjob-controller",
        "kind", "TestJob")).hasSize(1);
    assertThat(scrape.all()).as("no series per job").noneMatch(s -> s.name().startsWith("operator_sdk_")
        && (s.labels().containsKey("name") || s.labels().containsKey("resource_name")));
    // each pod created once, by the operator's client
    assertThat(scrape.value("stint_kube_api_requests_total", "verb", "create", "resource", "pods", "code", "201"))
        .isEqualTo(2);
    assertThat(scrape.value("stint_kube_api_request_duration_seconds_count", "verb", "create", "resource", "pods"))
        .isEqualTo(2);
    assertThat(scrape.value("stint_kube_api_requests_total", "verb", "list", "resource", "testjobs", "code", "200"))
        .isPositive();
    assertThat(scrape.value("stint_kube_api_requests_total", "verb", "watch", "resource", "testjobs"))
        .isPositive();
  }
}
