package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.e2e.ChaosFaults.Fault;
import dev.stint.e2e.ChaosPlan.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A seeded chaos run on the real control plane: PyTorchJobs, TFJobs and MPIJobs driven through their life cycle
 * (run, suspend, resume, finish with planned exit codes, partial successes, deletion) while faults land at seeded
 * moments: the operator killed with SIGKILL (after it has started, so mid-reconcile) and started again; kube-apiserver
 * restarted (SIGKILL or SIGTERM); etcd restarted under it (SIGKILL or SIGTERM); watch expiry (operator SIGSTOPped,
 * changes made, etcd compacted, API server restarted, SIGCONT: its watches resume from a compacted revision and get
 * 410 Gone); a job's status clobbered by another client; pods and services deleted behind the operator's back; a
 * kwok node deleted and recreated; a leader paused past its Lease while a standby takes over, then woken (it must
 * exit and, by the API server's audit log, make no write once woken: {@link ChaosLeaders}).
 *
 * <p>Each round plans (from the seed) what happens to each job and which faults land when, plays that timeline, then
 * waits (generously) until every job has converged to the state its driving implies, and checks: one pod per replica,
 * each with exactly one controller owner reference to its live job; no pod, service or supporting object without a
 * live owner; no healthy running pod replaced without cause; {@code status.suspensions} equal to the suspensions the
 * test made of the running job; and, from every status an informer saw during the run, that no status went backwards.
 * A job that does not converge is recorded as a finding with the expected and observed state and the operator's log
 * lines about it, left out of later rounds, and the run goes on; the test fails at the end with every finding.
 *
 * <p>{@code -Dstint.chaos.seed=N} replays a run's plan (the seed is printed first and in every failure);
 * {@code -Dstint.chaos.rounds=N} sets its length (default 3, about 2-3 minutes on 2 cores). The plan is what the seed
 * fixes; how the planned moments interleave with the operator's work is real time. No check depends on two moments
 * falling in different seconds, nor on the order of independent events: every check is on a converged state, and a
 * job moves to its next driven state only from a converged one.
 *
 * <p>The parts, sharing one {@link ChaosRun}: {@link ChaosPlan} (every seeded choice), {@link ChaosDriver} (the jobs'
 * life cycle, the timeline in real time), {@link ChaosFaults} with {@link ChaosLeaders}, {@link ChaosChecks} with
 * {@link ChaosJobCheck}
 * (convergence and invariants) and {@link ChaosTally}.
 */
class ChaosIT {
  static final long SEED = seed();
  static final int ROUNDS = Integer.getInteger("stint.chaos.rounds", 3);
  /**
   * How long a round waits for every job to converge. After an API server restart kwok can take over a minute to take
   * a node up again (its informers back off; 54.7 and 62 s measured), and a job whose pods are on it waits for that.
   */
  static final Duration CONVERGE = Duration.ofSeconds(Long.getLong("stint.chaos.convergeSeconds", 180));
  /** Length of a round's timeline of driving steps and faults. */
  static final long ROUND_MILLIS = Long.getLong("stint.chaos.roundMillis", 14_000);

  /**
   * {@code -Dstint.chaos.faults=KILL_OPERATOR,DELETE_POD} injects only these (to chase one finding); the default,
   * {@code all}, every kind, the API server's restarts included (the harness restarts kube-scheduler with it:
   * docs/fault-tests.md).
   */
  static final List<Fault> FAULTS = faultKinds();

  static KubernetesClient client;
  static String ns;

  static List<Fault> faultKinds() {
    String s = System.getProperty("stint.chaos.faults", "");
    if (s.isBlank() || s.strip().equalsIgnoreCase("all")) {
      return List.of(Fault.values());
    }
    return Arrays.stream(s.split(","))
        .map(f -> Fault.valueOf(f.strip().toUpperCase(Locale.ROOT))).toList();
  }

  static long seed() {
    String s = System.getProperty("stint.chaos.seed", "");
    return s.isBlank() ? new Random().nextLong() & 0xFFFFFFFFFFFFL : Long.parseLong(s.strip());
  }

  @BeforeAll
  static void setUp() {
    System.out.println("ChaosIT seed " + SEED + " (replay with -Dstint.chaos.seed=" + SEED + "), rounds " + ROUNDS
        + ", faults " + FAULTS);
    client = LocalCluster.client();
    LocalCluster.installCrds();
    ns = LocalCluster.namespace(client, "chaos");
    // pods are refused until the namespace's default ServiceAccount exists
    await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
        .until(() -> client.serviceAccounts().inNamespace(ns).withName("default").get() != null);
  }

  @AfterAll
  static void tearDown() {
    if (client != null) {
      try {
        client.namespaces().withName(ns).delete();
      } catch (KubernetesClientException e) {
        System.out.println("could not delete namespace " + ns + ": " + e.getMessage());
      }
      client.close();
    }
  }

  final ChaosRun run = new ChaosRun(client, ns);
  final ChaosDriver driver = new ChaosDriver(run);
  final ChaosFaults faults = new ChaosFaults(run);
  final ChaosPlan plan = new ChaosPlan(SEED, FAULTS, run, driver, faults);
  final ChaosChecks checks = new ChaosChecks(run, driver);

  @Test
  void jobsConvergeThroughSeededFaults() throws Exception {
    long t0 = System.nanoTime();
    run.history = new StatusHistory(client, ns);
    try {
      run.operator = run.startOperator();
      Duration first = run.operator.awaitStarted(Duration.ofSeconds(120));
      System.out.println("operator start-up (process start to \"" + OperatorProcess.STARTED_LINE + "\"): "
          + first.toMillis() + " ms");
      for (int round = 1; round <= ROUNDS; round++) {
        round(round);
      }
    } finally {
      run.resumePaused();
      // the ITs after this one need the cluster whole
      faults.recreateDeletedNodes();
      for (OperatorProcess operator : run.operators) {
        operator.close(); // the run's operator, and any replica a paused-leader fault left behind a failure
      }
      run.history.close();
      ChaosTally.report(run, Duration.ofNanos(System.nanoTime() - t0));
    }
    assertThat(run.findings).as("chaos run with seed %d (replay: -Dstint.chaos.seed=%d); operator logs in %s",
        SEED, SEED, LocalCluster.ROOT.resolve("e2e/target")).isEmpty();
  }

  /** A round: plan, play, converge, check. */
  void round(int round) throws InterruptedException {
    long start = System.nanoTime();
    run.jobs.forEach(ChaosJob::startRound);
    List<Event> events = plan.round(round);
    System.out.println("--- round " + round + " (" + run.live().size() + " live jobs + " + ChaosPlan.fresh(round)
        + " new): " + events.stream().map(e -> e.atMillis() + "ms " + e.what()).collect(Collectors.joining("; ")));

    driver.play(events);
    Duration took = checks.converge(round);
    run.convergence.add(took);
    checks.checkAfterRound(round);
    System.out.println("--- round " + round + " done in " + Duration.ofNanos(System.nanoTime() - start).toMillis()
        + " ms (converged " + took.toMillis() + " ms after its timeline); findings so far: " + run.findings.size());
  }
}
