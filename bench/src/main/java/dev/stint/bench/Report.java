package dev.stint.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Turns the runs of a report folder into report.md, report.json and the PNG plots. */
final class Report {
  /** The milestones worth a CDF, by scenario. */
  static final Map<String, List<String>> MILESTONES = new LinkedHashMap<>();

  static {
    MILESTONES.put("limit", List.of("allPodsCreated", "allPodsRunning"));
    MILESTONES.put("limitsvc", List.of("allPodsCreated", "allPodsRunning"));
    MILESTONES.put("burst", List.of("allPodsCreated", "running"));
    MILESTONES.put("suspend", List.of("active0", "noPods"));
    MILESTONES.put("preempt", List.of("active0", "noPods"));
    MILESTONES.put("resume", List.of("allPodsCreated", "running"));
    MILESTONES.put("complete", List.of("podsDoneToSucceeded", "annotateToSucceeded"));
    MILESTONES.put("churn", List.of("running", "podsDoneToSucceeded", "createToSucceeded"));
  }

  private Report() {
  }

  static void write(Path dir) throws IOException {
    List<RunResult> runs = read(dir.resolve("runs"));
    if (runs.isEmpty()) {
      throw new IllegalStateException("no runs in " + dir.resolve("runs"));
    }
    List<String> plots = plots(dir, runs);
    Path command = dir.resolve("command.txt");
    String cmd = Files.exists(command) ? Files.readString(command).trim() : "";
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("generatedAt", OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString());
    json.put("command", cmd);
    json.put("targets", Targets.evaluate(runs));
    json.put("runs", runs);
    Json.MAPPER.writerWithDefaultPrettyPrinter().writeValue(dir.resolve("report.json").toFile(), json);
    Files.writeString(dir.resolve("report.md"), new ReportMarkdown(runs, cmd, plots).render());
    System.err.println("bench: wrote " + dir.resolve("report.md"));
  }

  static List<RunResult> read(Path runsDir) throws IOException {
    List<RunResult> runs = new ArrayList<>();
    if (!Files.isDirectory(runsDir)) {
      return runs;
    }
    try (Stream<Path> files = Files.list(runsDir)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
        runs.add(Json.MAPPER.readValue(f.toFile(), RunResult.class));
      }
    }
    runs.sort(Comparator.comparing((RunResult r) -> r.operator).thenComparingInt(r -> r.n));
    return runs;
  }

  private static List<String> plots(Path dir, List<RunResult> runs) throws IOException {
    List<String> files = new ArrayList<>();
    for (Map.Entry<String, List<String>> e : MILESTONES.entrySet()) {
      for (String milestone : e.getValue()) {
        Plot p = new Plot(e.getKey() + ": " + milestone + " (per-job CDF)", "seconds", "fraction of jobs");
        boolean any = false;
        for (RunResult r : runs) {
          ScenarioResult s = r.scenario(e.getKey());
          if (s != null && s.samples.get(milestone) != null && s.samples.get(milestone).length > 0) {
            p.cdf(r.operator + " N=" + r.n, s.samples.get(milestone));
            any = true;
          }
        }
        if (any) {
          String f = "cdf-" + e.getKey() + "-" + milestone + ".png";
          p.write(dir.resolve(f));
          files.add(f);
        }
      }
    }
    Plot rss = new Plot("Operator resident memory over the run", "seconds since the run started", "RSS (MiB)");
    for (RunResult r : runs) {
      List<Double> t = r.series.get("t");
      if (t == null) {
        continue;
      }
      String f = "pods-" + r.operator + "-" + r.n + ".png";
      Plot pods = new Plot("Pods over time: " + r.operator + ", N=" + r.n, "seconds since the run started", "pods")
          .line("live pods", array(t), array(r.series.get("livePods")))
          .line("running pods", array(t), array(r.series.get("runningPods")));
      for (ScenarioResult s : r.scenarios) {
        pods.span(s.name, s.startSeconds, s.startSeconds + s.wallSeconds);
      }
      pods.write(dir.resolve(f));
      files.add(f);
      rss.line(r.operator + " N=" + r.n, array(t), array(r.series.get("operatorRssMiB")));
    }
    rss.write(dir.resolve("operator-rss.png"));
    files.add("operator-rss.png");
    return files;
  }

  static double[] array(List<Double> values) {
    if (values == null) {
      return new double[0];
    }
    return values.stream().mapToDouble(v -> v == null ? Double.NaN : v).toArray();
  }
}
