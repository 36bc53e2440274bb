package dev.stint.operator;

import dev.stint.core.StintOperator;
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

  /** Blocks until the JVM shuts down; returns only if starting fails (by throwing). */
  int run() throws InterruptedException {
    Config config = Config.autoConfigure(null);
    try (KubernetesClient probe = new KubernetesClientBuilder().withConfig(preflightConfig(config)).build()) {
      ClusterPreflight.check(probe, registry);
    }
    KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
    StintOperator.Builder builder = StintOperator.builder(client, registry).closeClientOnStop(true);
    if (options.reconcileThreads() != null) {
      builder.reconcileThreads(options.reconcileThreads());
    }
    StintOperator operator = builder.build();
    AtomicBoolean running = new AtomicBoolean();
    HealthServer health = options.healthPort() == 0 ? null : HealthServer.start(options.healthPort(), running::get);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      LOG.info("Stopping");
      running.set(false);
      operator.stop();
      if (health != null) {
        health.close();
      }
      stopped.countDown();
    }, "stint-shutdown"));
    start(operator, client);
    running.set(true);
    LOG.info("Stint is running{}", health == null ? "" : "; GET /healthz on port " + health.port());
    stopped.await();
    return 0;
  }

  private static void start(StintOperator operator, KubernetesClient client) {
    try {
      operator.start();
    } catch (RuntimeException e) {
      throw new CommandFailure("the operator could not start on " + client.getMasterUrl() + ": "
          + ClusterPreflight.rootMessage(e));
    }
  }

  private static Config preflightConfig(Config config) {
    return new ConfigBuilder(config)
        .withRequestRetryBackoffLimit(0)
        .withConnectionTimeout(PREFLIGHT_TIMEOUT_MILLIS)
        .withRequestTimeout(PREFLIGHT_TIMEOUT_MILLIS)
        .build();
  }
}
