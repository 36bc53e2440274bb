package dev.stint.bench;

import java.util.Map;

/**
 * Requests counted and the seconds they took, by the same keys (the API server's, or an operator's own).
 *
 * @param counts     requests, by key
 * @param seconds    their seconds summed, by key
 * @param reconciles an operator's reconciles started ({@link OperatorReconciles}); null where not counted
 */
record RequestTotals(Map<String, Double> counts, Map<String, Double> seconds, Double reconciles) {
  static final RequestTotals NONE = new RequestTotals(Map.of(), Map.of(), null);

  RequestTotals(Map<String, Double> counts, Map<String, Double> seconds) {
    this(counts, seconds, null);
  }

  /** after − before, per key (see {@link ApiMetrics#diff}); reconciles only when both counted them. */
  RequestTotals since(RequestTotals before) {
    return new RequestTotals(ApiMetrics.diff(before.counts, counts), ApiMetrics.diff(before.seconds, seconds),
        reconciles == null || before.reconciles == null ? null : reconciles - before.reconciles);
  }
}
