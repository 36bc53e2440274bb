package dev.stint.e2e;

import static dev.stint.e2e.UpgradeFleet.DONE;
import static dev.stint.e2e.UpgradeFleet.MPI;
import static dev.stint.e2e.UpgradeFleet.PARTIAL;
import static dev.stint.e2e.UpgradeFleet.PT;
import static dev.stint.e2e.UpgradeFleet.PT_MASTER;
import static dev.stint.e2e.UpgradeFleet.PYTORCH;
import static dev.stint.e2e.UpgradeFleet.RESTARTED;
import static dev.stint.e2e.UpgradeFleet.SUSPENDED;
import static dev.stint.e2e.UpgradeFleet.TENSORFLOW;
import static dev.stint.e2e.UpgradeFleet.WAIT;
import static dev.stint.e2e.UpgradeFleet.WAITING;
import static dev.stint.e2e.UpgradeFleet.WAITING_NEW;
import static dev.stint.e2e.UpgradeFleet.running;
import static dev.stint.e2e.UpgradeFleet.waiting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stint.e2e.UpgradeFleet.Job;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * An upgrade, a rollback and a rolling upgrade of two replicas under running jobs, on the local control plane: the
 * previous version of Stint is the commit named in {@code e2e/previous-version} (why that one is said there), built
 * once by {@code e2e/previous-stint.sh}; the new one is this checkout's jar.
 *
 * <ol>
 *   <li>The previous Stint, on its own CRDs (they coexist with the new ones: the new ones only add optional fields),
 *   makes jobs in every state: a PyTorchJob, a TFJob and an MPIJob (its launcher a batch Job) running, one suspended
 *   after it ran, one whose failurePolicy restarted its gang once, one whose pod cannot be scheduled
 *   ({@code PodsWaiting}), one succeeded, one partially succeeded. It stops; the new CRDs are applied and the new Stint
 *   starts. Nothing is recreated or deleted, no status changes (conditions with their times, restarts, suspensions),
 *   the MPIJob has one launcher; then the live jobs suspend, resume, restart a gang and end under the new Stint, which
 *   also makes a job wait and leaves one suspended.</li>
 *   <li>Rollback, as docs/operations.md says: the new CRDs kept, the previous Stint started again (with leader
 *   election, for the next step). The same checks, and the jobs the new Stint left suspend, resume and end.</li>
 *   <li>Rolling upgrade: the new Stint starts as a standby beside the previous leader, which gets SIGTERM; the new one
 *   takes the Lease over, the running jobs keep their pods, a job created after the handover runs, and all end.</li>
 * </ol>
 *
 * <p>"Nothing recreated" is a watch: from before each switch until the test acts on a job, every creation or deletion
 * of one of its pods is a failure, whenever it comes. The new Stint's first pass over the jobs it found is known to
 * have happened once a job created after its start has been reconciled to its end (the jobs found are queued first);
 * the watch goes on catching what comes later. Every status a job ever has is also checked by {@link StatusHistory}
 * (no finished condition undone, no suspension count going back). Waits are generous (the machine is shared); nothing
 * is asserted on a moment between two states. The jobs, what is done to them and the checks are {@link UpgradeFleet}'s.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class UpgradeIT {
  private static final Duration START = Duration.ofSeconds(180);
  /** Far above the Lease's 15 s and a standby's retry period. */
  private static final Duration TAKEOVER = Duration.ofSeconds(90);
  private static final String LEASE = "stint-upgrade";
  private static final String PREVIOUS = "stint-previous";
  private static final String NEW = "stint-new";

  private static KubernetesClient client;
  private static String ns;
  private static Path previousJar;
  /** The jobs, what the test does to them and what it checks of them. */
  private static UpgradeFleet fleet;
  private static final List<OperatorProcess> started = new ArrayList<>();
  /** The Stint running now. */
  private static OperatorProcess operator;
  /** How many steps passed: each step starts from the state the one before left, so it runs only after it. */
  private static int passed;

  @BeforeAll
  static void previousStintWithItsCrds() {
    client = LocalCluster.client();
    previousJar = previousJar();
    Path previousCrds = previousJar.getParent().getParent().getParent().resolve("crds");
    Kubectl.run("apply", "--server-side", "--force-conflicts", "-f", previousCrds.toString()).assertOk();
    ns = LocalCluster.namespace(client, "upgrade");
    fleet = new UpgradeFleet(client, ns);
  }

  @AfterAll
  static void stopAndRestoreTheCrds() throws InterruptedException {
    try {
      for (OperatorProcess p : started) {
        p.close();
      }
      if (fleet != null) {
        fleet.close();
      }
    } finally {
      if (client != null) {
        LocalCluster.installCrds(); // this checkout's CRDs, whatever happened, for the tests after this one
        if (ns != null) {
          client.namespaces().withName(ns).delete();
        }
        client.close();
      }
    }
  }

  @Test
  @Order(1)
  void anUpgradeCarriesEveryJobOnAsItWas() throws InterruptedException {
    previousStintMakesJobsInEveryState();

    switchTo(() -> {
      LocalCluster.installCrds(); // step 1 of docs/operations.md "Upgrade"
      return start(OperatorProcess.currentJar(), NEW, false);
    }, "after-upgrade");

    // every live job goes on under the new Stint
    fleet.suspend(PYTORCH);
    fleet.suspend(TENSORFLOW);
    fleet.suspend(MPI);
    fleet.suspend(WAITING);
    fleet.resume(SUSPENDED);
    fleet.gangRestart(RESTARTED);
    assertThat(fleet.status(RESTARTED).getQuickRestarts()).as("the new Stint counts quick restarts").isPositive();
    fleet.create(WAITING_NEW, waiting(WAITING_NEW));
    for (Job job : List.of(PYTORCH, TENSORFLOW, MPI, WAITING)) {
      fleet.awaitSuspended(job);
    }
    fleet.unblock(WAITING); // as Kueue edits a suspended job's templates; it stays suspended into the rollback
    fleet.resume(PYTORCH);
    fleet.resume(TENSORFLOW);
    fleet.resume(MPI);
    fleet.awaitRunning(SUSPENDED, Set.of());
    fleet.awaitWaiting(WAITING_NEW);
    for (Job job : List.of(PYTORCH, TENSORFLOW, MPI)) {
      fleet.awaitRunning(job, Set.of());
    }
    fleet.assertOneLauncher();
    endAndAwaitSucceeded(PYTORCH, SUSPENDED);
    fleet.assertNothingWrong(operator);
    passed = 1;
  }

  @Test
  @Order(2)
  void aRollbackKeepingTheNewCrdsCarriesEveryJobOnAsItWas() throws InterruptedException {
    assumeTrue(passed == 1, "the upgrade failed: nothing to roll back");
    // the previous Stint again, on the new CRDs (docs/operations.md "Rolling back"), with leader election on: it will
    // be the leader of the rolling upgrade
    switchTo(() -> {
      fleet.forgetQuickRestarts();
      return start(previousJar, PREVIOUS, true);
    }, "after-rollback");
    await("the previous Stint leads").atMost(TAKEOVER).untilAsserted(() -> assertThat(holder()).isEqualTo(PREVIOUS));

    fleet.suspend(TENSORFLOW);
    fleet.suspend(MPI);
    fleet.suspend(WAITING_NEW);
    fleet.resume(WAITING); // unblocked while suspended by the new Stint: now it runs
    fleet.awaitSuspended(TENSORFLOW);
    fleet.awaitSuspended(MPI);
    fleet.awaitSuspended(WAITING_NEW);
    fleet.unblock(WAITING_NEW);
    fleet.resume(TENSORFLOW);
    fleet.resume(MPI);
    fleet.resume(WAITING_NEW);
    for (Job job : List.of(TENSORFLOW, MPI, WAITING, WAITING_NEW)) {
      fleet.awaitRunning(job, Set.of());
    }
    fleet.assertOneLauncher();
    endAndAwaitSucceeded(TENSORFLOW, WAITING, WAITING_NEW);
    fleet.assertNothingWrong(operator);
    passed = 2;
  }

  @Test
  @Order(3)
  void aRollingUpgradeHandsTheRunningJobsToTheNewStint() throws InterruptedException {
    assumeTrue(passed == 2, "the rollback failed: no previous leader to hand over from");
    OperatorProcess previous = operator;
    OperatorProcess standby = start(OperatorProcess.currentJar(), NEW, true);
    standby.awaitStarted(START);
    await("the new Stint waits as a standby").atMost(WAIT).untilAsserted(() -> assertThat(standby.log())
        .contains("Waiting for leadership (held by " + PREVIOUS + ")"));
    assertThat(holder()).isEqualTo(PREVIOUS);

    Map<Job, String> before = fleet.carriedState();
    previous.close(); // SIGTERM, as a rolling update stops the old pod
    operator = standby;
    await("the new Stint leads").atMost(TAKEOVER).untilAsserted(() -> assertThat(holder()).isEqualTo(NEW));
    await().atMost(WAIT).untilAsserted(() -> assertThat(standby.log()).contains("Became leader (" + NEW + ")"));
    Job after = new Job(PT, "after-handover");
    fleet.create(after, running(after));
    fleet.awaitRunning(after, Set.of());
    fleet.assertCarried(before);

    endAndAwaitSucceeded(MPI, RESTARTED, after);
    assertThat(fleet.status(MPI).getSuspensions()).isEqualTo(2);
    assertThat(fleet.status(RESTARTED).getRestarts()).isEqualTo(2);
    fleet.assertNothingWrong(operator);
  }

  /**
   * The previous Stint, started here, makes jobs in every state: running, suspended after it ran, its gang restarted
   * once, waiting for a node, succeeded, partially succeeded.
   */
  private static void previousStintMakesJobsInEveryState() throws InterruptedException {
    operator = start(previousJar, PREVIOUS, false);
    operator.awaitStarted(START);
    fleet.create(PYTORCH, running(PYTORCH));
    fleet.create(TENSORFLOW, running(TENSORFLOW));
    fleet.create(MPI, running(MPI));
    fleet.create(SUSPENDED, running(SUSPENDED));
    fleet.create(RESTARTED, RESTARTED.kind().manifest(RESTARTED.name(), null, "OnFailure",
        "{failurePolicy: {maxRestarts: 5}}", ""));
    fleet.create(WAITING, waiting(WAITING));
    fleet.create(DONE, DONE.kind().manifest(DONE.name(), 0, "OnFailure", "{}", ""));
    fleet.create(PARTIAL, PARTIAL.kind().manifest(PARTIAL.name(), null, "Never",
        "{successPolicy: {rules: [{succeeded: {Worker: 1}}]}}", ""));
    for (Job job : List.of(PYTORCH, TENSORFLOW, MPI, SUSPENDED, RESTARTED, PARTIAL)) {
      fleet.awaitRunning(job, Set.of());
    }
    fleet.suspend(SUSPENDED);
    fleet.gangRestart(RESTARTED);
    fleet.partialSuccess(PARTIAL);
    fleet.awaitSucceeded(DONE, false);
    fleet.awaitSuspended(SUSPENDED);
    fleet.awaitWaiting(WAITING);
    fleet.assertOneLauncher();
    fleet.keepFinished(DONE);
    fleet.keepFinished(PARTIAL);
  }

  /**
   * Stops the running Stint with the jobs as they are, starts the next one, and checks that it changed nothing: no
   * pod made or deleted, every status as it was, one launcher. A job called {@code marker} created once it runs must
   * succeed first: the jobs found at its start have had their first pass by then.
   */
  private static void switchTo(Next next, String marker) throws InterruptedException {
    fleet.guardAll();
    operator.close(); // SIGTERM; returns once it has exited, so nothing it writes comes after what is read here
    Map<Job, String> before = fleet.carriedState();
    operator = next.start();
    operator.awaitStarted(START);
    Job probe = new Job(PT_MASTER, marker);
    fleet.create(probe, probe.kind().manifest(marker, 0, "OnFailure", "{}", ""));
    fleet.awaitSucceeded(probe, false);
    fleet.assertCarried(before);
  }

  /** Every pod of these jobs exits 0, all told before any is awaited, and each job succeeds. */
  private static void endAndAwaitSucceeded(Job... jobs) {
    for (Job job : jobs) {
      fleet.end(job);
    }
    for (Job job : jobs) {
      fleet.awaitSucceeded(job, true);
    }
  }

  @FunctionalInterface
  private interface Next {
    OperatorProcess start() throws InterruptedException;
  }

  private static String holder() {
    Lease found = client.resources(Lease.class).inNamespace(ns).withName(LEASE).get();
    return found == null || found.getSpec() == null ? null : found.getSpec().getHolderIdentity();
  }

  private static OperatorProcess start(Path jar, String identity, boolean leaderElection) {
    List<String> args = new ArrayList<>(List.of("--namespaces=" + ns));
    if (leaderElection) {
      args.addAll(List.of("--leader-election=true", "--leader-election-namespace=" + ns,
          "--leader-election-id=" + LEASE));
    }
    OperatorProcess p = OperatorProcess.start(jar, Map.of("POD_NAME", identity), args.toArray(String[]::new));
    started.add(p);
    return p;
  }

  /**
   * The previous version's operator jar, from {@code e2e/previous-stint.sh} (the Maven build ran it before the ITs;
   * run alone, the test builds it, once).
   */
  static Path previousJar() {
    Path log = LocalCluster.ROOT.resolve("e2e/target/previous-stint.log");
    try {
      Files.createDirectories(log.getParent());
      Process p = new ProcessBuilder(LocalCluster.ROOT.resolve("e2e/previous-stint.sh").toString())
          .redirectError(log.toFile()).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!p.waitFor(40, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IllegalStateException("e2e/previous-stint.sh did not finish in 40 minutes; see " + log);
      }
      if (p.exitValue() != 0) {
        throw new IllegalStateException("e2e/previous-stint.sh failed (exit " + p.exitValue() + "): "
            + Files.readString(log));
      }
      Path jar = Path.of(out.lines().reduce((a, b) -> b).orElse(""));
      if (!Files.isRegularFile(jar)) {
        throw new IllegalStateException("e2e/previous-stint.sh printed no jar: " + out);
      }
      return jar;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
