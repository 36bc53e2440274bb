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
  private volatile long operatorPid = -1;

  Probe(KubernetesClient client, Driver driver, Map<String, Long> components, long runStart) {
    this.client = client;
    this.driver = driver;
    this.components = components;
    this.runStart = runStart;
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
    private final Map<String, Double> apiBefore;
    private final ProcStats.Sample operatorBefore;
    private final Map<String, ProcStats.Sample> componentsBefore = new LinkedHashMap<>();

    private Scope(String name, int jobs) {
      result.name = name;
      result.jobs = jobs;
      driver.takeRequestCounts();
      driver.takeErrors();
      apiBefore = ApiMetrics.scrape(client);
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
      result.apiRequests = ApiMetrics.diff(apiBefore, ApiMetrics.scrape(client));
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
