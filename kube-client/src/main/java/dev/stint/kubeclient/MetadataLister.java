package dev.stint.kubeclient;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.IOException;
import java.io.InputStream;
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
 * ({@code resourceVersion=0}), as an informer's first list is. The answer is read as a stream, keeping three fields of
 * each item and skipping the rest unread into objects (its {@code managedFields} are most of it): at 500 jobs the
 * check, which lists every 15 s while caches trail a burst, was a tenth of the operator's CPU when it built a tree.
 */
public final class MetadataLister {
  private static final String ACCEPT = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,"
      + "application/json";
  private static final JsonFactory JSON = new JsonFactory();
  private static final long TIMEOUT_SECONDS = 30;

  private final HttpClient http;
  private final String root;
  private final String plural;
  private final String labelSelector;

  public MetadataLister(KubernetesClient client, String group, String version, String plural, String labelSelector) {
    this.http = client.getHttpClient();
    String master = client.getMasterUrl().toString();
    this.root = (master.endsWith("/") ? master : master + "/")
        + (group == null || group.isEmpty() ? "api/" + version : "apis/" + group + "/" + version);
    this.plural = plural;
    this.labelSelector = labelSelector;
  }

  /** Object key ({@code namespace/name}) to resource version, in {@code namespace}, or in all of them when null. */
  public Map<String, String> list(String namespace) {
    HttpRequest request = http.newHttpRequestBuilder().uri(url(namespace)).setHeader("Accept", ACCEPT).build();
    try {
      HttpResponse<InputStream> response = http.sendAsync(request, InputStream.class)
          .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      try (InputStream body = response.body()) {
        if (!response.isSuccessful()) {
          throw new KubernetesClientException("listing " + url(namespace) + " answered " + response.code());
        }
        return versions(JSON.createParser(body));
      }
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

  /** Key ({@code namespace/name}) to resource version of the list's {@code items}, read from the parser. */
  static Map<String, String> versions(JsonParser parser) throws IOException {
    Map<String, String> versions = new HashMap<>();
    try (parser) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return versions;
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        boolean items = "items".equals(parser.currentName());
        if (parser.nextToken() == JsonToken.START_ARRAY && items) {
          while (parser.nextToken() == JsonToken.START_OBJECT) {
            readItem(parser, versions);
          }
        } else {
          parser.skipChildren();
        }
      }
    }
    return versions;
  }

  /** One item, from its start: its metadata's namespace, name and resource version; the rest skipped. */
  private static void readItem(JsonParser parser, Map<String, String> versions) throws IOException {
    String namespace = null;
    String name = "";
    String resourceVersion = "";
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      boolean metadata = "metadata".equals(parser.currentName());
      if (parser.nextToken() != JsonToken.START_OBJECT || !metadata) {
        parser.skipChildren();
        continue;
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        String text = value == JsonToken.VALUE_STRING ? parser.getText() : null;
        parser.skipChildren();
        switch (field) {
          case "namespace" -> namespace = text;
          case "name" -> name = text == null ? "" : text;
          case "resourceVersion" -> resourceVersion = text == null ? "" : text;
          default -> { }
        }
      }
    }
    versions.put(namespace + "/" + name, resourceVersion);
  }
}
