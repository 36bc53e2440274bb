package dev.stint.bench;

import java.util.Map;

/**
 * Requests counted and the seconds they took, by the same keys (the API server's, or an operator's own).
 *
 * @param counts  requests, by key
 * @param seconds their seconds summed, by key
 */
record RequestTotals(Map<String, Double> counts, Map<String, Double> seconds) {
  static final RequestTotals NONE = new RequestTotals(Map.of(), Map.of());

  /** after − before, per key (see {@link ApiMetrics#diff}). */
  RequestTotals since(RequestTotals before) {
    return new RequestTotals(ApiMetrics.diff(before.counts, counts), ApiMetrics.diff(before.seconds, seconds));
  }
}
