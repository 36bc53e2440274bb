package dev.stint.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code apiserver_request_total} from the API server's /metrics, summed by verb and resource (over codes, scopes and
 * components). A long-running request (WATCH) is counted when it ends.
 */
final class ApiMetrics {
  private static final String METRIC = "apiserver_request_total{";
  private static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  private ApiMetrics() {
  }

  static Map<String, Double> scrape(KubernetesClient client) {
    return parse(client.raw("/metrics"));
  }

  /** Request counts keyed {@code "VERB resource[/subresource][ (group)]"}, e.g. {@code "PATCH pytorchjobs/status (kubeflow.org)"}. */
  static Map<String, Double> parse(String text) {
    Map<String, Double> counts = new HashMap<>();
    if (text == null) {
      return counts;
    }
    for (String line : text.split("\n")) {
      if (!line.startsWith(METRIC)) {
        continue;
      }
      int close = line.lastIndexOf('}');
      Map<String, String> labels = new HashMap<>();
      Matcher m = LABEL.matcher(line.substring(METRIC.length(), close));
      while (m.find()) {
        labels.put(m.group(1), m.group(2));
      }
      double value = Double.parseDouble(line.substring(close + 1).trim().split("\\s+")[0]);
      counts.merge(key(labels), value, Double::sum);
    }
    return counts;
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
