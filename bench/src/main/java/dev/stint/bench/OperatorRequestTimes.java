package dev.stint.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The operator's own time per API request, from its /metrics: Stint's {@code stint_kube_api_request_duration_seconds}
 * (by verb and resource) or client-go's {@code rest_client_request_duration_seconds} (by verb). Set beside the API
 * server's time for the same requests, the difference is what the request waited in the client: for a connection, a
 * stream, a thread.
 */
final class OperatorRequestTimes {
  private static final String[] FAMILIES = {"stint_kube_api_request_duration_seconds", "rest_client_request_duration_seconds"};
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private OperatorRequestTimes() {
  }

  /** What {@code url} says now; nothing when there is no URL or no answer (the scenario's other figures still count). */
  static RequestTotals scrape(String url) {
    if (url == null || url.isEmpty()) {
      return RequestTotals.NONE;
    }
    try {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? parse(r.body()) : RequestTotals.NONE;
    } catch (java.io.IOException e) {
      return RequestTotals.NONE;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return RequestTotals.NONE;
    }
  }

  /** Requests and seconds keyed {@code "verb resource"} ({@code "verb"} alone for client-go). */
  static RequestTotals parse(String text) {
    Map<String, Double> counts = new HashMap<>();
    Map<String, Double> seconds = new HashMap<>();
    for (String family : FAMILIES) {
      ApiMetrics.sum(text, family + "_count{", OperatorRequestTimes::key).forEach((k, v) -> counts.merge(k, v, Double::sum));
      ApiMetrics.sum(text, family + "_sum{", OperatorRequestTimes::key).forEach((k, v) -> seconds.merge(k, v, Double::sum));
    }
    return new RequestTotals(counts, seconds, OperatorReconciles.parse(text));
  }

  private static String key(Map<String, String> labels) {
    String resource = labels.getOrDefault("resource", "");
    return labels.getOrDefault("verb", "?") + (resource.isEmpty() ? "" : " " + resource);
  }
}
