package dev.stint.kubeclient;

import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Writes whose answer the engine does not read, or only the metadata of: the creation and deletion of a job's pods
 * and services, its events, its status. fabric8's typed calls turn every answer into objects (a created pod comes
 * back whole, a deleted one too), and that parsing was about a third of the operator's CPU (docs/benchmarks.md).
 * These calls go out through the client's own HTTP client (its authentication, its retries, its metrics) and ask
 * the API server for the object's metadata only ({@code as=PartialObjectMetadata}, which it then need not encode
 * whole either); they fail as the typed calls do, with a {@link KubernetesClientException} carrying the API server's
 * status code and {@code Status}.
 *
 * <p>A deletion sends what fabric8's {@code delete()} sends: background propagation, and with a resource version the
 * precondition that the object is still that version.
 */
public final class LeanWrites {
  /** The answer as metadata only, else JSON as usual (a server that cannot transform answers whole). */
  static final String ACCEPT = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";

  private final KubernetesClient client;

  public LeanWrites(KubernetesClient client) {
    this.client = client;
  }

  /** Creates a core/v1 object ({@code plural}: pods, services, events) in the namespace. */
  public void create(String namespace, String plural, HasMetadata object) {
    answer(createAsync(namespace, plural, object));
  }

  /** Sends the creation of {@link #create}; the answer comes as {@link #answer} reads it. */
  public CompletableFuture<String> createAsync(String namespace, String plural, HasMetadata object) {
    return sendAsync("POST", collection(namespace, plural), "application/json",
        client.getKubernetesSerialization().asJson(object));
  }

  /**
   * Deletes a core/v1 object by name, only while it has {@code resourceVersion} when that is not null; a missing
   * object, or one of another version, fails with 404, or 409.
   */
  public void delete(String namespace, String plural, String name, String resourceVersion) {
    answer(deleteAsync(namespace, plural, name, resourceVersion));
  }

  /** Sends the deletion of {@link #delete}; the answer comes as {@link #answer} reads it. */
  public CompletableFuture<String> deleteAsync(String namespace, String plural, String name, String resourceVersion) {
    DeleteOptionsBuilder options = new DeleteOptionsBuilder().withApiVersion("v1").withKind("DeleteOptions")
        .withPropagationPolicy("Background");
    if (resourceVersion != null) {
      options.withNewPreconditions().withResourceVersion(resourceVersion).endPreconditions();
    }
    return sendAsync("DELETE", collection(namespace, plural) + "/" + name, "application/json",
        client.getKubernetesSerialization().asJson(options.build()));
  }

  /**
   * Sends a request to {@code path} (from the API root, with its query) and returns the answer's text.
   *
   * @throws KubernetesClientException with the API server's code and {@code Status} when it refuses
   */
  public String send(String method, String path, String contentType, String body) {
    return answer(sendAsync(method, path, contentType, body));
  }

  /**
   * Sends the request of {@link #send} without waiting for the answer: the caller's thread is free while it is in
   * flight. The future fails with a {@link KubernetesClientException} when the API server refuses.
   */
  public CompletableFuture<String> sendAsync(String method, String path, String contentType, String body) {
    HttpClient http = client.getHttpClient();
    String master = client.getConfiguration().getMasterUrl();
    String apiRoot = master.endsWith("/") ? master.substring(0, master.length() - 1) : master;
    HttpRequest.Builder request = http.newHttpRequestBuilder().uri(apiRoot + path).method(method, contentType, body)
        .header("Accept", ACCEPT);
    int timeout = client.getConfiguration().getRequestTimeout();
    if (timeout > 0) {
      request.timeout(timeout, TimeUnit.MILLISECONDS);
    }
    return http.sendAsync(request.build(), String.class).thenApply(response -> {
      if (!response.isSuccessful()) {
        throw refusal(response);
      }
      return response.body();
    });
  }

  /**
   * Waits for the answer of a request sent with {@link #sendAsync} (or its creation and deletion) and returns its
   * text.
   *
   * @throws KubernetesClientException with the API server's code and {@code Status} when it refused, or the failure
   *     that kept the request from an answer
   */
  public static String answer(CompletableFuture<String> sent) {
    try {
      return sent.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubernetesClientException("Interrupted while waiting for the API server's answer", e);
    } catch (ExecutionException e) {
      throw KubernetesClientException.launderThrowable(e.getCause());
    }
  }

  private KubernetesClientException refusal(HttpResponse<String> response) {
    Status status = null;
    try {
      status = client.getKubernetesSerialization().unmarshal(response.body(), Status.class);
    } catch (RuntimeException notAStatus) {
      // an answer from something other than the API server (a proxy): its text says what happened
    }
    if (status == null || status.getCode() == null) {
      status = new StatusBuilder().withCode(response.code()).withMessage(response.body()).build();
    }
    return new KubernetesClientException(status);
  }

  /** {@code value} as JSON, with the client's serialization. */
  public String json(Object value) {
    return client.getKubernetesSerialization().asJson(value);
  }

  private static String collection(String namespace, String plural) {
    return "/api/v1/namespaces/" + namespace + "/" + plural;
  }
}
