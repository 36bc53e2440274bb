package dev.stint.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/** report.md: headline figures, targets, an operator-vs-operator comparison, then each run in detail. */
final class ReportMarkdown {
  private final List<RunResult> runs;
  private final String command;
  private final List<String> plots;
  private final StringBuilder md = new StringBuilder();

  ReportMarkdown(List<RunResult> runs, String command, List<String> plots) {
    this.runs = runs;
    this.command = command;
    this.plots = plots;
  }

  /** A figure of a run worth comparing: its label and how to read it from a run. */
  private record Metric(String label, Function<RunResult, Double> read) { }

  private static final List<Metric> METRICS = List.of(
      new Metric("limit: pods created/s", r -> Targets.fig(r.scenario("limit"), "podsCreatedPerSecond")),
      new Metric("burst: pods created/s", r -> Targets.fig(r.scenario("burst"), "podsCreatedPerSecond")),
      new Metric("burst/limit pod rate", Targets::podRateRatio),
      new Metric("limit with services: pods created/s",
          r -> Targets.fig(r.scenario("limitsvc"), "podsCreatedPerSecond")),
      new Metric("burst/limit-with-services pod rate", r -> Targets.podRateRatio(r, "limitsvc")),
      new Metric("burst: all pods created p99 (s)", r -> p99(r, "burst", "allPodsCreated")),
      new Metric("burst: Running p50 (s)", r -> p50(r, "burst", "running")),
      new Metric("burst: Running p99 (s)", r -> p99(r, "burst", "running")),
      new Metric("preempt one job: active 0 p50 (s)", r -> p50(r, "preempt", "active0")),
      new Metric("preempt one job: active 0 p99 (s)", r -> p99(r, "preempt", "active0")),
      new Metric("suspend: active 0 p50 (s)", r -> p50(r, "suspend", "active0")),
      new Metric("suspend: active 0 p99 (s)", r -> p99(r, "suspend", "active0")),
      new Metric("suspend: no pods p99 (s)", r -> p99(r, "suspend", "noPods")),
      new Metric("resume: Running p99 (s)", r -> p99(r, "resume", "running")),
      new Metric("complete: pods done -> Succeeded p50 (s)", r -> p50(r, "complete", "podsDoneToSucceeded")),
      new Metric("complete: pods done -> Succeeded p99 (s)", r -> p99(r, "complete", "podsDoneToSucceeded")),
      new Metric("churn: Running p99 (s)", r -> p99(r, "churn", "running")),
      new Metric("churn: pods done -> Succeeded p99 (s)", r -> p99(r, "churn", "podsDoneToSucceeded")),
      new Metric("operator start -> first reconcile (s)", r -> env(r, "operatorFirstReconcileSeconds")),
      new Metric("operator CPU until its first reconcile (s)", r -> env(r, "operatorStartupCpuSeconds")),
      new Metric("operator peak RSS (MiB)", Targets::peakRss),
      new Metric("operator CPU, all scenarios (s)", ReportMarkdown::cpu),
      new Metric("API requests per job, burst", r -> perJob(r.scenario("burst"))),
      new Metric("API requests per job, suspend+resume",
          r -> sum(perJob(r.scenario("suspend")), perJob(r.scenario("resume")))),
      new Metric("objects created per job, burst (all clients)", r -> createdPerJob(r.scenario("burst"))),
      new Metric("objects created per job, suspend+resume",
          r -> sum(createdPerJob(r.scenario("suspend")), createdPerJob(r.scenario("resume")))),
      new Metric("kube-apiserver CPU per job, burst (ms)", r -> apiServerCpuMsPerJob(r.scenario("burst"))));

  String render() {
    md.append("# Benchmark report\n\n");
    if (!command.isEmpty()) {
      md.append("Command: `").append(command).append("`\n\n");
    }
    RunResult first = runs.get(0);
    md.append(String.format("Machine: %s cores, %s; Kubernetes %s (kube-apiserver, etcd, kube-controller-manager, "
            + "kube-scheduler and kwok on the same machine). Jobs: PyTorchJob, 1 Master + %d Workers; driver "
            + "concurrency %d.%n%n", first.environment.get("cores"), first.environment.get("memTotal"),
        first.environment.get("kubernetes"), first.workersPerJob, first.concurrency));
    headline();
    targets();
    comparison();
    for (RunResult r : runs) {
      run(r);
    }
    md.append("## Plots\n\n");
    for (String p : plots) {
      md.append("![").append(p).append("](").append(p).append(")\n\n");
    }
    return md.toString();
  }

  private void headline() {
    md.append("## Headline figures\n\n");
    List<String> header = new ArrayList<>(List.of("metric"));
    runs.forEach(r -> header.add(r.operator + " N=" + r.n));
    row(header);
    separator(header.size());
    List<String> load = new ArrayList<>(List.of("load average (1/5/15 min) at the run's start"));
    runs.forEach(r -> load.add(r.environment.getOrDefault("loadAverageAtStart", "?")));
    row(load);
    for (Metric m : METRICS) {
      List<String> cells = new ArrayList<>(List.of(m.label()));
      runs.forEach(r -> cells.add(num(m.read().apply(r))));
      row(cells);
    }
    md.append('\n');
  }

  private void targets() {
    md.append("## Targets\n\n");
    List<Map<String, Object>> rows = Targets.evaluate(runs);
    row(List.of("target", "operator", "N", "figure", "met"));
    separator(5);
    for (Map<String, Object> t : rows) {
      row(List.of(String.valueOf(t.get("target")), String.valueOf(t.get("operator")), String.valueOf(t.get("n")),
          String.valueOf(t.get("figure")), Boolean.TRUE.equals(t.get("met")) ? "yes" : "**no**"));
    }
    if (runs.stream().noneMatch(r -> r.n >= Targets.RSS_JOBS)) {
      row(List.of("operator RSS < 512 MiB at 2000 jobs / 8000 pods", "-", "-", "not measured (no N >= 2000 run)",
          "-"));
    }
    if (runs.stream().noneMatch(r -> r.n == Targets.SUSPEND_JOBS)) {
      row(List.of("suspend 500 running jobs: p99 to active 0 < 5 s", "-", "-", "not measured (no N = 500 run)", "-"));
    }
    md.append('\n');
  }

  private void comparison() {
    Set<String> operators = new LinkedHashSet<>();
    runs.forEach(r -> operators.add(r.operator));
    if (operators.size() < 2) {
      return;
    }
    List<String> ops = new ArrayList<>(operators);
    if (ops.remove("stint")) {
      ops.add(0, "stint"); // Stint against the other, whatever the order the runs were read in
    }
    String a = ops.get(0);
    String b = ops.get(1);
    md.append("## ").append(a).append(" vs ").append(b).append("\n\n");
    md.append("Ratio = ").append(a).append(" / ").append(b)
        .append(" (below 1 is better for times, memory, CPU and requests; above 1 is better for rates).\n\n");
    row(List.of("N", "metric", a, b, "ratio"));
    separator(5);
    for (RunResult ra : runs) {
      if (!ra.operator.equals(a)) {
        continue;
      }
      RunResult rb = runs.stream().filter(r -> r.operator.equals(b) && r.n == ra.n).findFirst().orElse(null);
      if (rb == null) {
        continue;
      }
      for (Metric m : METRICS) {
        double va = m.read().apply(ra);
        double vb = m.read().apply(rb);
        row(List.of(Integer.toString(ra.n), m.label(), num(va), num(vb), num(va / vb)));
      }
    }
    md.append('\n');
  }

  private void run(RunResult r) {
    md.append("## ").append(r.operator).append(", N = ").append(r.n).append("\n\n");
    md.append("Started ").append(r.startedAt).append("; load average at start ")
        .append(r.environment.getOrDefault("loadAverageAtStart", "?")).append("; operator: `")
        .append(String.join(" ", r.operatorCommand)).append("`");
    if (r.environment.containsKey("label")) {
      md.append("; label: ").append(r.environment.get("label"));
    }
    md.append(".\n\n");
    r.notes.forEach(n -> md.append("- ").append(n).append('\n'));
    row(List.of("scenario", "wall (s)", "load 1m start -> end", "throughput", "operator CPU (s)",
        "operator peak RSS (MiB)", "API requests (per job)", "operator reconciles per job", "notes"));
    separator(9);
    for (ScenarioResult s : r.scenarios) {
      StringBuilder tp = new StringBuilder();
      s.figures.forEach((k, v) -> {
        if (k.contains("PerSecond")) {
          tp.append(tp.length() == 0 ? "" : "; ").append(k).append(' ').append(num(v));
        }
      });
      row(List.of(s.name, num(s.wallSeconds),
          String.format("%.2f -> %.2f", s.loadAverageStart[0], s.loadAverageEnd[0]), tp.toString(),
          num(s.operatorCpuSeconds), num(s.operatorPeakRssMiB),
          String.format("%.0f (%.1f)", s.apiRequestsTotal, s.apiRequestsTotal / Math.max(1, s.jobs)),
          s.operatorReconciles == null ? "-" : num(s.operatorReconciles / Math.max(1, s.jobs)),
          String.join("; ", s.notes)));
    }
    md.append("\nPer-job latencies (seconds):\n\n");
    row(List.of("scenario", "milestone", "p50", "p95", "p99", "max", "jobs (missing)"));
    separator(7);
    for (ScenarioResult s : r.scenarios) {
      s.latencies.forEach((m, l) -> row(List.of(s.name, m, num(l.p50()), num(l.p95()), num(l.p99()), num(l.max()),
          l.count() + (l.missing() > 0 ? " (**" + l.missing() + "**)" : ""))));
    }
    // the whole machine: on two cores a scenario keeps 1.5 to 1.9 busy, so what a job costs all of them together,
    // not the operator alone, sets how fast jobs go through (docs/benchmarks.md)
    md.append("\nCPU seconds of the control plane per scenario; the last columns add the operator's: the whole "
        + "machine's CPU, the cores it kept busy, and its CPU per job:\n\n");
    List<String> header = new ArrayList<>(List.of("scenario"));
    Set<String> comps = new LinkedHashSet<>();
    r.scenarios.forEach(s -> comps.addAll(s.componentCpuSeconds.keySet()));
    header.addAll(comps);
    header.addAll(List.of("all (s)", "cores busy", "ms per job"));
    row(header);
    separator(header.size());
    for (ScenarioResult s : r.scenarios) {
      List<String> cells = new ArrayList<>(List.of(s.name));
      comps.forEach(c -> cells.add(num(s.componentCpuSeconds.get(c))));
      double all = (s.operatorCpuSeconds == null ? 0 : s.operatorCpuSeconds)
          + s.componentCpuSeconds.values().stream().mapToDouble(v -> v == null ? 0 : v).sum();
      cells.addAll(List.of(num(all), String.format("%.2f", all / Math.max(1e-9, s.wallSeconds)),
          num(1000 * all / Math.max(1, s.jobs))));
      row(cells);
    }
    apiTable(r);
  }

  /** Requests per job by verb and resource (all clients; the driver's own are listed under each scenario). */
  private void apiTable(RunResult r) {
    List<String> keys = keysOver(r, s -> s.apiRequests, null);
    md.append("\nAPI requests per job by verb and resource (apiserver_request_total, every client; rows under 0.1 "
        + "per job left out):\n\n");
    perKeyRows(r, keys, (s, k) -> num(s.apiRequests.getOrDefault(k, 0.0) / Math.max(1, s.jobs)));
    List<String> driver = new ArrayList<>(List.of("of which the driver's own"));
    r.scenarios.forEach(s -> driver.add(s.driverRequests.isEmpty() ? "-" : String.join(", ",
        s.driverRequests.entrySet().stream().map(e -> e.getKey() + " " + num(e.getValue() / Math.max(1, s.jobs)))
            .toList())));
    row(driver);
    md.append('\n');
    refusedAndEnded(r);
    // watches left out of the times: they last as long as they stay open
    md.append("API server time per request in ms, by verb and resource (apiserver_request_duration_seconds, every "
        + "client; from the request's arrival to its answer):\n\n");
    perKeyRows(r, keys.stream().filter(k -> !k.startsWith("WATCH")).toList(), (s, k) -> num(meanMillis(s, k)));
    md.append('\n');
    List<String> own = keysOver(r, s -> s.operatorRequests, "watch");
    if (!own.isEmpty()) {
      md.append("The operator's own time per request in ms (its /metrics; from sending the request to the answer's "
          + "headers; the requests per job in brackets):\n\n");
      perKeyRows(r, own, (s, k) -> {
        double n = s.operatorRequests.getOrDefault(k, 0.0);
        return n == 0 ? "-" : num(1000 * s.operatorRequestSeconds.getOrDefault(k, 0.0) / n) + " ("
            + num(n / Math.max(1, s.jobs)) + ")";
      });
      md.append('\n');
    }
  }

  /**
   * Refused requests per job and the watches the API server ended (counts): work the control plane did for nothing
   * (kwok as published replayed pods' stages after each new watch, and the API server refused those patches, 422),
   * and watches that fell behind, which their clients opened again.
   */
  private void refusedAndEnded(RunResult r) {
    List<String> refused = keysOver(r, s -> s.apiRefused, null);
    Map<String, Double> ended = new LinkedHashMap<>();
    r.scenarios.forEach(s -> s.watchersEnded.forEach((k, v) -> ended.merge(k, v, Double::sum)));
    if (refused.isEmpty() && ended.isEmpty()) {
      return;
    }
    md.append("Refused requests per job (code 400 or more, every client; rows under 0.1 per job left out), and "
        + "watches the API server ended because their client fell behind (apiserver_terminated_watchers_total, "
        + "a count):\n\n");
    String endedPrefix = "watches ended: ";
    List<String> keys = new ArrayList<>(refused);
    ended.keySet().forEach(k -> keys.add(endedPrefix + k));
    perKeyRows(r, keys, (s, k) -> k.startsWith(endedPrefix)
        ? num(s.watchersEnded.getOrDefault(k.substring(endedPrefix.length()), 0.0))
        : num(s.apiRefused.getOrDefault(k, 0.0) / Math.max(1, s.jobs)));
    md.append('\n');
  }

  /** The keys of {@code counts} at 0.1 per job or more in some scenario, largest first, but those starting {@code skip} (unless null). */
  private static List<String> keysOver(RunResult r, Function<ScenarioResult, Map<String, Double>> counts, String skip) {
    Map<String, Double> max = new LinkedHashMap<>();
    r.scenarios.forEach(s -> counts.apply(s).forEach((k, v) -> max.merge(k, v / Math.max(1, s.jobs), Math::max)));
    return max.entrySet().stream().filter(e -> e.getValue() >= 0.1 && (skip == null || !e.getKey().startsWith(skip)))
        .sorted((x, y) -> Double.compare(y.getValue(), x.getValue())).map(Map.Entry::getKey).toList();
  }

  /** A table of one row per key and one column per scenario. */
  private void perKeyRows(RunResult r, List<String> keys, BiFunction<ScenarioResult, String, String> cell) {
    List<String> header = new ArrayList<>(List.of("request"));
    r.scenarios.forEach(s -> header.add(s.name));
    row(header);
    separator(header.size());
    for (String k : keys) {
      List<String> cells = new ArrayList<>(List.of(k));
      r.scenarios.forEach(s -> cells.add(cell.apply(s, k)));
      row(cells);
    }
  }

  static double meanMillis(ScenarioResult s, String key) {
    double n = s.apiRequests.getOrDefault(key, 0.0);
    return n == 0 || !s.apiSeconds.containsKey(key) ? Double.NaN : 1000 * s.apiSeconds.get(key) / n;
  }

  private static double p50(RunResult r, String scenario, String milestone) {
    Latencies l = latency(r, scenario, milestone);
    return l == null ? Double.NaN : l.p50();
  }

  private static double p99(RunResult r, String scenario, String milestone) {
    Latencies l = latency(r, scenario, milestone);
    return l == null ? Double.NaN : l.p99();
  }

  private static Latencies latency(RunResult r, String scenario, String milestone) {
    ScenarioResult s = r.scenario(scenario);
    return s == null ? null : s.latencies.get(milestone);
  }

  private static double cpu(RunResult r) {
    return r.scenarios.stream().filter(s -> s.operatorCpuSeconds != null).mapToDouble(s -> s.operatorCpuSeconds)
        .sum();
  }

  /** A number the run recorded in its environment, NaN when it did not. */
  private static double env(RunResult r, String key) {
    String v = r.environment.get(key);
    return v == null ? Double.NaN : Double.parseDouble(v);
  }

  private static double perJob(ScenarioResult s) {
    return s == null ? Double.NaN : s.apiRequestsTotal / Math.max(1, s.jobs);
  }

  /** POSTs answered by the API server, every client's (the operator's, the control plane's EndpointSlices...). */
  static double createdPerJob(ScenarioResult s) {
    if (s == null) {
      return Double.NaN;
    }
    double created = s.apiRequests.entrySet().stream().filter(e -> e.getKey().startsWith("POST "))
        .filter(e -> !e.getKey().contains("/")).mapToDouble(java.util.Map.Entry::getValue).sum();
    return created / Math.max(1, s.jobs);
  }

  private static double apiServerCpuMsPerJob(ScenarioResult s) {
    Double cpu = s == null ? null : s.componentCpuSeconds.get("kube-apiserver");
    return cpu == null ? Double.NaN : cpu * 1000 / Math.max(1, s.jobs);
  }

  private static double sum(double a, double b) {
    return a + b;
  }

  static String num(Double v) {
    if (v == null || v.isNaN() || v.isInfinite()) {
      return "-";
    }
    double a = Math.abs(v);
    return a >= 100 ? String.format("%.0f", v) : a >= 10 ? String.format("%.1f", v) : String.format("%.2f", v);
  }

  private void row(List<String> cells) {
    md.append("| ").append(String.join(" | ", cells.stream().map(c -> c.replace("|", "\\|")).toList()))
        .append(" |\n");
  }

  private void separator(int n) {
    md.append("|").append(" --- |".repeat(n)).append('\n');
  }
}
