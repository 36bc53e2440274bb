package dev.stint.e2e;

import dev.stint.e2e.ChaosFaults.Fault;
import dev.stint.e2e.ChaosKinds.Shape;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The run's tally: what was driven and injected, how the operator and API server fared, and every finding. */
final class ChaosTally {
  private ChaosTally() { }

  /** Prints the tally and writes it to {@code e2e/target/chaos-tally.txt}. */
  static void report(ChaosRun run, Duration total) {
    String tally = tally(run, total);
    System.out.println(tally);
    try {
      Files.writeString(LocalCluster.ROOT.resolve("e2e/target/chaos-tally.txt"), tally);
    } catch (IOException e) {
      System.out.println("could not write the tally: " + e);
    }
  }

  static String tally(ChaosRun run, Duration total) {
    StringBuilder b = new StringBuilder("\n===== ChaosIT tally =====\n");
    b.append("seed ").append(ChaosIT.SEED).append(" (replay: -Dstint.chaos.seed=").append(ChaosIT.SEED)
        .append("), rounds ").append(ChaosIT.ROUNDS).append(", total ").append(total.toSeconds()).append(" s")
        .append(ChaosIT.FAULTS.size() == Fault.values().length ? "" : ", faults only " + ChaosIT.FAULTS)
        .append('\n');
    Map<Shape, Long> byShape = run.jobs.stream().collect(Collectors.groupingBy(j -> j.shape, TreeMap::new,
        Collectors.counting()));
    Map<String, Long> finalStates = run.jobs.stream().collect(Collectors.groupingBy(
        (ChaosJob j) -> j.quarantined != null ? "NOT CONVERGED" : j.state + (j.plan == null ? "" : "/" + j.plan),
        TreeMap::new, Collectors.counting()));
    b.append("jobs: ").append(run.jobs.size()).append(' ').append(byShape).append("; final states: ")
        .append(finalStates).append('\n');
    b.append("driving steps: ").append(run.steps).append('\n');
    b.append("faults injected: ").append(run.faults).append(" (").append(run.faults.values().stream()
        .mapToInt(Integer::intValue).sum()).append(" in all; status clobbers refused by a conflict and retried: ")
        .append(run.clobberConflicts).append(")\n");
    b.append("operator processes: ").append(run.operators.size()).append(", exits of its own: ")
        .append(run.operatorSelfExits).append("; start-up ms (process start to \"")
        .append(OperatorProcess.STARTED_LINE).append("\"): ")
        .append(run.operators.stream().map(p -> p.startup().map(d -> Long.toString(d.toMillis()))
            .orElse("-")).toList()).append('\n');
    b.append("kube-apiserver restarts ms: ").append(run.apiServerRestarts.stream()
        .map(d -> Long.toString(d.toMillis())).toList()).append('\n');
    b.append("etcd restarts ms: ").append(run.etcdRestarts.stream()
        .map(d -> Long.toString(d.toMillis())).toList()).append('\n');
    b.append("convergence after each round's timeline ms: ").append(run.convergence.stream()
        .map(d -> Long.toString(d.toMillis())).toList()).append('\n');
    b.append("job statuses seen by the informers: ").append(run.history == null ? 0 : run.history.snapshots())
        .append('\n');
    appendLosses(run, b);
    run.notes.forEach(n -> b.append("note: ").append(n).append('\n'));
    if (run.findings.isEmpty()) {
      b.append("findings: none\n");
    } else {
      b.append("findings (").append(run.findings.size()).append("):\n");
      run.findings.forEach(f -> b.append("- ").append(f).append('\n'));
    }
    return b.toString();
  }

  /** The findings counted by kind (by the words each kind of finding is written with). */
  private static void appendLosses(ChaosRun run, StringBuilder b) {
    long lost = run.jobs.stream().filter(j -> j.quarantined != null).count();
    long duplicated = run.findings.stream().filter(f -> f.contains("duplicate") || f.contains("not a replica")
        || f.contains("was replaced")).count();
    long orphans = run.findings.stream().filter(f -> f.contains("orphan") || f.contains("owner references")).count();
    long backwards = run.findings.stream().filter(f -> f.contains("went backwards")).count();
    b.append("lost (did not converge): ").append(lost).append(", duplicated or needlessly replaced pods: ")
        .append(duplicated).append(", orphans: ").append(orphans).append(", statuses gone backwards: ")
        .append(backwards).append('\n');
  }
}
