package dev.stint.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code apiserver_request_total} from the API server's /metrics, summed by verb and resource (over codes, scopes and
 * components), and the seconds the API server spent answering them ({@code apiserver_request_duration_seconds_sum}:
 * from the request's arrival to its answer, so queueing in the server counts, and queueing in the client does not).
 * A long-running request (WATCH) is counted when it ends.
 */
final class ApiMetrics {
  static final String REQUESTS = "apiserver_request_total{";
  static final String SECONDS = "apiserver_request_duration_seconds_sum{";
  static final String WATCHERS_ENDED = "apiserver_terminated_watchers_total{";
  private static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  private ApiMetrics() {
  }

  /** The API server's requests and their seconds, its refusals and the watches it ended, from its /metrics. */
  static ApiServerMetrics scrape(KubernetesClient client) {
    String text = client.raw("/metrics");
    return new ApiServerMetrics(new RequestTotals(parse(text, REQUESTS), parse(text, SECONDS)), refused(text),
        watchersEnded(text));
  }

  /** Requests answered with a code of 400 or more, keyed {@code "VERB resource code"}, e.g. {@code "PATCH pods/status 422"}. */
  static Map<String, Double> refused(String text) {
    Map<String, Double> sums = sum(text, REQUESTS, labels -> {
      String code = labels.getOrDefault("code", "");
      return code.matches("[45]\\d\\d") ? key(labels) + " " + code : "";
    });
    sums.remove("");
    return sums;
  }

  /**
   * The watches the API server ended because their client did not take the events fast enough (its watch cache
   * could not hand them over within its time budget), by resource; each such client watches again.
   */
  static Map<String, Double> watchersEnded(String text) {
    return sum(text, WATCHERS_ENDED, labels -> labels.getOrDefault("resource", "?")
        + (labels.getOrDefault("group", "").isEmpty() ? "" : " (" + labels.get("group") + ")"));
  }

  /** Request counts keyed {@code "VERB resource[/subresource][ (group)]"}, e.g. {@code "PATCH pytorchjobs/status (kubeflow.org)"}. */
  static Map<String, Double> parse(String text) {
    return parse(text, REQUESTS);
  }

  /** The values of {@code metric} (its name and the opening brace), summed by the same keys as {@link #parse(String)}. */
  static Map<String, Double> parse(String text, String metric) {
    return sum(text, metric, ApiMetrics::key);
  }

  /**
   * The values of the Prometheus text's lines that start with {@code series} (a name and the opening brace), summed
   * by the key {@code key} makes of each line's labels.
   */
  static Map<String, Double> sum(String text, String series, Function<Map<String, String>, String> key) {
    Map<String, Double> sums = new HashMap<>();
    if (text == null) {
      return sums;
    }
    for (String line : text.split("\n")) {
      if (!line.startsWith(series)) {
        continue;
      }
      int close = line.lastIndexOf('}');
      Map<String, String> labels = new HashMap<>();
      Matcher m = LABEL.matcher(line.substring(series.length(), close));
      while (m.find()) {
        labels.put(m.group(1), m.group(2));
      }
      double value = Double.parseDouble(line.substring(close + 1).trim().split("\\s+")[0]);
      sums.merge(key.apply(labels), value, Double::sum);
    }
    return sums;
  }

  private static String key(Map<String, String> labels) {
    String resource = labels.getOrDefault("resource", "");
    String sub = labels.getOrDefault("subresource", "");
    String group = labels.getOrDefault("group", "");
    return labels.getOrDefault("verb", "?") + " " + (resource.isEmpty() ? "(non-resource)" : resource)
        + (sub.isEmpty() ? "" : "/" + sub) + (group.isEmpty() ? "" : " (" + group + ")");
  }

  /** after − before, without the zero rows, largest first. */
  static Map<String, Double> diff(Map<String, Double> before, Map<String, Double> after) {
    Map<String, Double> d = new TreeMap<>();
    after.forEach((k, v) -> {
      double delta = v - before.getOrDefault(k, 0.0);
      if (delta > 0) {
        d.put(k, delta);
      }
    });
    Map<String, Double> ordered = new LinkedHashMap<>();
    d.entrySet().stream().sorted((a, b) -> Double.compare(b.getValue(), a.getValue()))
        .forEach(e -> ordered.put(e.getKey(), e.getValue()));
    return ordered;
  }
}
