package dev.stint.operator;

import dev.stint.core.StintOperator;
import dev.stint.core.metrics.ApiRequestMetrics;
import dev.stint.core.metrics.StintMetrics;
import dev.stint.core.registry.FrameworkRegistry;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code run}: the operator against the cluster of the usual kubeconfig or in-cluster configuration, one controller
 * per framework, until the process is told to stop (SIGTERM, Ctrl-C).
 */
final class ClusterRun {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterRun.class);
  /** Fail fast in the preflight checks: the client's default retries would hide an unreachable server for minutes. */
  private static final int PREFLIGHT_TIMEOUT_MILLIS = 10_000;

  private final FrameworkRegistry registry;
  private final OperatorOptions options;

  ClusterRun(FrameworkRegistry registry, OperatorOptions options) {
    this.registry = registry;
    this.options = options;
  }

  /** Starts, then blocks until the JVM shuts down, stopping the operator on the way out. */
  int run() throws InterruptedException {
    Running running = start();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      LOG.info("Stopping");
      running.close();
      stopped.countDown();
    }, "stint-shutdown"));
    stopped.await();
    return 0;
  }

  /**
   * Checks the cluster, then starts the operator and the health endpoint.
   *
   * @throws CommandFailure when the cluster is unreachable, a CRD is missing or the operator cannot start
   */
  Running start() {
    Config config = ClientConfig.forRun(Config.autoConfigure(null));
    try (KubernetesClient probe = new KubernetesClientBuilder().withConfig(preflightConfig(config)).build()) {
      ClusterPreflight.check(probe, registry);
    }
    StintMetrics metrics = new StintMetrics(); // before the client, which counts its requests in it
    KubernetesClient client = ApiRequestMetrics.install(new KubernetesClientBuilder().withConfig(config), metrics)
        .build();
    StintOperator.Builder builder = StintOperator.builder(client, registry).metrics(metrics).closeClientOnStop(true);
    if (options.reconcileThreads() != null) {
      builder.reconcileThreads(options.reconcileThreads());
    }
    builder.gangScheduler(options.gangScheduler());
    StintOperator operator = builder.build();
    AtomicBoolean started = new AtomicBoolean();
    HealthServer health = options.healthPort() == 0 ? null
        : HealthServer.start(options.healthPort(), started::get, operator.metrics()::scrape);
    Running running = new Running(operator, health, started);
    try {
      operator.start();
    } catch (RuntimeException e) {
      running.close();
      throw new CommandFailure("the operator could not start on " + client.getMasterUrl() + ": "
          + ClusterPreflight.describeCauses(e));
    }
    started.set(true);
    LOG.info("Stint is running on {}{}", client.getMasterUrl(),
        health == null ? "" : "; GET /healthz and /metrics on port " + health.port());
    return running;
  }

  private static Config preflightConfig(Config config) {
    return new ConfigBuilder(config)
        .withRequestRetryBackoffLimit(0)
        .withConnectionTimeout(PREFLIGHT_TIMEOUT_MILLIS)
        .withRequestTimeout(PREFLIGHT_TIMEOUT_MILLIS)
        .build();
  }

  /** The started operator and its health endpoint; {@link #close()} stops both (and closes the client). */
  static final class Running implements AutoCloseable {
    private final StintOperator operator;
    private final HealthServer health;
    private final AtomicBoolean started;

    private Running(StintOperator operator, HealthServer health, AtomicBoolean started) {
      this.operator = operator;
      this.health = health;
      this.started = started;
    }

    /** The port of {@code /healthz}, or -1 when it is off. */
    int healthPort() {
      return health == null ? -1 : health.port();
    }

    @Override
    public void close() {
      started.set(false);
      if (health != null) {
        health.close();
      }
      operator.stop();
    }
  }
}
