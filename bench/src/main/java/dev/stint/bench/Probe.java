package dev.stint.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Measures what a scenario cost: API requests (from /metrics, before and after), CPU seconds of the operator and of
 * each control-plane process, the operator's peak RSS, the load average, the wall time.
 */
final class Probe {
  private final KubernetesClient client;
  private final Driver driver;
  private final Map<String, Long> components;
  private final long runStart;
  private final String operatorMetrics;
  private volatile long operatorPid = -1;
  private long settleMillis;

  Probe(KubernetesClient client, Driver driver, Map<String, Long> components, long runStart, String operatorMetrics) {
    this.client = client;
    this.driver = driver;
    this.components = components;
    this.runStart = runStart;
    this.operatorMetrics = operatorMetrics;
  }

  /** Each scenario first waits up to this long for a quiet machine ({@link #settle}). */
  void settleBeforeScenarios(long millis) {
    this.settleMillis = millis;
  }

  /**
   * Waits until the control plane and the operator use under a quarter of a core together over two seconds in a row,
   * or {@code settleMillis} passed; returns the seconds waited. What a scenario leaves behind (kwok ending deleted
   * pods, the endpoints controller removing the Endpoints of deleted services) otherwise lands in the next one, and
   * an operator that ends its scenario sooner leaves more of it there.
   */
  double settle() {
    long start = Time.now();
    int quiet = 0;
    double before = busyCpuSeconds();
    while (quiet < 2 && Time.now() - start < settleMillis) {
      Time.sleep(1000);
      double now = busyCpuSeconds();
      quiet = now - before < 0.25 ? quiet + 1 : 0;
      before = now;
    }
    return Time.seconds(Time.now() - start);
  }

  private double busyCpuSeconds() {
    double sum = 0;
    for (long pid : components.values()) {
      ProcStats.Sample s = ProcStats.read(pid);
      sum += s == null ? 0 : s.cpuSeconds();
    }
    ProcStats.Sample operator = operatorPid > 0 ? ProcStats.read(operatorPid) : null;
    return sum + (operator == null ? 0 : operator.cpuSeconds());
  }

  void operatorPid(long pid) {
    this.operatorPid = pid;
  }

  long operatorPid() {
    return operatorPid;
  }

  /** A scenario under measurement. */
  final class Scope {
    final ScenarioResult result = new ScenarioResult();
    private final long start;
    private final ApiServerMetrics apiBefore;
    private final OperatorMetrics operatorBeforeMetrics;
    private final ProcStats.Sample operatorBefore;
    private final Map<String, ProcStats.Sample> componentsBefore = new LinkedHashMap<>();

    private Scope(String name, int jobs) {
      result.name = name;
      result.jobs = jobs;
      if (settleMillis > 0) {
        result.notes.add(String.format("started after %.1f s of settling", settle()));
      }
      driver.takeRequestCounts();
      driver.takeErrors();
      apiBefore = ApiMetrics.scrape(client);
      operatorBeforeMetrics = OperatorMetrics.scrape(operatorMetrics);
      components.forEach((c, pid) -> componentsBefore.put(c, ProcStats.read(pid)));
      long pid = operatorPid;
      if (pid > 0) {
        ProcStats.resetPeak(pid);
      }
      operatorBefore = pid > 0 ? ProcStats.read(pid) : null;
      result.loadAverageStart = ProcStats.loadAverage();
      start = Time.now();
      result.startSeconds = Time.seconds(start - runStart);
      System.err.printf("bench: %s (%d jobs), load average %.2f%n", name, jobs, result.loadAverageStart[0]);
    }

    long start() {
      return start;
    }

    ScenarioResult finish() {
      result.wallSeconds = Time.seconds(Time.now() - start);
      result.loadAverageEnd = ProcStats.loadAverage();
      result.driverRequests = driver.takeRequestCounts();
      int errors = driver.takeErrors();
      if (errors > 0) {
        result.notes.add(errors + " driver requests failed");
      }
      ApiServerMetrics api = ApiMetrics.scrape(client).since(apiBefore);
      result.apiRequests = api.requests().counts();
      result.apiSeconds = api.requests().seconds();
      result.apiRefused = api.refused();
      result.watchersEnded = api.watchersEnded();
      OperatorMetrics own = OperatorMetrics.scrape(operatorMetrics).since(operatorBeforeMetrics);
      result.operatorRequestSeconds = own.requests().seconds();
      result.operatorRequests = own.requests().counts();
      result.operatorReconciles = own.reconciles();
      result.apiRequestsTotal = result.apiRequests.values().stream().mapToDouble(Double::doubleValue).sum();
      components.forEach((c, pid) -> {
        ProcStats.Sample before = componentsBefore.get(c);
        ProcStats.Sample after = ProcStats.read(pid);
        if (before != null && after != null) {
          result.componentCpuSeconds.put(c, round(after.cpuSeconds() - before.cpuSeconds()));
        }
      });
      long pid = operatorPid;
      ProcStats.Sample after = pid > 0 ? ProcStats.read(pid) : null;
      if (operatorBefore != null && after != null) {
        result.operatorCpuSeconds = round(after.cpuSeconds() - operatorBefore.cpuSeconds());
        result.operatorPeakRssMiB = round(after.peakRssKib() / 1024.0);
      }
      System.err.printf("bench: %s done in %.1f s, %.0f API requests%n", result.name, result.wallSeconds,
          result.apiRequestsTotal);
      return result;
    }
  }

  Scope begin(String name, int jobs) {
    return new Scope(name, jobs);
  }

  static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }
}
