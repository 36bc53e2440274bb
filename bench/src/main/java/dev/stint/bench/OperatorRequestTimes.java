package dev.stint.bench;

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

  private OperatorRequestTimes() {
  }

  /** Requests and seconds keyed {@code "verb resource"} ({@code "verb"} alone for client-go). */
  static RequestTotals parse(String text) {
    Map<String, Double> counts = new HashMap<>();
    Map<String, Double> seconds = new HashMap<>();
    for (String family : FAMILIES) {
      ApiMetrics.sum(text, family + "_count{", OperatorRequestTimes::key).forEach((k, v) -> counts.merge(k, v, Double::sum));
      ApiMetrics.sum(text, family + "_sum{", OperatorRequestTimes::key).forEach((k, v) -> seconds.merge(k, v, Double::sum));
    }
    return new RequestTotals(counts, seconds);
  }

  private static String key(Map<String, String> labels) {
    String resource = labels.getOrDefault("resource", "");
    return labels.getOrDefault("verb", "?") + (resource.isEmpty() ? "" : " " + resource);
  }
}
