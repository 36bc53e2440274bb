package dev.stint.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The operator's own time per API request, from its /metrics: Stint's {@code stint_kube_api_request_duration_seconds}
 * (by verb and resource) or client-go's {@code rest_client_request_duration_seconds} (by verb). Set beside the API
 * server's time for the same requests, the difference is what the request waited in the client: for a connection, a
 * stream, a thread.
 */
final class OperatorRequestTimes {
  private static final String[] FAMILIES = {"stint_kube_api_request_duration_seconds", "rest_client_request_duration_seconds"};
  private static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /** Seconds summed and requests counted, keyed {@code "verb resource"} ({@code "verb"} alone for client-go). */
  record Totals(Map<String, Double> seconds, Map<String, Double> counts) {
    static final Totals NONE = new Totals(Map.of(), Map.of());

    /** after − before, per key. */
    Totals since(Totals before) {
      return new Totals(ApiMetrics.diff(before.seconds, seconds), ApiMetrics.diff(before.counts, counts));
    }
  }

  private OperatorRequestTimes() {
  }

  /** What {@code url} says now; nothing when there is no URL or no answer (the scenario's other figures still count). */
  static Totals scrape(String url) {
    if (url == null || url.isEmpty()) {
      return Totals.NONE;
    }
    try {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? parse(r.body()) : Totals.NONE;
    } catch (java.io.IOException e) {
      return Totals.NONE;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Totals.NONE;
    }
  }

  static Totals parse(String text) {
    Map<String, Double> seconds = new HashMap<>();
    Map<String, Double> counts = new HashMap<>();
    for (String line : text.split("\n")) {
      for (String family : FAMILIES) {
        if (line.startsWith(family + "_sum{")) {
          add(seconds, line, family.length() + 5);
        } else if (line.startsWith(family + "_count{")) {
          add(counts, line, family.length() + 7);
        }
      }
    }
    return new Totals(seconds, counts);
  }

  private static void add(Map<String, Double> into, String line, int labelsStart) {
    int close = line.lastIndexOf('}');
    Map<String, String> labels = new HashMap<>();
    Matcher m = LABEL.matcher(line.substring(labelsStart, close));
    while (m.find()) {
      labels.put(m.group(1), m.group(2));
    }
    String resource = labels.getOrDefault("resource", "");
    String key = labels.getOrDefault("verb", "?") + (resource.isEmpty() ? "" : " " + resource);
    into.merge(key, Double.parseDouble(line.substring(close + 1).trim().split("\\s+")[0]), Double::sum);
  }
}
