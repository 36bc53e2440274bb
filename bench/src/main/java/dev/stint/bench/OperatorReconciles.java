package dev.stint.bench;

import java.util.Map;

/**
 * Reconciles the operator started, from its /metrics: JOSDK's {@code operator_sdk_reconciliations_started_total}
 * (Stint) or controller-runtime's {@code controller_runtime_reconcile_total} (the Kubeflow training operator), summed
 * over controllers, attempts and results. Per job and scenario, it says how many passes the events of a job's pods
 * and services cost: most events of a child wake a pass of its job.
 */
final class OperatorReconciles {
  private static final String[] FAMILIES = {"operator_sdk_reconciliations_started_total{", "controller_runtime_reconcile_total{"};

  private OperatorReconciles() {
  }

  /** The reconciles counted in a /metrics text; null when it has none of the families (no URL, no answer). */
  static Double parse(String text) {
    Double total = null;
    for (String family : FAMILIES) {
      Map<String, Double> sums = ApiMetrics.sum(text, family, labels -> "all");
      if (sums.containsKey("all")) {
        total = (total == null ? 0 : total) + sums.get("all");
      }
    }
    return total;
  }
}
