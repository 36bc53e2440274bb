package dev.stint.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * What an operator's /metrics says of its own work: its time per API request ({@link OperatorRequestTimes}) and the
 * reconciles it started, JOSDK's {@code operator_sdk_reconciliations_started_total} (Stint) or controller-runtime's
 * {@code controller_runtime_reconcile_total} (the Kubeflow training operator), summed over controllers, attempts and
 * results. Per job and scenario, the reconciles say how many passes the events of a job's children cost.
 *
 * @param requests   requests and their seconds, by verb and resource
 * @param reconciles reconciles started; null when the text has neither counter
 */
record OperatorMetrics(RequestTotals requests, Double reconciles) {
  static final OperatorMetrics NONE = new OperatorMetrics(RequestTotals.NONE, null);
  private static final String[] RECONCILES = {"operator_sdk_reconciliations_started_total{", "controller_runtime_reconcile_total{"};
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /** What {@code url} says now; nothing when there is no URL or no answer (the scenario's other figures still count). */
  static OperatorMetrics scrape(String url) {
    if (url == null || url.isEmpty()) {
      return NONE;
    }
    try {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? parse(r.body()) : NONE;
    } catch (java.io.IOException e) {
      return NONE;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return NONE;
    }
  }

  static OperatorMetrics parse(String text) {
    Double reconciles = null;
    for (String family : RECONCILES) {
      Map<String, Double> sums = ApiMetrics.sum(text, family, labels -> "all");
      if (sums.containsKey("all")) {
        reconciles = (reconciles == null ? 0 : reconciles) + sums.get("all");
      }
    }
    return new OperatorMetrics(OperatorRequestTimes.parse(text), reconciles);
  }

  /** after − before; reconciles only when both counted them. */
  OperatorMetrics since(OperatorMetrics before) {
    return new OperatorMetrics(requests.since(before.requests),
        reconciles == null || before.reconciles == null ? null : reconciles - before.reconciles);
  }
}
