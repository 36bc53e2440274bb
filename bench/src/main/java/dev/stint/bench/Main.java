package dev.stint.bench;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Entry point of the load driver. {@code run} measures one operator at one N on the cluster of KUBECONFIG and writes
 * {@code <out>/runs/<operator>-<n>.json}; {@code report} turns every run of a folder into report.md, report.json and
 * PNG plots. bench/run.sh calls both, around the cluster's and the operator's life cycle. {@code soak-report} writes
 * bench/soak.sh's soak.md and plots ({@link SoakReport}).
 */
public final class Main {
  private Main() {
  }

  public static void main(String[] args) throws Exception {
    System.setProperty("java.awt.headless", "true");
    Options o;
    try {
      o = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    switch (o.command) {
      case "run" -> {
        RunResult r = new BenchRun(o).run();
        Path runs = o.out.resolve("runs");
        Files.createDirectories(runs);
        Path file = runs.resolve(o.operator + "-" + o.n + ".json");
        Json.MAPPER.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), r);
        System.err.println("bench: wrote " + file);
      }
      case "report" -> Report.write(o.out);
      case "soak-report" -> SoakReport.write(o.out);
      default -> {
        System.err.println(Options.USAGE);
        System.exit(2);
      }
    }
    System.exit(0);
  }
}
