package dev.stint.bench;

import java.util.Map;

/**
 * What the benchmark reads from the API server's /metrics.
 *
 * @param requests      requests and their seconds, by verb and resource
 * @param refused       requests answered with a code of 400 or more, by verb, resource and code
 * @param watchersEnded watches the API server ended for falling behind, by resource
 */
record ApiServerMetrics(RequestTotals requests, Map<String, Double> refused, Map<String, Double> watchersEnded) {

  /** after − before, per key. */
  ApiServerMetrics since(ApiServerMetrics before) {
    return new ApiServerMetrics(requests.since(before.requests), ApiMetrics.diff(before.refused, refused),
        ApiMetrics.diff(before.watchersEnded, watchersEnded));
  }
}
