package dev.stint.core.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Shapes the meters of JOSDK's {@code MicrometerMetrics} for Prometheus, leaving their names' stem unchanged:
 * <ul>
 *   <li>the per-controller gauges {@code operator.sdk.reconciliations.executions.<controller>} and
 *       {@code ...queue.size.<controller>} become one name each with a {@code controller} tag, so that a query can sum
 *       or compare controllers;</li>
 *   <li>the reconcile timers get explicit buckets instead of client-side percentiles (which cannot be aggregated
 *       across replicas) and some seventy default buckets per series;</li>
 *   <li>the attempt number tag of {@code operator.sdk.reconciliations.started} is capped: Stint retries without a
 *       limit, and each new attempt number would otherwise be a new series for as long as the process lives.</li>
 * </ul>
 */
final class JosdkMeterFilter implements MeterFilter {
  static final String EXECUTIONS = "operator.sdk.reconciliations.executions";
  static final String QUEUE_SIZE = "operator.sdk.reconciliations.queue.size";
  static final String RECONCILE_TIMERS = "operator.sdk.controllers.execution.";
  static final String ATTEMPT_TAG = "reconciliations.retries.number";
  /** Attempt numbers above this one share the series {@code ">10"}. */
  static final int MAX_ATTEMPT_TAG = 10;

  /** Bucket bounds in nanoseconds, the unit timers keep them in. */
  private final double[] bucketsNanos;

  JosdkMeterFilter(double[] bucketsSeconds) {
    this.bucketsNanos = Arrays.stream(bucketsSeconds).map(s -> s * 1e9).toArray();
  }

  @Override
  public Meter.Id map(Meter.Id id) {
    String name = id.getName();
    for (String stem : List.of(EXECUTIONS, QUEUE_SIZE)) {
      if (name.startsWith(stem + ".")) {
        return withTag(id.withName(stem), Tag.of("controller", name.substring(stem.length() + 1)));
      }
    }
    String attempt = id.getTag(ATTEMPT_TAG);
    if (attempt != null && attemptNumber(attempt) > MAX_ATTEMPT_TAG) {
      return withTag(id, Tag.of(ATTEMPT_TAG, ">" + MAX_ATTEMPT_TAG));
    }
    return id;
  }

  @Override
  public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
    if (id.getType() != Meter.Type.TIMER || !id.getName().startsWith(RECONCILE_TIMERS)) {
      return config;
    }
    return DistributionStatisticConfig.builder()
        .percentilesHistogram(false)
        .percentiles()
        .serviceLevelObjectives(bucketsNanos)
        .build()
        .merge(config);
  }

  /** The id with {@code tag} added, or replacing the tag of the same key. */
  private static Meter.Id withTag(Meter.Id id, Tag tag) {
    List<Tag> tags = new ArrayList<>();
    id.getTagsAsIterable().forEach(t -> {
      if (!t.getKey().equals(tag.getKey())) {
        tags.add(t);
      }
    });
    tags.add(tag);
    return id.replaceTags(tags);
  }

  private static int attemptNumber(String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
