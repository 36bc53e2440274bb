package dev.stint.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Command line of the driver: {@code run [options] -- <operator command...>} or {@code report --out=DIR}. */
final class Options {
  static final List<String> ALL_SCENARIOS = List.of("limit", "limitsvc", "burst", "preempt", "suspend", "resume",
      "complete", "churn");

  String command;
  int n = 100;
  String operator = "stint";
  Path out = Path.of("bench/reports/latest");
  int concurrency = 50;
  int workers = 3;
  Set<String> scenarios = new LinkedHashSet<>(ALL_SCENARIOS);
  int churnSeconds = 120;
  int churnRuntimeSeconds = 10;
  Integer churnJobs;
  Path clusterDir;
  int timeoutBaseSeconds = 120;
  double timeoutPerJobSeconds = 0.25;
  String label = "";
  /** Before each scenario, wait this long at most for the control plane and operator to be quiet (0: no wait). */
  int settleSeconds = 0;
  /** The operator's /metrics, for its own time per request (empty: not read). */
  String operatorMetrics = "";
  List<String> operatorCommand = new ArrayList<>();

  static final String USAGE = String.join("\n",
      "Usage: java -jar stint-bench.jar run [options] -- <operator command...>",
      "       java -jar stint-bench.jar report --out=DIR",
      "       java -jar stint-bench.jar soak-report --out=DIR   (bench/soak.sh's folder: soak.md and plots)",
      "run (KUBECONFIG must point at a fresh cluster with the PyTorchJob CRD installed):",
      "  --n=N                   jobs per scenario (default 100)",
      "  --operator=NAME         label of the operator under test (default stint)",
      "  --out=DIR               report folder; the run writes DIR/runs/<operator>-<n>.json (default bench/reports/latest)",
      "  --concurrency=C         driver threads, and the limit's concurrency (default 50)",
      "  --workers=W             workers per job, plus one master (default 3)",
      "  --scenarios=a,b         subset of " + String.join(",", ALL_SCENARIOS),
      "  --churn-seconds=S       churn window (default 120); --churn-runtime-seconds=R job run time (default 10)",
      "  --churn-jobs=J          jobs created over the churn window (default N)",
      "  --cluster-dir=DIR       $STINT_CLUSTER_DIR, to read the control-plane PIDs (CPU per component)",
      "  --timeout-base=S --timeout-per-job=S   per-milestone timeout = base + N x per-job (default 120 + 0.25 N)",
      "  --label=TEXT            free text recorded with the run (e.g. the tuning being tried)",
      "  --settle=S              before each scenario, wait up to S s until the control plane and the operator use",
      "                          under a quarter of a core together (the last scenario's clean-up done; default 0)",
      "  --operator-metrics=URL  the operator's /metrics: its own time per API request, beside the API server's");

  static Options parse(String[] args) {
    Options o = new Options();
    if (args.length == 0) {
      throw new IllegalArgumentException(USAGE);
    }
    o.command = args[0];
    int i = 1;
    for (; i < args.length && !args[i].equals("--"); i++) {
      String a = args[i];
      int eq = a.indexOf('=');
      String name = eq < 0 ? a : a.substring(0, eq);
      String v = eq < 0 ? "" : a.substring(eq + 1);
      switch (name) {
        case "--n" -> o.n = Integer.parseInt(v);
        case "--operator" -> o.operator = v;
        case "--out" -> o.out = Path.of(v);
        case "--concurrency" -> o.concurrency = Integer.parseInt(v);
        case "--workers" -> o.workers = Integer.parseInt(v);
        case "--scenarios" -> o.scenarios = scenarios(v);
        case "--churn-seconds" -> o.churnSeconds = Integer.parseInt(v);
        case "--churn-runtime-seconds" -> o.churnRuntimeSeconds = Integer.parseInt(v);
        case "--churn-jobs" -> o.churnJobs = Integer.parseInt(v);
        case "--cluster-dir" -> o.clusterDir = Path.of(v);
        case "--timeout-base" -> o.timeoutBaseSeconds = Integer.parseInt(v);
        case "--timeout-per-job" -> o.timeoutPerJobSeconds = Double.parseDouble(v);
        case "--label" -> o.label = v;
        case "--settle" -> o.settleSeconds = Integer.parseInt(v);
        case "--operator-metrics" -> o.operatorMetrics = v;
        default -> throw new IllegalArgumentException("unknown option " + a + "\n" + USAGE);
      }
    }
    for (i++; i < args.length; i++) {
      o.operatorCommand.add(args[i]);
    }
    if (o.command.equals("run") && o.operatorCommand.isEmpty()) {
      throw new IllegalArgumentException("run needs the operator command after --\n" + USAGE);
    }
    return o;
  }

  private static Set<String> scenarios(String v) {
    Set<String> s = new LinkedHashSet<>();
    for (String name : v.split(",")) {
      if (!ALL_SCENARIOS.contains(name.trim())) {
        throw new IllegalArgumentException("unknown scenario " + name + "; known: " + ALL_SCENARIOS);
      }
      s.add(name.trim());
    }
    return s;
  }

  long timeoutMillis() {
    return Math.round((timeoutBaseSeconds + n * timeoutPerJobSeconds) * 1000);
  }

  /** Scenario dependencies: suspend, preemption and completion need running jobs; suspend is followed by resume. */
  void addDependencies() {
    if (scenarios.contains("suspend") || scenarios.contains("resume") || scenarios.contains("complete")
        || scenarios.contains("preempt")) {
      scenarios.add("burst");
    }
    if (scenarios.contains("suspend") || scenarios.contains("resume")) {
      scenarios.add("suspend");
      scenarios.add("resume");
    }
  }
}
