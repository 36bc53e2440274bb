package dev.stint.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code soak-report --out=DIR}: turns what bench/soak.sh wrote into DIR (soak.env, runs.tsv, runs/n/chaos-tally.txt,
 * samples.csv) into DIR/soak.md and PNG plots. The operator processes are sampled per pid, and ChaosIT replaces them
 * (kills, paused leaders), so every metric is a set of series, one per process lifetime; its slope is each lifetime's
 * least-squares slope over the window (the last hour, or the last half of a shorter soak) after the process's first
 * {@link #WARM_UP_S} seconds, averaged weighted by the time each lifetime covers in the window.
 */
final class SoakReport {
  /** A process's first seconds (JVM start, first lists, heap growing to its working size) are left out of slopes. */
  static final long WARM_UP_S = 60;
  /** Growth over the window beyond this fraction is flagged. */
  static final double FLAG = 0.10;

  private SoakReport() {
  }

  record Sample(long time, long pid, long start, Map<String, Double> values) {
    double get(String k) {
      return values.getOrDefault(k, Double.NaN);
    }
  }

  /** A ChaosIT run: its tally, and Maven's log, which holds an error that ended the test before its checks. */
  record Run(int n, long seed, long start, long end, int rc, String tally, String mvnLog) { }

  /** A metric of the samples: column, name in the report, unit shown, and the factor from column to unit. */
  record Metric(String column, String name, String unit, double factor) {
    /** A counter only grows: its slope is a rate, never a leak by itself, so it is not flagged. */
    boolean counter() {
      return column.startsWith("watch_");
    }

    /** The jobs cached follow the churn's jobs of the moment: a level the workload sets, not a leak by itself. */
    boolean workload() {
      return column.equals("jobs_cached");
    }
  }

  static final List<Metric> METRICS = List.of(
      new Metric("rss_kb", "RSS", "MiB", 1.0 / 1024),
      new Metric("threads", "threads (OS)", "", 1),
      new Metric("jvm_threads", "jvm_threads_live_threads", "", 1),
      new Metric("fds", "open file descriptors", "", 1),
      new Metric("api_conns", "TCP connections to the API server (watches + requests)", "", 1),
      new Metric("watch_opens", "watch requests, every attempt (stint_kube_api_requests_total{verb=\"watch\"}, cumulative)", "", 1),
      new Metric("watch_restarts", "deaf watches restarted (stint_watch_restarts_total)", "", 1),
      new Metric("jobs_cached", "jobs in the informers' caches (sum of stint_jobs)", "", 1),
      new Metric("heap_live_bytes", "stint_heap_live_bytes", "MiB", 1.0 / (1024 * 1024)),
      new Metric("heap_used_bytes", "heap used (jvm_memory_used_bytes, area heap)", "MiB", 1.0 / (1024 * 1024)));

  static void write(Path dir) throws IOException {
    Map<String, String> env = SoakFiles.env(dir.resolve("soak.env"));
    List<Run> runs = SoakFiles.runs(dir);
    List<Sample> samples = SoakFiles.samples(dir.resolve("samples.csv"));
    long t0 = Long.parseLong(env.getOrDefault("started",
        Long.toString(samples.isEmpty() ? 0 : samples.get(0).time())));
    long tEnd = Long.parseLong(env.getOrDefault("ended", Long.toString(
        samples.isEmpty() ? t0 : samples.get(samples.size() - 1).time())));
    StringBuilder md = new StringBuilder();
    md.append("# Soak ").append(dir.getFileName()).append("\n\n");
    md.append("`").append(env.getOrDefault("command", "bench/soak.sh")).append("` (seed ")
        .append(env.getOrDefault("seed", "?")).append(", ").append(env.getOrDefault("rounds_per_run", "?"))
        .append(" rounds per ChaosIT run, faults ").append(env.getOrDefault("faults", "all")).append(", at ")
        .append(env.getOrDefault("git", "?")).append(", ").append(env.getOrDefault("cpus", "?"))
        .append(" cores): ").append(String.format(Locale.ROOT, "%.1f", (tEnd - t0) / 60.0))
        .append(" minutes.\n\n");
    runsSection(md, runs);
    processSection(md, dir, samples, t0, tEnd, runs);
    Files.writeString(dir.resolve("soak.md"), md.toString());
    System.err.println("soak: wrote " + dir.resolve("soak.md"));
  }

  // --- runs, faults, findings -----------------------------------------------------------------------------------

  /** Rounds played to their check: one convergence time each. */
  private static final Pattern ROUNDS = Pattern.compile("convergence after each round's timeline ms: \\[([^]]*)\\]");
  private static final Pattern TESTS = Pattern.compile("Tests run: (\\d+), Failures: (\\d+), Errors: (\\d+)");
  private static final Pattern FAULTS = Pattern.compile("faults injected: \\{([^}]*)\\} \\((\\d+) in all");
  private static final Pattern ENTRY = Pattern.compile("([A-Z_]+)=(\\d+)");

  private static void runsSection(StringBuilder md, List<Run> runs) {
    int rounds = 0;
    int faultsAll = 0;
    Map<String, Integer> faults = new TreeMap<>();
    List<String[]> findings = new ArrayList<>();
    StringBuilder table = new StringBuilder("| run | seed | rounds | s | faults | findings |\n| --- | --- | --- | --- | --- | --- |\n");
    for (Run r : runs) {
      Matcher m = ROUNDS.matcher(r.tally());
      int rr = m.find() && !m.group(1).isBlank() ? m.group(1).split(",").length : 0;
      rounds += rr;
      Matcher f = FAULTS.matcher(r.tally());
      int nf = 0;
      if (f.find()) {
        nf = Integer.parseInt(f.group(2));
        Matcher e = ENTRY.matcher(f.group(1));
        while (e.find()) {
          faults.merge(e.group(1), Integer.parseInt(e.group(2)), Integer::sum);
        }
      }
      faultsAll += nf;
      List<String> own = new ArrayList<>(findings(r.tally()));
      if (!r.tally().contains("===== ChaosIT tally")) {
        own.add("the run ended without a tally (mvn exit " + r.rc() + "; see runs/" + r.n() + "/mvn.log)");
      }
      error(r.mvnLog()).ifPresent(e -> own.add("ChaosIT stopped with an error after " + rr + " rounds (so the tally "
          + "lists no finding for it): " + e + " (runs/" + r.n() + "/mvn.log)"));
      own.forEach(x -> findings.add(new String[] {Integer.toString(r.n()), Long.toString(r.seed()), x}));
      table.append("| ").append(r.n()).append(" | ").append(r.seed()).append(" | ").append(rr).append(" | ")
          .append(r.end() - r.start()).append(" | ").append(nf).append(" | ").append(own.size()).append(" |\n");
    }
    md.append("## Runs\n\n").append(runs.size()).append(" ChaosIT runs, ").append(rounds).append(" rounds, ")
        .append(faultsAll).append(" faults ").append(faults).append(", ").append(findings.size())
        .append(" findings.\n\n").append(table).append('\n');
    md.append("## Findings\n\n");
    if (findings.isEmpty()) {
      md.append("None.\n\n");
    } else {
      for (String[] f : findings) {
        md.append("- run ").append(f[0]).append(", seed ").append(f[1]).append(" (replay: `mvn -B verify -pl e2e "
            + "-Dit.test=ChaosIT -Dstint.chaos.seed=").append(f[1]).append("` with the soak's rounds and faults): ")
            .append(f[2].replace('\n', ' ')).append('\n');
      }
      md.append('\n');
    }
  }

  /**
   * The error that ended a ChaosIT run, when the test threw instead of failing on its findings (a fault that could not
   * be carried out, a wait of the harness that timed out): its first line and the first frame of the suite.
   */
  static java.util.Optional<String> error(String mvnLog) {
    Matcher t = TESTS.matcher(mvnLog);
    if (!t.find() || Integer.parseInt(t.group(3)) == 0) {
      return java.util.Optional.empty();
    }
    String[] lines = mvnLog.split("\n");
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].contains("<<< ERROR!") && i + 1 < lines.length) {
        StringBuilder b = new StringBuilder(lines[i + 1].strip());
        for (int j = i + 2; j < lines.length && lines[j].strip().startsWith("at "); j++) {
          if (lines[j].contains("dev.stint.")) {
            b.append(" ").append(lines[j].strip());
            break;
          }
        }
        return java.util.Optional.of(b.toString());
      }
    }
    return java.util.Optional.of(t.group(0));
  }

  static List<String> findings(String tally) {
    List<String> out = new ArrayList<>();
    boolean in = false;
    for (String line : tally.split("\n")) {
      if (line.startsWith("findings (")) {
        in = true;
      } else if (in && line.startsWith("- ")) {
        out.add(line.substring(2));
      } else if (in && !line.isBlank() && !out.isEmpty()) {
        out.set(out.size() - 1, out.get(out.size() - 1) + " " + line.strip());
      }
    }
    return out;
  }

  // --- the processes ------------------------------------------------------------------------------------------------

  private static void processSection(StringBuilder md, Path dir, List<Sample> samples, long t0, long tEnd,
      List<Run> runs) throws IOException {
    Map<Long, List<Sample>> byProcess = new TreeMap<>();
    for (Sample s : samples) {
      byProcess.computeIfAbsent(s.pid() * 10_000_000_000L + s.start(), k -> new ArrayList<>()).add(s);
    }
    List<List<Sample>> lifetimes = new ArrayList<>(byProcess.values());
    lifetimes.sort(Comparator.comparingLong((List<Sample> l) -> l.get(0).start()).thenComparingLong(l -> l.get(0).pid()));
    long window = Math.min(3600, Math.max(0, (tEnd - t0) / 2));
    long from = tEnd - window;
    md.append("## The operator processes\n\n").append(samples.size()).append(" samples of ").append(lifetimes.size())
        .append(" operator processes (one lifetime each: ChaosIT kills and replaces them)");
    lifetimes.stream().max(Comparator.comparingLong(l -> l.get(l.size() - 1).time() - l.get(0).start()))
        .ifPresent(l -> md.append("; the longest lived ").append(l.get(l.size() - 1).time() - l.get(0).start())
            .append(" s (pid ").append(l.get(0).pid()).append(")"));
    md.append(". Slopes over the ").append(window >= 3600 ? "last hour" : "last half of the run (" + window + " s)")
        .append(": each lifetime's least-squares slope over its samples in the window, leaving out its first ")
        .append(WARM_UP_S).append(" s, averaged weighted by the time it covers there; the growth is that slope over "
            + "the window's length against the window's mean. Flagged (**!**) beyond ")
        .append(Math.round(FLAG * 100)).append("%.\n\n");
    md.append("| metric | start | end | slope /h | growth over the window | lifetimes in the slope |\n")
        .append("| --- | --- | --- | --- | --- | --- |\n");
    List<String> missing = new ArrayList<>();
    for (Metric m : METRICS) {
      List<Sample> with = samples.stream().filter(s -> !Double.isNaN(s.get(m.column()))).toList();
      if (with.isEmpty()) {
        missing.add(m.column());
        continue;
      }
      double start = firstSettled(lifetimes, m) * m.factor();
      double end = with.get(with.size() - 1).get(m.column()) * m.factor();
      double weighted = 0;
      double weight = 0;
      double sum = 0;
      int count = 0;
      int used = 0;
      for (List<Sample> l : lifetimes) {
        List<Sample> in = l.stream().filter(s -> s.time() >= from && s.time() - s.start() >= WARM_UP_S
            && !Double.isNaN(s.get(m.column()))).toList();
        for (Sample s : in) {
          sum += s.get(m.column());
          count++;
        }
        if (in.size() < 3) {
          continue;
        }
        double span = in.get(in.size() - 1).time() - in.get(0).time();
        weighted += slope(in, s -> s.get(m.column())) * span;
        weight += span;
        used++;
      }
      String slope;
      String growth;
      if (weight == 0) {
        slope = "-";
        growth = "- (no lifetime with 3 settled samples in the window)";
      } else {
        double perSecond = weighted / weight;
        double mean = sum / count;
        double g = mean == 0 ? 0 : perSecond * window / mean;
        slope = fmt(perSecond * 3600 * m.factor()) + (m.unit().isEmpty() ? "" : " " + m.unit());
        growth = m.counter() ? "(a counter: its slope is its rate)"
            : String.format(Locale.ROOT, "%+.1f%%", g * 100) + (Math.abs(g) > FLAG && !m.workload() ? " **!**" : "")
                + (m.workload() ? " (the churn's jobs)" : "");
      }
      md.append("| ").append(m.name()).append(m.unit().isEmpty() ? "" : " (" + m.unit() + ")").append(" | ").append(fmt(start)).append(" | ").append(fmt(end)).append(" | ")
          .append(slope).append(" | ").append(growth).append(" | ").append(used).append(" |\n");
    }
    md.append("\nStart: the first sample of the first process at least ").append(WARM_UP_S)
        .append(" s old (else its first); end: the last sample. Plots (one line segment per process lifetime; "
            + "shaded: the ChaosIT runs): rss.png, threads.png, fds.png, watches.png, stores.png, heap.png.\n");
    if (!missing.isEmpty()) {
      md.append("\nNo sample had: ").append(String.join(", ", missing))
          .append(" (a process paused or starting when sampled has no /metrics answer).\n");
    }
    md.append("\nNot measured: no metric counts open watches or the informers' store sizes of pods and services; the "
        + "TCP connections to the API server stand for the watches (each a WebSocket of its own, beside the request "
        + "connections), and stint_jobs (counted from the job informers' caches) for the job stores.\n");
    LongestLifetime.section(md, lifetimes, from, tEnd);
    plots(dir, lifetimes, t0, runs);
  }

  private static double firstSettled(List<List<Sample>> lifetimes, Metric m) {
    for (List<Sample> l : lifetimes) {
      for (Sample s : l) {
        if (s.time() - s.start() >= WARM_UP_S && !Double.isNaN(s.get(m.column()))) {
          return s.get(m.column());
        }
      }
    }
    for (List<Sample> l : lifetimes) {
      for (Sample s : l) {
        if (!Double.isNaN(s.get(m.column()))) {
          return s.get(m.column());
        }
      }
    }
    return Double.NaN;
  }

  static double slope(List<Sample> in, ToDoubleFunction<Sample> y) {
    double mx = in.stream().mapToDouble(Sample::time).average().orElse(0);
    double my = in.stream().mapToDouble(y).average().orElse(0);
    double num = 0;
    double den = 0;
    for (Sample s : in) {
      num += (s.time() - mx) * (y.applyAsDouble(s) - my);
      den += (s.time() - mx) * (s.time() - mx);
    }
    return den == 0 ? 0 : num / den;
  }

  private static void plots(Path dir, List<List<Sample>> lifetimes, long t0, List<Run> runs) throws IOException {
    plot(dir, "rss.png", "Operator RSS (each process lifetime a segment)", "MiB", lifetimes, t0, runs,
        new Metric("rss_kb", "RSS", "MiB", 1.0 / 1024));
    plot(dir, "threads.png", "Operator threads", "threads", lifetimes, t0, runs,
        new Metric("threads", "threads (OS, /proc)", "", 1), new Metric("jvm_threads", "jvm_threads_live_threads", "", 1));
    plot(dir, "fds.png", "Operator open file descriptors", "fds", lifetimes, t0, runs,
        new Metric("fds", "open fds", "", 1));
    plot(dir, "watches.png", "Operator watches", "count", lifetimes, t0, runs,
        new Metric("api_conns", "TCP connections to the API server", "", 1),
        new Metric("watch_opens", "watch requests, every attempt (cumulative per process)", "", 1),
        new Metric("watch_restarts", "deaf watches restarted", "", 1));
    plot(dir, "stores.png", "Jobs in the operator's caches (sum of stint_jobs)", "jobs", lifetimes, t0, runs,
        new Metric("jobs_cached", "jobs cached", "", 1));
    plot(dir, "heap.png", "Operator heap", "MiB", lifetimes, t0, runs,
        new Metric("heap_live_bytes", "stint_heap_live_bytes", "MiB", 1.0 / (1024 * 1024)),
        new Metric("heap_used_bytes", "heap used", "MiB", 1.0 / (1024 * 1024)));
  }

  private static void plot(Path dir, String file, String title, String yLabel, List<List<Sample>> lifetimes, long t0,
      List<Run> runs, Metric... metrics) throws IOException {
    Plot p = new Plot(title, "minutes since the soak started", yLabel);
    for (Metric m : metrics) {
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (List<Sample> l : lifetimes) {
        for (Sample s : l) {
          xs.add((s.time() - t0) / 60.0);
          ys.add(s.get(m.column()) * m.factor());
        }
        xs.add(Double.NaN);
        ys.add(Double.NaN);
      }
      p.line(m.name(), xs.stream().mapToDouble(Double::doubleValue).toArray(),
          ys.stream().mapToDouble(Double::doubleValue).toArray());
    }
    for (Run r : runs) {
      p.span("r" + r.n(), (r.start() - t0) / 60.0, (r.end() - t0) / 60.0);
    }
    p.write(dir.resolve(file));
  }

  static String fmt(double v) {
    if (Double.isNaN(v)) {
      return "-";
    }
    return Math.abs(v) >= 100 || v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.2f", v);
  }
}
