package dev.stint.operator;

import dev.stint.core.LeaseFence;
import dev.stint.core.StintOperator;
import dev.stint.core.StintOperatorBuilder;
import dev.stint.core.decision.KueueSettings;
import dev.stint.core.metrics.StintMetrics;
import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.kubeclient.ClientConfigFixes;
import io.fabric8.kubernetes.client.Config;
import io.micrometer.core.instrument.Gauge;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code run}: the operator against the cluster of the usual kubeconfig or in-cluster configuration, one controller
 * per framework, until the process is told to stop (SIGTERM, Ctrl-C) or loses its leadership.
 */
final class ClusterRun {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterRun.class);
  /** Fail fast in the preflight checks: the client's default retries would hide an unreachable server for minutes. */
  private static final int PREFLIGHT_TIMEOUT_MILLIS = 10_000;

  private final FrameworkRegistry registry;
  private final OperatorOptions options;
  private final Map<String, String> env;

  /**
   * @param env the process's environment: {@code POD_NAME} and {@code POD_NAMESPACE} name this process in the
   *     leader election
   */
  ClusterRun(FrameworkRegistry registry, OperatorOptions options, Map<String, String> env) {
    this.registry = registry;
    this.options = options;
    this.env = env;
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
   * Checks the cluster, then starts the operator and its endpoints. With leader election on, the operator is started
   * when its informers have synced, leading or not; it reconciles once it leads.
   *
   * @throws CommandFailure when the cluster is unreachable, a CRD is missing or the operator cannot start
   */
  Running start() {
    HttpClientChoice http = httpClient();
    Config config = ClientConfigFixes.forRun(Config.autoConfigure(null));
    try (KubernetesClient probe = new KubernetesClientBuilder().withConfig(preflightConfig(config)).build()) {
      ClusterPreflight.check(probe, registry, options.kueue());
    }
    StintMetrics metrics = new StintMetrics(); // before the client, which counts its requests in it
    Election election = election(config);
    KubernetesClient client = ClientConfig.client(config, options.apiRateLimit(), metrics, http,
        election == null ? null : election.fence());
    // closed by Running, after the Lease is released
    StintOperatorBuilder builder = StintOperator.builder(client, registry).metrics(metrics).closeClientOnStop(false)
        .namespaces(options.namespaces())
        .operatorPod(env.get("POD_NAMESPACE"), env.get("POD_NAME")); // the events of a kind down are about it
    if (options.reconcileThreads() != null) {
      builder.reconcileThreads(options.reconcileThreads());
    }
    builder.gangScheduler(options.gangScheduler());
    builder.kueue(options.kueue());
    Leadership leadership = election == null ? null : election.leadership();
    if (election != null) {
      builder.leaderElection(election.config(), election.fence());
    }
    Running running = serve(builder.build(), client, leadership);
    try {
      running.operator.start();
    } catch (RuntimeException e) {
      running.close();
      throw new CommandFailure("the operator could not start on " + client.getMasterUrl() + ": "
          + ClusterPreflight.describeCauses(e));
    }
    running.started.set(true);
    LOG.info("Stint is running on {}; {}{}{}", client.getMasterUrl(),
        describe(election == null ? null : election.lease(), leadership), describeKueue(options.kueue()),
        running.describeEndpoints());
    return running;
  }

  /** Kueue's part, said only in native mode: that mode changes who runs a queued job's pods. */
  static String describeKueue(KueueSettings kueue) {
    if (!kueue.nativeMode()) {
      return "";
    }
    return "; Kueue: native (Stint makes the Workloads of " + (kueue.manageJobsWithoutQueueName() ? "every job"
        : "jobs labelled kueue.x-k8s.io/queue-name, or put in a namespace's default LocalQueue") + ")";
  }

  /** This process's part in the leader election, and the fence of its client's writes. */
  private record Election(Leadership leadership, LeaderElectionConfiguration config, LeaseFence fence, String lease) { }

  /** The leader election the options ask for, or null when it is off. */
  private Election election(Config config) {
    OperatorOptions.LeaderElection election = options.leaderElection();
    if (!election.enabled()) {
      return null;
    }
    Leadership leadership = new Leadership(LeaseLocation.identity(env), System::exit);
    String namespace = LeaseLocation.namespace(election.namespace(), env, LeaseLocation.SERVICE_ACCOUNT_NAMESPACE,
        config.getNamespace());
    LeaderElectionConfiguration electionConfig = leadership.configuration(namespace, election.leaseName());
    // in the client before anything it sends: a leader's writes stop when it cannot prove it holds the Lease
    LeaseFence fence = new LeaseFence(namespace, election.leaseName(), leadership.identity(),
        electionConfig.getRenewDeadline(), System::nanoTime, Clock.systemUTC());
    leadership.watch(fence::lapsed);
    return new Election(leadership, electionConfig, fence, namespace + "/" + election.leaseName());
  }

  /** The operator, not yet started, with its endpoints listening. */
  private Running serve(StintOperator operator, KubernetesClient client, Leadership leadership) {
    AtomicBoolean started = new AtomicBoolean();
    Readiness readiness = new Readiness(started::get, informers(operator, started), leadership);
    Running running = new Running(operator, client, started, leadership);
    // 1 on the process that reconciles (with leader election off, every process does): sum() > 1 means two writers
    Gauge.builder("stint.leader", () -> leadership == null || leadership.leading() ? 1 : 0)
        .description("1 while this process reconciles (holds the Lease, or runs without leader election), else 0")
        .register(operator.metrics().registry());
    try {
      if (options.healthPort() != 0) {
        running.health = HealthServer.start(options.healthPort(), started::get, readiness::check);
      }
      if (options.metricsPort() != 0) {
        running.metrics = MetricsServer.start(options.metricsPort(), operator.metrics()::scrape);
      }
    } catch (CommandFailure e) {
      running.close();
      throw e;
    }
    return running;
  }

  private String describe(String lease, Leadership leadership) {
    String watched = options.namespaces().isEmpty() ? "watching every namespace"
        : "watching namespaces " + String.join(", ", options.namespaces());
    return watched + (leadership == null ? "; leader election off"
        : "; reconciling while it holds Lease " + lease + " as " + leadership.identity());
  }

  /** The kinds and their informers, for {@link Readiness}; started once every kind had its first start. */
  private static Readiness.Informers informers(StintOperator operator, AtomicBoolean started) {
    return new Readiness.Informers() {
      @Override
      public boolean started() {
        return started.get();
      }

      @Override
      public List<String> unhealthy() {
        return operator.kinds().unhealthyInformers();
      }

      @Override
      public Map<String, String> down() {
        return operator.kinds().down();
      }

      @Override
      public boolean anyServed() {
        return operator.kinds().anyServed();
      }
    };
  }

  /** The HTTP client the environment asks for (the JDK's by default); a wrong name ends the command at once. */
  private HttpClientChoice httpClient() {
    try {
      HttpClientChoice http = HttpClientChoice.from(env);
      if (!http.name().equals("jdk") || !http.tlsProvider().isEmpty()) {
        LOG.info("HTTP client: {}{}", http.name(), http.tlsProvider().isEmpty() ? "" : ", TLS by " + http.tlsProvider());
      }
      return http;
    } catch (IllegalArgumentException e) {
      throw new CommandFailure(CommandFailure.USAGE, e.getMessage());
    }
  }

  private static Config preflightConfig(Config config) {
    return new ConfigBuilder(config)
        .withRequestRetryBackoffLimit(0)
        .withConnectionTimeout(PREFLIGHT_TIMEOUT_MILLIS)
        .withRequestTimeout(PREFLIGHT_TIMEOUT_MILLIS)
        .build();
  }

  /** The operator and its endpoints; {@link #close()} stops all, gives the Lease up and closes the client. */
  static final class Running implements AutoCloseable {
    private final StintOperator operator;
    private final KubernetesClient client;
    private final AtomicBoolean started;
    private final Leadership leadership;
    private HealthServer health;
    private MetricsServer metrics;

    private Running(StintOperator operator, KubernetesClient client, AtomicBoolean started, Leadership leadership) {
      this.operator = operator;
      this.client = client;
      this.started = started;
      this.leadership = leadership;
    }

    /** The port of {@code /healthz} and {@code /readyz}, or -1 when they are off. */
    int healthPort() {
      return health == null ? -1 : health.port();
    }

    /** The port of {@code /metrics}, or -1 when it is off. */
    int metricsPort() {
      return metrics == null ? -1 : metrics.port();
    }

    private String describeEndpoints() {
      return (health == null ? "" : "; GET /healthz and /readyz on port " + health.port())
          + (metrics == null ? "" : "; GET /metrics on port " + metrics.port());
    }

    @Override
    public void close() {
      started.set(false);
      boolean leading = leadership != null && leadership.leading();
      if (leadership != null) {
        leadership.stopping(); // the leadership given up on the way out is not a lost one
      }
      if (health != null) {
        health.close();
      }
      if (metrics != null) {
        metrics.close();
      }
      try {
        operator.stop();
        if (leading) {
          leadership.release(client); // after the controllers stopped: no write of this leader follows
        }
      } finally {
        client.close();
      }
    }
  }
}
