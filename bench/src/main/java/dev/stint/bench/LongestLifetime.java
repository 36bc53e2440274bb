package dev.stint.bench;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The soak report's answer to "is one process flat over the last hour": the operator process that covers the most of
 * the window, and each metric's first, last, lowest and highest sample there. The weighted slopes of
 * {@link SoakReport} mix many short lifetimes, whose warm-up a slope extrapolates to an hour; one process that lived
 * through the window needs no extrapolation, so this is the figure a leak shows in.
 */
final class LongestLifetime {
  private LongestLifetime() {
  }

  /**
   * The lifetime that covers the most of the window from {@code from}, its samples there only, past its first
   * {@link SoakReport#WARM_UP_S} seconds (JVM start and first lists are not a trend).
   */
  static Optional<List<SoakReport.Sample>> in(List<List<SoakReport.Sample>> lifetimes, long from) {
    return lifetimes.stream()
        .map(l -> l.stream().filter(s -> s.time() >= from && s.time() - s.start() >= SoakReport.WARM_UP_S).toList())
        .filter(l -> l.size() >= 2)
        .max(Comparator.comparingLong((List<SoakReport.Sample> l) -> l.get(l.size() - 1).time() - l.get(0).time()));
  }

  static void section(StringBuilder md, List<List<SoakReport.Sample>> lifetimes, long from, long tEnd) {
    md.append("\n## One process through the window\n\n");
    Optional<List<SoakReport.Sample>> found = in(lifetimes, from);
    if (found.isEmpty()) {
      md.append("No process has two samples in the window.\n");
      return;
    }
    List<SoakReport.Sample> l = found.get();
    SoakReport.Sample first = l.get(0);
    SoakReport.Sample last = l.get(l.size() - 1);
    long covered = last.time() - first.time();
    md.append("pid ").append(first.pid()).append(", ").append(l.size()).append(" samples from ")
        .append(first.time() - first.start()).append(" to ").append(last.time() - first.start())
        .append(" s of its age, covering ").append(covered).append(" s of the window's ").append(tEnd - from)
        .append(" s (a process's first ").append(SoakReport.WARM_UP_S).append(" s left out). Change: last against first; fit: the least-squares slope over the span against the mean. "
            + "Flagged (**!**) beyond ").append(Math.round(SoakReport.FLAG * 100)).append("% either way.\n\n");
    md.append("| metric | first | last | lowest | highest | change | fit |\n")
        .append("| --- | --- | --- | --- | --- | --- | --- |\n");
    for (SoakReport.Metric m : SoakReport.METRICS) {
      List<SoakReport.Sample> with = l.stream().filter(s -> !Double.isNaN(s.get(m.column()))).toList();
      if (with.size() < 2) {
        continue;
      }
      md.append(row(m, with)).append('\n');
    }
  }

  private static String row(SoakReport.Metric m, List<SoakReport.Sample> with) {
    double first = with.get(0).get(m.column());
    double last = with.get(with.size() - 1).get(m.column());
    double low = with.stream().mapToDouble(s -> s.get(m.column())).min().orElse(Double.NaN);
    double high = with.stream().mapToDouble(s -> s.get(m.column())).max().orElse(Double.NaN);
    double mean = with.stream().mapToDouble(s -> s.get(m.column())).average().orElse(0);
    double span = with.get(with.size() - 1).time() - with.get(0).time();
    double fit = mean == 0 ? 0 : SoakReport.slope(with, s -> s.get(m.column())) * span / mean;
    double change = first == 0 ? (last == 0 ? 0 : Double.POSITIVE_INFINITY) : (last - first) / first;
    String name = m.name() + (m.unit().isEmpty() ? "" : " (" + m.unit() + ")");
    StringBuilder b = new StringBuilder("| ").append(name);
    for (double v : new double[] {first, last, low, high}) {
      b.append(" | ").append(SoakReport.fmt(v * m.factor()));
    }
    if (m.counter()) {
      return b.append(" | (a counter) | (a counter) |").toString();
    }
    return b.append(" | ").append(percent(change, m)).append(" | ").append(percent(fit, m)).append(" |").toString();
  }

  private static String percent(double g, SoakReport.Metric m) {
    String flag = m.workload() ? " (the churn's jobs)" : Math.abs(g) > SoakReport.FLAG ? " **!**" : "";
    return String.format(Locale.ROOT, "%+.1f%%", g * 100) + flag;
  }
}
