package dev.stint.e2e;

import static dev.stint.e2e.ChaosCalls.retry;
import static dev.stint.e2e.ChaosCalls.sleep;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The paused leader: the run's operator makes way for two replicas with leader election on (a Lease of their own),
 * each its own user of the API server ({@code e2e/cluster.sh}'s {@code stint-replica-a} and {@code -b}), so that the
 * audit log tells their requests apart. The leader is frozen (SIGSTOP) past its Lease, the standby takes over, one of
 * the round's driving steps happens under the standby, then the leader is woken (SIGCONT). Its connections and
 * buffered watch events are all there at once when it wakes, with a cache that the standby's work has made stale;
 * it must exit with code 1 ("Lost leadership") and, by the audit log, make no write from its wake on: no create,
 * update, patch or delete of anything, the Lease included, that the API server answered or judged. A write the
 * fence stopped between its headers and its body reaches the log as a request the server failed to read (500); it
 * carried nothing out, and is printed, not counted. Then the standby stops and the run goes on with one operator again.
 */
final class ChaosLeaders {
  private static final Duration START = Duration.ofSeconds(120);
  /** Far above a lease duration (15 s) plus the standby's retry period (2 s, with jitter). */
  private static final Duration TAKEOVER = Duration.ofSeconds(90);
  /** The standby's time to act on the driving step before the leader wakes (not a check: any time would do). */
  private static final long STANDBY_ACTS_MILLIS = 3000;

  private final ChaosRun run;
  private int pairs;

  ChaosLeaders(ChaosRun run) {
    this.run = run;
  }

  /** A replica: its identity in the Lease, and the user its requests are logged as. */
  private record Replica(OperatorProcess process, String identity, String user) { }

  void pauseLeader(Runnable whileFrozen) {
    run.superviseOperator();
    closeQuietly(run.operator); // one writer at a time: the pair's leader is the only one from here on
    String lease = "stint-chaos-" + (++pairs);
    AuditLog audit = AuditLog.fromNow();
    Replica a = replica("a", lease);
    Replica b = replica("b", lease);
    awaitStarted(a);
    awaitStarted(b);
    await().atMost(TAKEOVER).until(() -> holder(lease) != null);
    Replica leader = holder(lease).equals(a.identity) ? a : b;
    Replica standby = leader == a ? b : a;
    awaitLog(leader, "Became leader (" + leader.identity + ")");

    run.paused = leader.process;
    leader.process.pause();
    Instant paused = Instant.now();
    // the kernel stops a process when it next handles the signal: on a busy machine /proc may say R for a moment
    String state = leader.process.kernelState();
    for (int i = 0; i < 50 && !"T".equals(state); i++) {
      sleep(100);
      state = leader.process.kernelState();
    }
    System.out.println("           " + leader.identity + " (pid " + leader.process.pid() + ") paused at " + paused
        + ", state " + state + " after " + java.time.Duration.between(paused, Instant.now()).toMillis()
        + " ms; the pair's processes: " + replicasOnMachine(leader.identity, standby.identity));
    if (!tookOver(lease, leader, standby)) {
      leader.process.resume();
      run.paused = null;
      closeQuietly(leader.process);
      closeQuietly(standby.process);
      run.operator = run.startOperator();
      whileFrozen.run(); // the plan's step, under one operator again, so that the round's expectations still hold
      return;
    }
    awaitLog(standby, "Became leader (" + standby.identity + ")");
    System.out.println("           " + standby.identity + " took Lease " + lease + " over from the frozen "
        + leader.identity);
    whileFrozen.run();
    sleep(STANDBY_ACTS_MILLIS);
    Instant woken = Instant.now();
    leader.process.resume();
    run.paused = null;

    checkWokenLeader(leader, woken, audit);
    closeQuietly(standby.process);
    run.operator = run.startOperator();
  }

  /**
   * Whether the standby took the Lease over within {@link #TAKEOVER}; if not, a finding that says what the kernel and
   * the Lease said then (the soak trial's seed 256938156115911 saw a "paused" leader renew its Lease throughout).
   */
  private boolean tookOver(String lease, Replica leader, Replica standby) {
    try {
      await().atMost(TAKEOVER).until(() -> standby.identity.equals(holder(lease)));
      return true;
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      Lease found = run.client.resources(Lease.class).inNamespace(run.ns).withName(lease).get();
      run.findings.add("the standby " + standby.identity + " did not take Lease " + lease + " over within "
          + TAKEOVER.toSeconds() + " s of pausing " + leader.identity + " (pid " + leader.process.pid() + ", state "
          + leader.process.kernelState() + " now; standby pid " + standby.process.pid() + ", state "
          + standby.process.kernelState() + "); the Lease: " + (found == null ? "none" : found.getSpec())
          + "; every Stint replica of the pair on this machine: " + replicasOnMachine(leader.identity, standby.identity)
          + "; logs " + leader.process.logFile() + ", " + standby.process.logFile());
      return false;
    }
  }

  /** It exits with code 1, having said why, and the audit log shows no write of its from its wake on. */
  private void checkWokenLeader(Replica leader, Instant woken, AuditLog audit) {
    try {
      await().atMost(Duration.ofSeconds(60)).until(() -> !leader.process.alive());
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      run.findings.add("the leader " + leader.identity + ", paused past its Lease, still ran 60 s after waking");
      closeQuietly(leader.process);
    }
    if (!leader.process.alive() && (leader.process.exitValue() != 1
        || !leader.process.log().contains("Lost leadership (" + leader.identity + ")"))) {
      run.findings.add("the leader " + leader.identity + ", paused past its Lease, exited with "
          + leader.process.exitValue() + " without \"Lost leadership\"; log " + leader.process.logFile());
    }
    List<AuditLog.Request> requests = audit.requestsOf(leader.user);
    if (requests.isEmpty()) {
      throw new IllegalStateException("the audit log shows no request of " + leader.user + ": the local cluster "
          + "was started by an older e2e/cluster.sh (e2e/cluster.sh down, then up)");
    }
    List<AuditLog.Request> afterWaking = requests.stream().filter(r -> r.write() && !r.received().isBefore(woken))
        .toList();
    List<String> writes = afterWaking.stream().filter(AuditLog.Request::answered)
        .map(r -> r.received() + " " + r.describe()).toList();
    List<String> cutShort = afterWaking.stream().filter(r -> !r.answered())
        .map(r -> r.received() + " " + r.describe() + " (" + r.message() + ")").toList();
    System.out.println("           " + leader.identity + " woken at " + woken + ": " + writes.size()
        + " write(s) after waking, " + requests.size() + " request(s) of " + leader.user + " in the audit log"
        + (cutShort.isEmpty() ? "" : "; failed in the API server, not carried out: " + String.join("; ", cutShort)));
    if (!writes.isEmpty()) {
      run.findings.add("the leader " + leader.identity + ", paused past its Lease and woken at " + woken
          + ", wrote after waking (audit log, user " + leader.user + "): "
          + writes.stream().collect(Collectors.joining("; ")) + "; log " + leader.process.logFile());
    }
  }

  private Replica replica(String letter, String lease) {
    Path kubeconfig = LocalCluster.kubeconfig().resolveSibling("kubeconfig-replica-" + letter);
    if (!Files.exists(kubeconfig)) {
      throw new IllegalStateException(kubeconfig + " is missing: the local cluster was started by an older "
          + "e2e/cluster.sh (e2e/cluster.sh down, then up)");
    }
    String identity = "chaos-" + letter + "-" + pairs;
    OperatorProcess process = OperatorProcess.start(
        Map.of("POD_NAME", identity, "KUBECONFIG", kubeconfig.toString()), "--leader-election=true",
        "--leader-election-namespace=" + run.ns, "--leader-election-id=" + lease);
    run.operators.add(process);
    return new Replica(process, identity, "stint-replica-" + letter);
  }

  private String holder(String lease) {
    Lease found = retry("read Lease " + lease,
        () -> run.client.resources(Lease.class).inNamespace(run.ns).withName(lease).get());
    return found == null || found.getSpec() == null ? null : found.getSpec().getHolderIdentity();
  }

  private static void awaitStarted(Replica replica) {
    try {
      replica.process.awaitStarted(START);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void awaitLog(Replica replica, String line) {
    await().atMost(Duration.ofSeconds(60)).until(() -> replica.process.log().contains(line));
  }

  /**
   * Every process on the machine whose environment names one of these identities (POD_NAME), with its pid and state:
   * a second process renewing in a replica's name (one left over, one started twice) shows here, a missed SIGSTOP as
   * the paused pid's state.
   */
  static String replicasOnMachine(String... identities) {
    java.util.List<String> found = new java.util.ArrayList<>();
    try (java.util.stream.Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path proc : procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).toList()) {
        try {
          String env = Files.readString(proc.resolve("environ"), java.nio.charset.StandardCharsets.ISO_8859_1);
          for (String identity : identities) {
            if (("\0" + env).contains("\0POD_NAME=" + identity + "\0")) {
              String stat = Files.readString(proc.resolve("stat"));
              found.add("pid " + proc.getFileName() + " " + identity + " state "
                  + stat.charAt(stat.lastIndexOf(')') + 2));
            }
          }
        } catch (java.io.IOException | RuntimeException e) {
          // gone meanwhile, or not ours to read
        }
      }
    } catch (java.io.IOException e) {
      return "(no /proc: " + e.getMessage() + ")";
    }
    return found.isEmpty() ? "none" : String.join(", ", found);
  }

  private static void closeQuietly(OperatorProcess process) {
    if (process == null) {
      return;
    }
    try {
      process.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
