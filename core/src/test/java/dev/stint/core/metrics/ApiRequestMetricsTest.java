package dev.stint.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stint.core.testing.PrometheusText;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ApiRequestMetricsTest {
  final StintMetrics metrics = new StintMetrics();

  @AfterEach
  void close() {
    metrics.close();
  }

  @ParameterizedTest(name = "{0} {1}: {2} {3}")
  @CsvSource(quoteCharacter = '\'', value = {
      "GET,    /api/v1/namespaces/ns/pods/p,                                 get,              pods",
      "GET,    /api/v1/namespaces/ns/pods?labelSelector=a%3Db,               list,             pods",
      "GET,    /api/v1/pods,                                                 list,             pods",
      "GET,    /api/v1/namespaces/ns/pods?watch=true&resourceVersion=5,      watch,            pods",
      "GET,    /apis/kubeflow.org/v1/pytorchjobs?allowWatchBookmarks=true&watch=1, watch,       pytorchjobs",
      "POST,   /api/v1/namespaces/ns/events,                                 create,           events",
      "PUT,    /apis/kubeflow.org/v1/namespaces/ns/pytorchjobs/j/status,     update,           pytorchjobs/status",
      "PATCH,  /apis/kubeflow.org/v1/namespaces/ns/pytorchjobs/j/status,     patch,            pytorchjobs/status",
      "DELETE, /api/v1/namespaces/ns/pods/p,                                 delete,           pods",
      "DELETE, /api/v1/namespaces/ns/pods?labelSelector=a%3Db,               deletecollection, pods",
      "GET,    /api/v1/namespaces/ns,                                        get,              namespaces",
      "GET,    /api/v1/namespaces,                                           list,             namespaces",
      "GET,    /apis/coordination.k8s.io/v1/namespaces/ns/leases/stint,      get,              leases",
      "GET,    /version,                                                     get,              ''",
  })
  void verbAndResourceAsTheApiServerNamesThem(String method, String path, String verb, String resource) {
    URI uri = URI.create("https://10.0.0.1:6443" + path);
    assertThat(ApiRequestMetrics.verb(method, uri)).isEqualTo(verb);
    assertThat(ApiRequestMetrics.resource(uri)).isEqualTo(resource);
  }

  @Nested
  @EnableKubernetesMockClient(crud = true)
  class OnAServer {
    KubernetesClient client;

    @Test
    void countsEachAnswerByVerbResourceAndCode() {
      try (KubernetesClient counted = ApiRequestMetrics.install(
          new KubernetesClientBuilder().withConfig(client.getConfiguration()), metrics).build()) {
        counted.configMaps().inNamespace("ns").resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
            .withNewMetadata().withName("c").endMetadata().build()).create();
        counted.configMaps().inNamespace("ns").withName("c").get();
        counted.configMaps().inNamespace("ns").withName("absent").get(); // 404: null, not an exception
        counted.configMaps().inNamespace("ns").list();
      }
      client.configMaps().inNamespace("ns").list(); // a client without the interceptor: not counted

      PrometheusText scrape = PrometheusText.parse(metrics.scrape());
      assertThat(scrape.value("stint_kube_api_requests_total", "verb", "create", "resource", "configmaps",
          "code", "201")).isEqualTo(1);
      assertThat(scrape.value("stint_kube_api_requests_total", "verb", "get", "resource", "configmaps",
          "code", "200")).isEqualTo(1);
      assertThat(scrape.value("stint_kube_api_requests_total", "verb", "get", "resource", "configmaps",
          "code", "404")).isEqualTo(1);
      assertThat(scrape.value("stint_kube_api_requests_total", "verb", "list", "resource", "configmaps",
          "code", "200")).isEqualTo(1);
      assertThat(scrape.value("stint_kube_api_request_duration_seconds_count", "verb", "get",
          "resource", "configmaps")).isEqualTo(2);
    }
  }

  /**
   * fabric8 tells interceptors of a failed connection only when it is about to retry: with one retry allowed, the
   * first attempt counts and the last one surfaces as the caller's exception only (the default allows ten).
   */
  @Test
  void anAttemptWithoutAnAnswerCountsAsError() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    try (KubernetesClient counted = ApiRequestMetrics.install(new KubernetesClientBuilder().withConfig(
        new ConfigBuilder().withMasterUrl("http://127.0.0.1:" + closedPort).withRequestRetryBackoffLimit(1)
            .withRequestRetryBackoffInterval(10).build()), metrics).build()) {
      assertThatThrownBy(() -> counted.pods().inNamespace("ns").withName("p").get())
          .isInstanceOf(KubernetesClientException.class);
    }

    PrometheusText scrape = PrometheusText.parse(metrics.scrape());
    assertThat(scrape.value("stint_kube_api_requests_total", "verb", "get", "resource", "pods", "code", "error"))
        .isEqualTo(1);
  }
}
