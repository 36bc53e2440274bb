package dev.stint.core.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters and histograms in the Prometheus text exposition format, with no library: the operator serves
 * {@link #scrape()} at {@code /metrics}. Names and label values are fixed by the engine, not by users.
 */
public final class StintMetrics {
  /** Histogram bucket bounds in seconds, suited to suspend and resume latencies. */
  private static final double[] BUCKETS = {0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600};

  private final Map<String, String> help = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();
  private final Map<String, Histogram> histograms = new ConcurrentHashMap<>();

  private static final class Histogram {
    final LongAdder[] buckets = new LongAdder[BUCKETS.length];
    final LongAdder count = new LongAdder();
    final DoubleAdder sum = new DoubleAdder();

    Histogram() {
      for (int i = 0; i < buckets.length; i++) {
        buckets[i] = new LongAdder();
      }
    }
  }

  /** Adds one to a counter. */
  public void increment(String name, String helpText, String kind) {
    help.putIfAbsent(name, "counter " + helpText);
    counters.computeIfAbsent(series(name, kind), k -> new LongAdder()).increment();
  }

  /** Records one observation of a duration in seconds. */
  public void observe(String name, String helpText, String kind, double seconds) {
    help.putIfAbsent(name, "histogram " + helpText);
    Histogram h = histograms.computeIfAbsent(series(name, kind), k -> new Histogram());
    for (int i = 0; i < BUCKETS.length; i++) {
      if (seconds <= BUCKETS[i]) {
        h.buckets[i].increment();
      }
    }
    h.count.increment();
    h.sum.add(seconds);
  }

  /** The current value of a counter (0 when never incremented). */
  public long counter(String name, String kind) {
    LongAdder a = counters.get(series(name, kind));
    return a == null ? 0 : a.sum();
  }

  /** How many observations a histogram has. */
  public long observations(String name, String kind) {
    Histogram h = histograms.get(series(name, kind));
    return h == null ? 0 : h.count.sum();
  }

  /** All metrics in the Prometheus text format, sorted. */
  public String scrape() {
    StringBuilder out = new StringBuilder();
    Map<String, List<String>> byName = new TreeMap<>();
    counters.forEach((series, v) -> byName.computeIfAbsent(nameOf(series), n -> new ArrayList<>())
        .add(series + " " + v.sum()));
    histograms.forEach((series, h) -> byName.computeIfAbsent(nameOf(series), n -> new ArrayList<>())
        .addAll(histogramLines(series, h)));
    byName.forEach((name, lines) -> {
      String[] typeAndHelp = help.get(name).split(" ", 2);
      out.append("# HELP ").append(name).append(' ').append(typeAndHelp[1]).append('\n');
      out.append("# TYPE ").append(name).append(' ').append(typeAndHelp[0]).append('\n');
      lines.stream().sorted().forEach(l -> out.append(l).append('\n'));
    });
    return out.toString();
  }

  private static List<String> histogramLines(String series, Histogram h) {
    String name = nameOf(series);
    String labels = series.substring(name.length() + 1, series.length() - 1);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < BUCKETS.length; i++) {
      lines.add(name + "_bucket{" + labels + ",le=\"" + format(BUCKETS[i]) + "\"} " + h.buckets[i].sum());
    }
    lines.add(name + "_bucket{" + labels + ",le=\"+Inf\"} " + h.count.sum());
    lines.add(name + "_count{" + labels + "} " + h.count.sum());
    lines.add(name + "_sum{" + labels + "} " + h.sum.sum());
    return lines;
  }

  private static String format(double v) {
    return v == Math.rint(v) ? String.format(Locale.ROOT, "%.1f", v) : Double.toString(v);
  }

  private static String series(String name, String kind) {
    return name + "{kind=\"" + kind + "\"}";
  }

  private static String nameOf(String series) {
    return series.substring(0, series.indexOf('{'));
  }
}
