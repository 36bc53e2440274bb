package dev.stint.core.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Lists the names and resource versions of one kind's objects, as {@code PartialObjectMetadataList}: the watch check
 * reads nothing else, and a full list of every pod each period would cost the API server and the operator some
 * thirty times as much (a pod's metadata is a small part of it). Served from the API server's watch cache
 * ({@code resourceVersion=0}), as an informer's first list is.
 */
final class MetadataLister {
  private static final String ACCEPT = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,"
      + "application/json";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long TIMEOUT_SECONDS = 30;

  private final HttpClient http;
  private final String root;
  private final String plural;
  private final String labelSelector;

  MetadataLister(KubernetesClient client, String group, String version, String plural, String labelSelector) {
    this.http = client.getHttpClient();
    String master = client.getMasterUrl().toString();
    this.root = (master.endsWith("/") ? master : master + "/")
        + (group == null || group.isEmpty() ? "api/" + version : "apis/" + group + "/" + version);
    this.plural = plural;
    this.labelSelector = labelSelector;
  }

  /** Object key ({@code namespace/name}) to resource version, in {@code namespace}, or in all of them when null. */
  Map<String, String> list(String namespace) {
    HttpRequest request = http.newHttpRequestBuilder().uri(url(namespace)).setHeader("Accept", ACCEPT).build();
    try {
      HttpResponse<String> response = http.sendAsync(request, String.class).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      if (!response.isSuccessful()) {
        throw new KubernetesClientException("listing " + url(namespace) + " answered " + response.code());
      }
      return versions(JSON.readTree(response.body()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubernetesClientException("interrupted while listing " + plural, e);
    } catch (ExecutionException | TimeoutException | IOException e) {
      throw new KubernetesClientException("listing " + plural + " failed: " + e, e);
    }
  }

  String url(String namespace) {
    String query = "?resourceVersion=0" + (labelSelector == null || labelSelector.isBlank() ? ""
        : "&labelSelector=" + URLEncoder.encode(labelSelector, StandardCharsets.UTF_8));
    return root + (namespace == null ? "" : "/namespaces/" + namespace) + "/" + plural + query;
  }

  static Map<String, String> versions(JsonNode list) {
    Map<String, String> versions = new HashMap<>();
    for (JsonNode item : list.path("items")) {
      JsonNode metadata = item.path("metadata");
      versions.put(metadata.path("namespace").asText(null) + "/" + metadata.path("name").asText(),
          metadata.path("resourceVersion").asText());
    }
    return versions;
  }
}
