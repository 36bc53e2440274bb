package dev.stint.core.reconciler;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One server-side apply of a job's {@code /status}, reading of the answer only its resource version.
 *
 * <p>fabric8's typed patch costs twice what the write needs: with no object in hand it first GETs the job (one more
 * request per status write), and it parses the answer, the whole job with its pod templates, into objects. The
 * engine needs neither: it knows the job, and of the answer only the new resource version
 * ({@link StatusWriter#freshest}). So the patch goes out through the client's own HTTP client (its authentication,
 * its metrics), and a streaming parser reads {@code metadata.resourceVersion}, which the API server writes before
 * the spec.
 */
final class StatusApply {
  private static final JsonFactory JSON = new JsonFactory();

  private final KubernetesClient client;
  private final String fieldManager;

  StatusApply(KubernetesClient client, String fieldManager) {
    this.client = client;
    this.fieldManager = fieldManager;
  }

  /**
   * Applies {@code body} (JSON) to the status of the named job, forcing conflicts.
   *
   * @return the job's resource version after the write, or null if the answer has none
   * @throws KubernetesClientException with the API server's code and {@code Status} when it refuses
   */
  String apply(Class<? extends HasMetadata> type, String namespace, String name, String body) {
    HttpClient http = client.getHttpClient();
    String group = HasMetadata.getGroup(type);
    String url = client.getConfiguration().getMasterUrl().replaceAll("/+$", "")
        + (group == null || group.isEmpty() ? "/api/" : "/apis/" + group + "/") + HasMetadata.getVersion(type)
        + "/namespaces/" + namespace + "/" + HasMetadata.getPlural(type) + "/" + name + "/status?fieldManager="
        + fieldManager + "&force=true";
    HttpRequest.Builder request = http.newHttpRequestBuilder().uri(url)
        .method("PATCH", "application/apply-patch+yaml", body);
    int timeout = client.getConfiguration().getRequestTimeout();
    if (timeout > 0) {
      request.timeout(timeout, TimeUnit.MILLISECONDS);
    }
    HttpResponse<String> response;
    try {
      response = http.sendAsync(request.build(), String.class).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubernetesClientException("Interrupted while writing the status of " + name, e);
    } catch (ExecutionException e) {
      throw KubernetesClientException.launderThrowable(e.getCause());
    }
    if (!response.isSuccessful()) {
      throw refusal(response);
    }
    return resourceVersion(response.body());
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

  /** The top-level {@code metadata.resourceVersion} of a JSON object, without building the object. */
  static String resourceVersion(String json) {
    try (JsonParser parser = JSON.createParser(json)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        if ("metadata".equals(field) && value == JsonToken.START_OBJECT) {
          return fieldOf(parser, "resourceVersion");
        }
        parser.skipChildren();
      }
      return null;
    } catch (IOException e) {
      return null;
    }
  }

  private static String fieldOf(JsonParser parser, String wanted) throws IOException {
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = parser.currentName();
      parser.nextToken();
      if (wanted.equals(field)) {
        return parser.getValueAsString();
      }
      parser.skipChildren();
    }
    return null;
  }
}
