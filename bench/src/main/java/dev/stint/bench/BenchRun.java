package dev.stint.bench;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One run: the limit on a fresh namespace, then the operator started, warmed up and put through the scenarios. */
final class BenchRun {
  private static final List<String> COMPONENTS =
      List.of("kube-apiserver", "etcd", "kube-controller-manager", "kube-scheduler", "kwok");
  private static final long WARMUP_TIMEOUT_MILLIS = 300_000;
  /** Jobs the preemption scenario suspends one at a time. */
  private static final int PREEMPTED_JOBS = 20;

  private final Options o;
  private final RunResult result = new RunResult();

  BenchRun(Options o) {
    this.o = o;
  }

  RunResult run() throws IOException {
    o.addDependencies();
    result.operator = o.operator;
    result.n = o.n;
    result.workersPerJob = o.workers;
    result.concurrency = o.concurrency;
    result.operatorCommand = o.operatorCommand;
    result.startedAt = OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString();
    environment();
    Config auto = Config.autoConfigure(null);
    // the API server ends a watch whose events it cannot hand over fast enough, under a burst every few seconds;
    // fabric8 then waits a second before it watches again (client-go: at once), and every milestone seen meanwhile was
    // stamped late, so the driver watches again after 100 ms, as the operator's client does
    ConfigBuilder builder = new ConfigBuilder(auto).withRequestTimeout(120_000).withConnectionTimeout(30_000)
        .withWatchReconnectInterval(100);
    if (auto.getOauthToken() == null && auto.getAutoOAuthToken() == null) {
      // fabric8 7.9 re-reads a token-less kubeconfig before every request once the client is a minute old (see
      // kube-client/.../ClientConfigFixes.java); a provider without a token stops that, so the driver spends its
      // CPU on load
      builder.withOauthTokenProvider(() -> null);
    }
    Config config = builder.build();
    long runStart = Time.now();
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
         Driver driver = new Driver(client, o.concurrency)) {
      result.environment.put("kubernetes", client.getKubernetesVersion().getGitVersion());
      Probe probe = new Probe(client, driver, componentPids(), runStart, o.operatorMetrics);
      probe.settleBeforeScenarios(o.settleSeconds * 1000L);
      try (Sampler sampler = new Sampler(probe, runStart)) {
        Scenarios scenarios = new Scenarios(driver, probe, o.workers, o.timeoutMillis())
            .serviceMode("stint-lean".equals(o.operator) ? "PerJob" : null);
        if (o.scenarios.contains("limit")) {
          limit(client, scenarios, sampler, false);
        }
        if (o.scenarios.contains("limitsvc")) {
          limit(client, scenarios, sampler, true);
        }
        Path log = o.out.resolve("runs").resolve(o.operator + "-" + o.n + "-operator.log");
        Files.createDirectories(log.getParent());
        long operatorStart = Time.now();
        try (OperatorProcess operator = OperatorProcess.start(o.operatorCommand, log)) {
          probe.operatorPid(operator.pid());
          result.environment.put("operatorLog", log.toString());
          warmUp(client, driver, operator, operatorStart);
          withOperator(client, driver, probe, scenarios, sampler, operator);
          if (!operator.alive()) {
            String death = operator.death();
            result.notes.add(death);
            System.err.println("bench: " + death);
          }
        }
        result.series = sampler.series();
      }
    }
    return result;
  }

  private void limit(KubernetesClient client, Scenarios scenarios, Sampler sampler, boolean services) {
    String ns = namespace(client, services ? "bench-limitsvc" : "bench-limit");
    try (Tracker t = new Tracker(client, ns)) {
      sampler.track(t);
      result.scenarios.add(scenarios.limit(t, Scenarios.names("limit", o.n), services));
      // clean up outside the measurement: collection deletes with no grace period, then wait for the informer
      client.pods().inNamespace(ns).withLabel("bench.stint.dev/limit").withGracePeriod(0).delete();
      client.services().inNamespace(ns).withLabel("bench.stint.dev/limit").delete();
      long end = Time.now() + 300_000;
      while (Time.now() < end && t.views().stream().anyMatch(v -> {
        synchronized (v) {
          return !v.pods.isEmpty();
        }
      })) {
        Time.sleep(200);
      }
    }
  }

  /**
   * Creates a job as soon as the operator process started and waits for it to run. Records when the operator first
   * wrote its status, from the process start (the start-up an upgrade or restart costs: JVM, informers' first
   * lists, first reconcile), the operator's CPU seconds until then, and when the job ran.
   */
  private void warmUp(KubernetesClient client, Driver driver, OperatorProcess operator, long operatorStart) {
    String ns = namespace(client, "bench-warmup");
    long start = Time.now();
    try (Tracker t = new Tracker(client, ns)) {
      t.abortWhenDead(operator::alive);
      t.watch("reconciled", v -> v.reconciled);
      t.watch("running", v -> v.running);
      driver.createJob(Manifests.pytorchJob(ns, "warmup", o.workers, Map.of()));
      if (t.await("reconciled", List.of("warmup"), WARMUP_TIMEOUT_MILLIS)) {
        double cpu = ProcStats.read(operator.pid()).cpuSeconds();
        long at = t.reached("reconciled").get("warmup");
        result.environment.put("operatorFirstReconcileSeconds", Double.toString(Time.seconds(at - operatorStart)));
        result.environment.put("operatorStartupCpuSeconds", Double.toString(Probe.round(cpu)));
      }
      if (!t.await("running", List.of("warmup"), WARMUP_TIMEOUT_MILLIS)) {
        throw new IllegalStateException("the operator did not bring a warm-up job to Running=True within "
            + WARMUP_TIMEOUT_MILLIS / 1000 + " s; see its log");
      }
    }
    double ready = Time.seconds(Time.now() - start);
    result.environment.put("operatorFirstJobRunningSeconds", Double.toString(ready));
    System.err.printf("bench: operator ready (warm-up job Running after %.1f s)%n", ready);
    client.genericKubernetesResources(Manifests.PYTORCHJOB).inNamespace(ns).withName("warmup").delete();
  }

  private void withOperator(KubernetesClient client, Driver driver, Probe probe, Scenarios scenarios,
                            Sampler sampler, OperatorProcess operator) {
    if (o.scenarios.contains("burst")) {
      String ns = namespace(client, "bench-jobs");
      List<String> jobs = Scenarios.names("job", o.n);
      try (Tracker t = new Tracker(client, ns)) {
        t.abortWhenDead(operator::alive);
        sampler.track(t);
        result.scenarios.add(scenarios.burst(t, jobs));
        if (o.scenarios.contains("preempt") && operator.alive()) {
          result.scenarios.add(scenarios.preempt(t, jobs, PREEMPTED_JOBS));
        }
        if (o.scenarios.contains("suspend") && operator.alive()) {
          result.scenarios.add(scenarios.suspend(t, jobs));
          result.scenarios.add(scenarios.resume(t, jobs));
        }
        if (o.scenarios.contains("complete") && operator.alive()) {
          result.scenarios.add(scenarios.complete(t, jobs));
        }
      }
    }
    if (o.scenarios.contains("churn") && operator.alive()) {
      String ns = namespace(client, "bench-churn");
      int jobs = o.churnJobs == null ? o.n : o.churnJobs;
      try (Tracker t = new Tracker(client, ns)) {
        t.abortWhenDead(operator::alive);
        sampler.track(t);
        Churn churn = new Churn(scenarios);
        result.scenarios.add(churn.run(t, Scenarios.names("churn", jobs), o.churnSeconds * 1000L,
            o.churnRuntimeSeconds * 1000L, o.timeoutMillis()));
      }
    }
  }

  /** Creates the namespace and waits for its default ServiceAccount, so pod admission never waits for it. */
  private static String namespace(KubernetesClient client, String name) {
    if (client.namespaces().withName(name).get() == null) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
          .create();
    }
    long end = Time.now() + 60_000;
    while (client.serviceAccounts().inNamespace(name).withName("default").get() == null && Time.now() < end) {
      Time.sleep(200);
    }
    return name;
  }

  private Map<String, Long> componentPids() {
    Map<String, Long> pids = new LinkedHashMap<>();
    if (o.clusterDir != null) {
      for (String c : COMPONENTS) {
        try {
          pids.put(c, Long.parseLong(Files.readString(o.clusterDir.resolve("pids").resolve(c)).trim()));
        } catch (IOException | NumberFormatException e) {
          result.notes.add("no PID for " + c + " in " + o.clusterDir);
        }
      }
    }
    return pids;
  }

  private void environment() {
    Map<String, String> env = result.environment;
    env.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
    double[] load = ProcStats.loadAverage();
    env.put("loadAverageAtStart", String.format("%.2f %.2f %.2f", load[0], load[1], load[2]));
    env.put("memTotal", memTotal());
    env.put("driverJava", System.getProperty("java.version"));
    if (!o.label.isEmpty()) {
      env.put("label", o.label);
    }
  }

  private static String memTotal() {
    try {
      return Files.readAllLines(Path.of("/proc/meminfo")).get(0).replaceAll("\\s+", " ");
    } catch (IOException e) {
      return "?";
    }
  }
}
