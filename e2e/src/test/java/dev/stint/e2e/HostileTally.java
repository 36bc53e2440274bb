package dev.stint.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The counts a run ends with, and the report: one line a case and the summary, printed and written to a file. */
final class HostileTally {
  int tried;
  int refused;
  int failed;
  int valid;
  final List<HostileCase> violations = new ArrayList<>();
  private final List<String> log = new ArrayList<>();

  void violate(HostileCase c, String why) {
    c.violation = why;
    violations.add(c);
  }

  /** Prints a judged case's line and keeps it for the report. */
  void report(HostileCase c) {
    line(c.describe() + " -> " + c.outcome + (c.violation == null ? "" : "  VIOLATION: " + c.violation));
  }

  void line(String line) {
    System.out.println(line);
    log.add(line);
  }

  /** Writes every line so far to {@code e2e/target/hostile-spec-report.txt}. */
  Path write() throws IOException {
    Path report = LocalCluster.ROOT.resolve("e2e/target/hostile-spec-report.txt");
    Files.createDirectories(report.getParent());
    Files.write(report, log, StandardCharsets.UTF_8);
    return report;
  }

  @Override
  public String toString() {
    return "specs tried " + tried + ", refused by the API server " + refused + ", Failed by the operator " + failed
        + ", valid (Created) " + valid + ", property violated " + violations.size();
  }
}
