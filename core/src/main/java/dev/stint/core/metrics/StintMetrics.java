package dev.stint.core.metrics;

import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Arrays;

/**
 * The operator's metrics: one Micrometer registry that Stint's own meters, JOSDK's reconcile meters
 * ({@link #josdk()}), the API client's requests ({@link ApiRequestMetrics}) and the JVM's meters are registered in,
 * rendered in the Prometheus text format by {@link #scrape()} for {@code GET /metrics}.
 *
 * <p>Create it before the Kubernetes client when the client's requests are to be counted; {@link #close()} unbinds
 * the garbage-collection listener (the other meters keep their last values).
 */
public final class StintMetrics implements AutoCloseable {
  /** Upper bounds, in seconds, of the reconcile and API request duration buckets: 5 ms to a minute. */
  static final double[] REQUEST_BUCKETS_SECONDS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};
  /** Upper bounds, in seconds, of the suspension and resumption latency buckets: a tenth of a second to ten minutes. */
  static final double[] LATENCY_BUCKETS_SECONDS = {0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600};

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final JvmGcMetrics gc = new JvmGcMetrics();
  private final Metrics josdk;

  /** A registry with the JVM's memory, garbage collection, thread, processor and uptime meters bound. */
  public StintMetrics() {
    // before any meter exists: a filter applies only to meters registered after it
    registry.config().meterFilter(new JosdkMeterFilter(REQUEST_BUCKETS_SECONDS));
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    // per kind, not per job: per-job series would grow the registry and Prometheus with every job ever run
    josdk = MicrometerMetrics.withoutPerResourceMetrics(registry);
  }

  /** Where meters are registered. */
  public MeterRegistry registry() {
    return registry;
  }

  /** JOSDK's reconcile metrics, to give the operator's configuration ({@code withMetrics}). */
  public Metrics josdk() {
    return josdk;
  }

  /**
   * Removes JOSDK's gauges of one controller's queue ({@code operator_sdk_reconciliations_queue_size} and
   * {@code ..._executions}): a kind started again runs on a new JOSDK controller, whose gauges would otherwise be
   * shadowed by the old ones, which Micrometer keeps.
   */
  public void forgetControllerGauges(String controller) {
    registry.getMeters().stream()
        .filter(m -> controller.equals(m.getId().getTag("controller")))
        .filter(m -> m.getId().getName().equals(JosdkMeterFilter.EXECUTIONS)
            || m.getId().getName().equals(JosdkMeterFilter.QUEUE_SIZE))
        .toList().forEach(registry::remove);
  }

  /** Every meter in the Prometheus text exposition format (version 0.0.4). */
  public String scrape() {
    return registry.scrape();
  }

  /** A duration histogram with explicit buckets (and no client-side percentiles, which cannot be aggregated). */
  Timer timer(String name, String description, String kind, double[] bucketsSeconds) {
    return Timer.builder(name).description(description).tag("kind", kind)
        .serviceLevelObjectives(buckets(bucketsSeconds))
        .register(registry);
  }

  @Override
  public void close() {
    gc.close();
  }

  static Duration[] buckets(double[] seconds) {
    return Arrays.stream(seconds).mapToObj(s -> Duration.ofNanos(Math.round(s * 1e9))).toArray(Duration[]::new);
  }
}
