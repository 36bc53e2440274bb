package dev.stint.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The targets of issue 8, checked against the runs of a report. */
final class Targets {
  static final double POD_RATE_RATIO = 0.8;
  static final double SUSPEND_P99_SECONDS = 5.0;
  static final int SUSPEND_JOBS = 500;
  static final double RSS_MIB = 512;
  static final int RSS_JOBS = 2000;

  private Targets() {
  }

  static List<Map<String, Object>> evaluate(List<RunResult> runs) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (RunResult r : runs) {
      ScenarioResult burst = r.scenario("burst");
      ScenarioResult limit = r.scenario("limit");
      if (burst != null && limit != null) {
        double ratio = podRateRatio(r);
        rows.add(row("pod creation >= 80% of the plain-client limit", r, ratio,
            String.format("%.0f%% (%.1f vs %.1f pods/s)", 100 * ratio, fig(burst, "podsCreatedPerSecond"),
                fig(limit, "podsCreatedPerSecond")), ratio >= POD_RATE_RATIO));
      }
      ScenarioResult suspend = r.scenario("suspend");
      if (suspend != null && r.n == SUSPEND_JOBS) {
        Latencies l = suspend.latencies.get("active0");
        boolean met = l != null && l.missing() == 0 && l.p99() < SUSPEND_P99_SECONDS;
        rows.add(row("suspend 500 running jobs: p99 to active 0 < 5 s", r, l == null ? Double.NaN : l.p99(),
            l == null ? "not measured" : String.format("p99 %.2f s (p50 %.2f, max %.2f, %d missing)", l.p99(),
                l.p50(), l.max(), l.missing()), met));
      }
      if (r.n >= RSS_JOBS) {
        double peak = peakRss(r);
        rows.add(row("operator RSS < 512 MiB at 2000 jobs / 8000 pods", r, peak,
            String.format("peak %.0f MiB", peak), peak < RSS_MIB));
      }
    }
    return rows;
  }

  static double podRateRatio(RunResult r) {
    return podRateRatio(r, "limit");
  }

  /** The burst's pod rate over that of a limit scenario ({@code limit} or {@code limitsvc}). */
  static double podRateRatio(RunResult r, String limit) {
    return fig(r.scenario("burst"), "podsCreatedPerSecond") / fig(r.scenario(limit), "podsCreatedPerSecond");
  }

  static double peakRss(RunResult r) {
    return r.scenarios.stream().filter(s -> s.operatorPeakRssMiB != null)
        .mapToDouble(s -> s.operatorPeakRssMiB).max().orElse(Double.NaN);
  }

  static double fig(ScenarioResult s, String name) {
    if (s == null) {
      return Double.NaN;
    }
    Double v = s.figures.get(name);
    return v == null ? Double.NaN : v;
  }

  private static Map<String, Object> row(String target, RunResult r, double value, String figure, boolean met) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("target", target);
    m.put("operator", r.operator);
    m.put("n", r.n);
    m.put("value", value);
    m.put("figure", figure);
    m.put("met", met);
    return m;
  }
}
