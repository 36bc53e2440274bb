package dev.stint.bench;

import java.util.Arrays;
import java.util.Collection;

/**
 * Percentiles of one latency over the jobs of a scenario, in seconds. {@code missing} counts the jobs that never
 * reached the milestone before the scenario's timeout; they are left out of the percentiles, so read them together.
 */
public record Latencies(int count, int missing, double p50, double p95, double p99, double max, double mean) {

  static Latencies of(Collection<Double> seconds, int expected) {
    double[] v = sorted(seconds);
    int missing = Math.max(0, expected - v.length);
    if (v.length == 0) {
      return new Latencies(0, missing, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }
    return new Latencies(v.length, missing, percentile(v, 50), percentile(v, 95), percentile(v, 99), v[v.length - 1],
        Arrays.stream(v).average().orElse(Double.NaN));
  }

  static double[] sorted(Collection<Double> seconds) {
    return seconds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
  }

  /** Nearest-rank percentile of sorted values: the smallest value with at least p% of the values at or below it. */
  static double percentile(double[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
  }
}
