package dev.stint.core.metrics;

import dev.stint.spi.TrainingJob;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * {@code stint_jobs{kind, state}}: how many jobs of each kind are in each {@link JobState}, counted from the kind's
 * informer cache when Prometheus scrapes (a pass over the cached jobs per series, nothing per reconcile), so it is
 * right from the first scrape after a start or a takeover, also for jobs whose status nothing changes. Every state has
 * a series from the start, 0 when no job is in it. A standby reports 0, so {@code sum} over the replicas is the
 * fleet; a kind whose informer is down reports NaN rather than a stale count.
 */
final class JobFleetGauge {
  /** {@code stint_jobs}: a gauge. */
  static final String NAME = "stint.jobs";

  private final MeterRegistry registry;
  private final BooleanSupplier leading;
  private final Map<String, Supplier<? extends Stream<? extends TrainingJob<?>>>> jobsByKind =
      new ConcurrentHashMap<>();

  JobFleetGauge(MeterRegistry registry, BooleanSupplier leading) {
    this.registry = registry;
    this.leading = leading;
  }

  /** Counts the kind's jobs from now on, read from {@code jobs} (its newest cache: a kind restarted gets a new one). */
  void follow(String kind, Supplier<? extends Stream<? extends TrainingJob<?>>> jobs) {
    if (jobsByKind.put(kind, jobs) != null) {
      return; // the series exist and read the map
    }
    for (JobState state : JobState.values()) {
      Gauge.builder(NAME, () -> count(kind, state))
          .description("Jobs by kind and state (created, running, restarting, suspended, queued by Kueue, succeeded, "
              + "failed); counted by the leader from its cache, 0 on a standby")
          .tag("kind", kind).tag("state", state.label()).register(registry);
    }
  }

  private double count(String kind, JobState state) {
    if (!leading.getAsBoolean()) {
      return 0;
    }
    try (Stream<? extends TrainingJob<?>> jobs = jobsByKind.get(kind).get()) {
      return jobs.filter(job -> JobState.of(job.getStatus()) == state).count();
    } catch (RuntimeException e) {
      return Double.NaN; // the kind's informer is stopped or not started: no count is better than a wrong one
    }
  }
}
