package dev.stint.kubeclient;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient
class LeanWritesTest {
  KubernetesClient client;
  KubernetesMockServer server;

  @Test
  void createsByPostingTheObjectToItsCollection() throws InterruptedException {
    server.expect().post().withPath("/api/v1/namespaces/ns/pods").andReturn(201, "{}").once();
    new LeanWrites(client).create("ns", "pods",
        new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").endMetadata().build());

    RecordedRequest request = server.takeRequest(5, TimeUnit.SECONDS);
    assertThat(request.getMethod()).isEqualTo("POST");
    assertThat(request.getBody().readUtf8()).contains("\"kind\":\"Pod\"", "\"name\":\"p\"");
  }

  @Test
  void deletesInTheBackgroundAndOnlyTheVersionObservedWhenGivenOne() throws InterruptedException {
    server.expect().delete().withPath("/api/v1/namespaces/ns/pods/p").andReturn(200, "{}").times(2);
    LeanWrites writes = new LeanWrites(client);
    writes.delete("ns", "pods", "p", null);
    writes.delete("ns", "pods", "p", "42");

    String any = server.takeRequest(5, TimeUnit.SECONDS).getBody().readUtf8();
    String locked = server.takeRequest(5, TimeUnit.SECONDS).getBody().readUtf8();
    assertThat(any).contains("\"propagationPolicy\":\"Background\"").doesNotContain("preconditions");
    assertThat(locked).contains("\"propagationPolicy\":\"Background\"", "\"preconditions\":{\"resourceVersion\":\"42\"}");
  }

  @Test
  void failsWithTheApiServersCodeAndStatus() {
    server.expect().delete().withPath("/api/v1/namespaces/ns/pods/gone").andReturn(404, new StatusBuilder()
        .withCode(404).withReason("NotFound").withMessage("pods \"gone\" not found").build()).once();

    KubernetesClientException e = catchKce(
        () -> new LeanWrites(client).delete("ns", "pods", "gone", null));
    assertThat(e.getCode()).isEqualTo(404);
    assertThat(e.getStatus().getMessage()).isEqualTo("pods \"gone\" not found");
  }

  /** As core's {@code ActionApplierTest.catchKce}, which this module's tests cannot see. */
  private static KubernetesClientException catchKce(Runnable call) {
    try {
      call.run();
    } catch (KubernetesClientException e) {
      return e;
    }
    throw new AssertionError("no exception");
  }
}
