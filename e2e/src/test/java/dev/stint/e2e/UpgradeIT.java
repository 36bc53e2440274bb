package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stint.e2e.RbacJobs.Kind;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
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
 * is asserted on a moment between two states.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class UpgradeIT {
  private static final Duration WAIT = Duration.ofSeconds(150);
  private static final Duration START = Duration.ofSeconds(180);
  /** Far above the Lease's 15 s and a standby's retry period. */
  private static final Duration TAKEOVER = Duration.ofSeconds(90);
  private static final String LEASE = "stint-upgrade";
  private static final String PREVIOUS = "stint-previous";
  private static final String NEW = "stint-new";
  private static final Kind PT = kind(RbacJobs.PYTORCH, "Master", 1, "Worker", 1);
  private static final Kind PT_MASTER = RbacJobs.PYTORCH;
  private static final Kind PT_WORKERS = kind(RbacJobs.PYTORCH, "Worker", 2);

  /** A job of the test: its kind and name. */
  private record Job(Kind kind, String name) {
    int size() {
      return kind.replicas().values().stream().mapToInt(Integer::intValue).sum();
    }

    @Override
    public String toString() {
      return kind.kind() + " " + name;
    }
  }

  private static final Job PYTORCH = new Job(PT, "pytorch");
  private static final Job TENSORFLOW = new Job(RbacJobs.TENSORFLOW, "tensorflow");
  private static final Job MPI = new Job(RbacJobs.MPI, "mpi");
  private static final Job SUSPENDED = new Job(PT, "suspended");
  private static final Job RESTARTED = new Job(PT, "restarted");
  private static final Job WAITING = new Job(PT_MASTER, "waiting");
  private static final Job DONE = new Job(PT_MASTER, "done");
  private static final Job PARTIAL = new Job(PT_WORKERS, "partial");
  /** Made to wait by the new Stint, and carried into the rollback so. */
  private static final Job WAITING_NEW = new Job(PT_MASTER, "waiting-new");
  private static final List<Job> JOBS = List.of(PYTORCH, TENSORFLOW, MPI, SUSPENDED, RESTARTED, WAITING, DONE,
      PARTIAL, WAITING_NEW);

  private static KubernetesClient client;
  private static String ns;
  private static Path previousJar;
  private static PodGuard guard;
  private static StatusHistory history;
  private static final List<OperatorProcess> started = new ArrayList<>();
  /** The Stint running now. */
  private static OperatorProcess operator;
  /** What each job's status counts must be: restarts and suspensions. */
  private static final Map<Job, Integer> restarts = new HashMap<>();
  private static final Map<Job, Integer> suspensions = new HashMap<>();
  /** The finished jobs' statuses as the previous Stint left them, which nothing may change. */
  private static final Map<Job, String> finished = new HashMap<>();
  /** How many steps passed: each step starts from the state the one before left, so it runs only after it. */
  private static int passed;

  @BeforeAll
  static void previousStintWithItsCrds() {
    client = LocalCluster.client();
    previousJar = previousJar();
    Path previousCrds = previousJar.getParent().getParent().getParent().resolve("crds");
    Kubectl.run("apply", "--server-side", "--force-conflicts", "-f", previousCrds.toString()).assertOk();
    ns = LocalCluster.namespace(client, "upgrade");
    guard = new PodGuard(client, ns);
    history = new StatusHistory(client, ns);
  }

  @AfterAll
  static void stopAndRestoreTheCrds() throws InterruptedException {
    try {
      for (OperatorProcess p : started) {
        p.close();
      }
      if (guard != null) {
        guard.close();
      }
      if (history != null) {
        history.close();
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
    operator = start(previousJar, PREVIOUS, false);
    operator.awaitStarted(START);
    create(PYTORCH, running(PYTORCH));
    create(TENSORFLOW, running(TENSORFLOW));
    create(MPI, running(MPI));
    create(SUSPENDED, running(SUSPENDED));
    create(RESTARTED, RESTARTED.kind.manifest(RESTARTED.name, null, "OnFailure", "{failurePolicy: {maxRestarts: 5}}",
        ""));
    create(WAITING, waiting(WAITING));
    create(DONE, DONE.kind.manifest(DONE.name, 0, "OnFailure", "{}", ""));
    create(PARTIAL, PARTIAL.kind.manifest(PARTIAL.name, null, "Never",
        "{successPolicy: {rules: [{succeeded: {Worker: 1}}]}}", ""));
    for (Job job : List.of(PYTORCH, TENSORFLOW, MPI, SUSPENDED, RESTARTED, PARTIAL)) {
      awaitRunning(job, Set.of());
    }
    suspend(SUSPENDED);
    gangRestart(RESTARTED);
    partialSuccess(PARTIAL);
    awaitSucceeded(DONE, false);
    awaitSuspended(SUSPENDED);
    awaitWaiting(WAITING);
    assertOneLauncher();
    finished.put(DONE, fingerprint(DONE));
    finished.put(PARTIAL, fingerprint(PARTIAL));

    switchTo(() -> {
      LocalCluster.installCrds(); // step 1 of docs/operations.md "Upgrade"
      return start(OperatorProcess.currentJar(), NEW, false);
    }, "after-upgrade");

    // every live job goes on under the new Stint
    suspend(PYTORCH);
    suspend(TENSORFLOW);
    suspend(MPI);
    suspend(WAITING);
    resume(SUSPENDED);
    gangRestart(RESTARTED);
    assertThat(status(RESTARTED).getQuickRestarts()).as("the new Stint counts quick restarts").isPositive();
    create(WAITING_NEW, waiting(WAITING_NEW));
    for (Job job : List.of(PYTORCH, TENSORFLOW, MPI, WAITING)) {
      awaitSuspended(job);
    }
    unblock(WAITING); // as Kueue edits a suspended job's templates; it stays suspended into the rollback
    resume(PYTORCH);
    resume(TENSORFLOW);
    resume(MPI);
    awaitRunning(SUSPENDED, Set.of());
    awaitWaiting(WAITING_NEW);
    for (Job job : List.of(PYTORCH, TENSORFLOW, MPI)) {
      awaitRunning(job, Set.of());
    }
    assertOneLauncher();
    end(PYTORCH);
    end(SUSPENDED);
    awaitSucceeded(PYTORCH, true);
    awaitSucceeded(SUSPENDED, true);
    assertNothingWrong();
    passed = 1;
  }

  @Test
  @Order(2)
  void aRollbackKeepingTheNewCrdsCarriesEveryJobOnAsItWas() throws InterruptedException {
    assumeTrue(passed == 1, "the upgrade failed: nothing to roll back");
    // the previous Stint again, on the new CRDs (docs/operations.md "Rolling back"), with leader election on: it will
    // be the leader of the rolling upgrade
    switchTo(() -> {
      forgetQuickRestarts();
      return start(previousJar, PREVIOUS, true);
    }, "after-rollback");
    await("the previous Stint leads").atMost(TAKEOVER).untilAsserted(() -> assertThat(holder()).isEqualTo(PREVIOUS));

    suspend(TENSORFLOW);
    suspend(MPI);
    suspend(WAITING_NEW);
    resume(WAITING); // unblocked while suspended by the new Stint: now it runs
    awaitSuspended(TENSORFLOW);
    awaitSuspended(MPI);
    awaitSuspended(WAITING_NEW);
    unblock(WAITING_NEW);
    resume(TENSORFLOW);
    resume(MPI);
    resume(WAITING_NEW);
    for (Job job : List.of(TENSORFLOW, MPI, WAITING, WAITING_NEW)) {
      awaitRunning(job, Set.of());
    }
    assertOneLauncher();
    end(TENSORFLOW);
    end(WAITING);
    end(WAITING_NEW);
    awaitSucceeded(TENSORFLOW, true);
    awaitSucceeded(WAITING, true);
    awaitSucceeded(WAITING_NEW, true);
    assertNothingWrong();
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

    Map<Job, String> before = carriedState();
    previous.close(); // SIGTERM, as a rolling update stops the old pod
    operator = standby;
    await("the new Stint leads").atMost(TAKEOVER).untilAsserted(() -> assertThat(holder()).isEqualTo(NEW));
    await().atMost(WAIT).untilAsserted(() -> assertThat(standby.log()).contains("Became leader (" + NEW + ")"));
    Job after = new Job(PT, "after-handover");
    create(after, running(after));
    awaitRunning(after, Set.of());
    assertCarried(before);

    end(MPI);
    end(RESTARTED);
    end(after);
    awaitSucceeded(MPI, true);
    awaitSucceeded(RESTARTED, true);
    awaitSucceeded(after, true);
    assertThat(status(MPI).getSuspensions()).isEqualTo(2);
    assertThat(status(RESTARTED).getRestarts()).isEqualTo(2);
    assertNothingWrong();
  }

  /**
   * Stops the running Stint with the jobs as they are, starts the next one, and checks that it changed nothing: no
   * pod made or deleted, every status as it was, one launcher. A job called {@code marker} created once it runs must
   * succeed first: the jobs found at its start have had their first pass by then.
   */
  private static void switchTo(Next next, String marker) throws InterruptedException {
    guard.guardAll();
    operator.close(); // SIGTERM; returns once it has exited, so nothing it writes comes after what is read here
    Map<Job, String> before = carriedState();
    operator = next.start();
    operator.awaitStarted(START);
    Job probe = new Job(PT_MASTER, marker);
    create(probe, probe.kind.manifest(marker, 0, "OnFailure", "{}", ""));
    awaitSucceeded(probe, false);
    assertCarried(before);
  }

  @FunctionalInterface
  private interface Next {
    OperatorProcess start() throws InterruptedException;
  }

  /** Every job's status and pods, with the watch on every pod of every job from now on. */
  private static Map<Job, String> carriedState() {
    guard.guardAll();
    Map<Job, String> state = new LinkedHashMap<>();
    for (Job job : JOBS) {
      if (RbacJobs.get(client, job.kind, ns, job.name) != null) {
        state.put(job, fingerprint(job) + "; pods " + new TreeMap<>(allPods(job)));
      }
    }
    return state;
  }

  private static void assertCarried(Map<Job, String> before) {
    assertThat(guard.violations()).as("pods made or deleted by the switch").isEmpty();
    before.forEach((job, state) -> assertThat(fingerprint(job) + "; pods " + new TreeMap<>(allPods(job)))
        .as("%s as the stopped Stint left it", job).isEqualTo(state));
    before.keySet().forEach(UpgradeIT::assertCounts);
    assertOneLauncher();
  }

  private static void assertNothingWrong() {
    assertThat(guard.violations()).as("pods made or deleted behind the test's back").isEmpty();
    assertThat(history.violations()).as("statuses that went back").isEmpty();
    finished.forEach((job, state) -> assertThat(fingerprint(job)).as("%s, finished under the previous Stint", job)
        .isEqualTo(state));
    JOBS.stream().filter(job -> RbacJobs.get(client, job.kind, ns, job.name) != null).forEach(UpgradeIT::assertCounts);
    assertThat(operator.alive()).as("the Stint is still up; see %s", operator.logFile()).isTrue();
  }

  private static void assertCounts(Job job) {
    JobStatus s = status(job);
    assertThat(orZero(s.getRestarts())).as("%s restarts", job).isEqualTo(restarts.getOrDefault(job, 0));
    assertThat(orZero(s.getSuspensions())).as("%s suspensions", job).isEqualTo(suspensions.getOrDefault(job, 0));
  }

  /** The job's MPIJob launcher: exactly one live pod, when the job runs. */
  private static void assertOneLauncher() {
    JobStatus s = status(MPI);
    if (s.isTrue("Running")) {
      assertThat(live(MPI)).filteredOn(p -> "launcher".equals(p.getMetadata().getLabels()
          .get("training.kubeflow.org/job-role"))).as("the MPIJob's live launcher pods").hasSize(1);
    }
  }

  // ---- what the test does to jobs

  /**
   * What docs/operations.md "Rolling back" says to do first when going back past {@code 3a38b4a}, once the newer
   * Stint has stopped: remove {@code status.quickRestarts} from every job that has it. The previous Stint's status
   * type knows no such field, and one job carrying it stops the older Stint from listing its kind at all (it serves
   * no job of that kind, retrying the informer forever).
   */
  private static void forgetQuickRestarts() {
    for (String plural : List.of("pytorchjobs", "tfjobs", "mpijobs")) {
      String names = Kubectl.run("get", plural + ".kubeflow.org", "-n", ns, "-o",
          "jsonpath={range .items[?(@.status.quickRestarts)]}{.metadata.name}{\"\\n\"}{end}").assertOk().stdout();
      names.lines().filter(n -> !n.isBlank()).forEach(name -> Kubectl.run("patch", plural + ".kubeflow.org", name,
          "-n", ns, "--subresource=status", "--type=json",
          "-p", "[{\"op\": \"remove\", \"path\": \"/status/quickRestarts\"}]").assertOk());
    }
  }

  private static void create(Job job, String manifest) {
    guard.release(job);
    Kubectl.runWithInput(manifest, "create", "-n", ns, "-f", "-").assertOk();
  }

  private static String running(Job job) {
    return job.kind.manifest(job.name, null, "OnFailure", "{}", "");
  }

  /** A job whose pods ask for a node no one has: they stay Pending, unschedulable, until {@link #unblock}. */
  private static String waiting(Job job) {
    return running(job).replace("spec: {containers:", "spec: {nodeSelector: {stint.dev/pool: nowhere}, containers:");
  }

  private static void unblock(Job job) {
    guard.release(job);
    Kubectl.run("patch", job.kind.plural() + ".kubeflow.org", job.name, "-n", ns, "--type=json", "-p",
        "[{\"op\": \"remove\", \"path\": \"/spec/" + job.kind.specField() + "/Master/template/spec/nodeSelector\"}]")
        .assertOk();
  }

  private static void suspend(Job job) {
    guard.release(job);
    RbacJobs.suspend(job.kind, ns, job.name, true);
    suspensions.merge(job, 1, Integer::sum);
  }

  private static void resume(Job job) {
    guard.release(job);
    RbacJobs.suspend(job.kind, ns, job.name, false);
  }

  /** One worker exits 1: the failure policy restarts the whole gang, every pod new. */
  private static void gangRestart(Job job) {
    guard.release(job);
    Set<String> before = uids(job);
    Pod worker = live(job).stream().filter(p -> p.getMetadata().getName().contains("-worker-")).findFirst()
        .orElseThrow();
    exit(worker, 1);
    restarts.merge(job, 1, Integer::sum);
    awaitRunning(job, before);
  }

  /** Worker 0 fails, then worker 1 succeeds: the rule {Worker: 1} holds with a failed replica. */
  private static void partialSuccess(Job job) {
    guard.release(job);
    exit(client.pods().inNamespace(ns).withName(job.name + "-worker-0").get(), 1);
    await(job + " worker 0 failed").atMost(WAIT).until(() -> "Failed".equals(client.pods().inNamespace(ns)
        .withName(job.name + "-worker-0").get().getStatus().getPhase()));
    exit(client.pods().inNamespace(ns).withName(job.name + "-worker-1").get(), 0);
    await(job + " partially succeeded").atMost(WAIT).untilAsserted(() -> {
      JobStatus s = status(job);
      assertThat(s.isTrue("PartiallySucceeded")).isTrue();
      assertThat(s.isTrue("Succeeded")).isTrue();
      assertThat(s.condition("Succeeded").orElseThrow().getReason()).isEqualTo("PyTorchJobPartiallySucceeded");
      assertThat(s.getReplicaStatuses().get("Worker").getFailedIndexes()).isEqualTo("0");
    });
    awaitNothingRuns(job);
  }

  /** Every pod of the job exits 0. */
  private static void end(Job job) {
    guard.release(job);
    RbacJobs.finish(client, ns, job.name, 0);
  }

  private static void exit(Pod pod, int code) {
    Kubectl.run("annotate", "pod", pod.getMetadata().getName(), "-n", ns, "--overwrite",
        "stint.dev/kwok-exit-code=" + code).assertOk();
  }

  // ---- what the test waits for

  /**
   * Every replica has a running pod, none of them one of {@code old}, no other pod is left (not even one being
   * deleted), and the job says it runs.
   */
  private static void awaitRunning(Job job, Set<String> old) {
    await(job + " running").atMost(WAIT).untilAsserted(() -> {
      List<Pod> pods = RbacJobs.pods(client, ns, job.name);
      assertThat(pods).hasSize(job.size()).allSatisfy(p -> {
        assertThat(p.getMetadata().getDeletionTimestamp()).isNull();
        assertThat(p.getStatus().getPhase()).isEqualTo("Running");
        assertThat(p.getMetadata().getUid()).isNotIn(old);
      });
      JobStatus s = status(job);
      assertThat(s.isTrue("Running")).isTrue();
      assertThat(s.isTrue("Suspended")).isFalse();
    });
    assertCounts(job);
  }

  private static void awaitSuspended(Job job) {
    await(job + " suspended").atMost(WAIT).untilAsserted(() -> {
      assertThat(RbacJobs.pods(client, ns, job.name)).isEmpty();
      JobStatus s = status(job);
      assertThat(s.isTrue("Suspended")).isTrue();
      assertThat(s.isTrue("Running")).isFalse();
      assertThat(s.condition("Suspended").orElseThrow().getReason()).isEqualTo(job.kind.kind() + "Suspended");
    });
    assertCounts(job);
  }

  private static void awaitWaiting(Job job) {
    await(job + " waiting").atMost(WAIT).untilAsserted(() -> {
      assertThat(live(job)).hasSize(job.size())
          .allSatisfy(p -> assertThat(p.getStatus().getPhase()).isEqualTo("Pending"));
      JobCondition waiting = status(job).condition("PodsWaiting").orElseThrow();
      assertThat(waiting.getStatus()).isEqualTo("True");
      assertThat(waiting.getReason()).isEqualTo(job.kind.kind() + "Unschedulable");
    });
    assertCounts(job);
  }

  /** Succeeded in full; with {@code ending}, the test keeps telling new pods to end (one may be replaced). */
  private static void awaitSucceeded(Job job, boolean ending) {
    await(job + " succeeded").atMost(WAIT).untilAsserted(() -> {
      if (ending) {
        RbacJobs.finish(client, ns, job.name, 0);
      }
      JobStatus s = status(job);
      assertThat(s.isTrue("Succeeded")).as("%s", StatusHistory.describe(s)).isTrue();
      assertThat(s.condition("Succeeded").orElseThrow().getReason()).isEqualTo(job.kind.kind() + "Succeeded");
      assertThat(s.isTrue("PartiallySucceeded")).isFalse();
      assertThat(s.isTrue("Failed")).isFalse();
      assertThat(s.getCompletionTime()).isNotNull();
    });
    awaitNothingRuns(job);
    assertCounts(job);
  }

  private static void awaitNothingRuns(Job job) {
    await(job + ": no pod running").atMost(WAIT).untilAsserted(() -> assertThat(RbacJobs.pods(client, ns, job.name))
        .noneSatisfy(p -> assertThat(p.getStatus().getPhase()).isIn("Running", "Pending")));
  }

  // ---- what the test reads

  private static JobStatus status(Job job) {
    var found = RbacJobs.get(client, job.kind, ns, job.name);
    return found == null ? new JobStatus() : StatusHistory.statusOf(client, found);
  }

  /**
   * What must not change when nobody acts on the job: each condition (type, status, reason, last transition), the
   * counts, the times, each replica type's counts and indexes.
   */
  private static String fingerprint(Job job) {
    JobStatus s = status(job);
    StringBuilder b = new StringBuilder();
    if (s.getConditions() != null) {
      s.getConditions().forEach(c -> b.append(c.getType()).append('=').append(c.getStatus()).append('(')
          .append(c.getReason()).append(", ").append(c.getLastTransitionTime()).append(") "));
    }
    b.append("restarts ").append(orZero(s.getRestarts())).append(", suspensions ").append(orZero(s.getSuspensions()))
        .append(", start ").append(s.getStartTime()).append(", completion ").append(s.getCompletionTime());
    if (s.getReplicaStatuses() != null) {
      new TreeMap<>(s.getReplicaStatuses()).forEach((type, r) -> b.append(", ").append(type).append(" {active ")
          .append(r.active()).append(", restarts ").append(r.restarts()).append(", succeeded ").append(r.succeeded()).append(' ')
          .append(r.getSucceededIndexes()).append(", failed ").append(r.failed()).append(' ')
          .append(r.getFailedIndexes()).append('}'));
    }
    return b.toString();
  }

  /** Every pod of the job, the finished ones too: uid by name. */
  private static Map<String, String> allPods(Job job) {
    return RbacJobs.pods(client, ns, job.name).stream().collect(Collectors.toMap(p -> p.getMetadata().getName(),
        p -> p.getMetadata().getUid()));
  }

  private static List<Pod> live(Job job) {
    return RbacJobs.pods(client, ns, job.name).stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .toList();
  }

  private static Set<String> uids(Job job) {
    return live(job).stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
  }

  private static String holder() {
    Lease found = client.resources(Lease.class).inNamespace(ns).withName(LEASE).get();
    return found == null || found.getSpec() == null ? null : found.getSpec().getHolderIdentity();
  }

  private static int orZero(Integer n) {
    return n == null ? 0 : n;
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

  private static Kind kind(Kind base, Object... typesAndCounts) {
    Map<String, Integer> replicas = new LinkedHashMap<>();
    for (int i = 0; i < typesAndCounts.length; i += 2) {
      replicas.put((String) typesAndCounts[i], (Integer) typesAndCounts[i + 1]);
    }
    return new Kind(base.apiVersion(), base.kind(), base.plural(), base.specField(), base.container(), replicas);
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

  /**
   * Every creation and deletion of a pod of a guarded job, as a watch delivers them: a job is guarded from before an
   * operator switch until the test acts on it.
   */
  private static final class PodGuard implements AutoCloseable {
    private static final String JOB_LABEL = "training.kubeflow.org/job-name";
    private final Set<String> guarded = ConcurrentHashMap.newKeySet();
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    /** The pods as the events handled so far tell them: uid to pod. */
    private final Map<String, Pod> current = new ConcurrentHashMap<>();
    private final List<String> violations = java.util.Collections.synchronizedList(new ArrayList<>());
    private final SharedIndexInformer<Pod> informer;
    private final KubernetesClient client;
    private final String ns;

    PodGuard(KubernetesClient client, String ns) {
      this.client = client;
      this.ns = ns;
      informer = client.pods().inNamespace(ns).inform(new ResourceEventHandler<>() {
        @Override
        public void onAdd(Pod pod) {
          current.put(pod.getMetadata().getUid(), pod);
          if (seen.add(pod.getMetadata().getUid())) {
            check(pod, "created");
          }
        }

        @Override
        public void onUpdate(Pod old, Pod pod) {
          current.put(pod.getMetadata().getUid(), pod);
          if (old.getMetadata().getDeletionTimestamp() == null && pod.getMetadata().getDeletionTimestamp() != null) {
            check(pod, "deleted");
          }
        }

        @Override
        public void onDelete(Pod pod, boolean unknownFinalState) {
          current.remove(pod.getMetadata().getUid());
          check(pod, "removed");
        }
      }, 0);
    }

    private void check(Pod pod, String what) {
      String job = pod.getMetadata().getLabels() == null ? null : pod.getMetadata().getLabels().get(JOB_LABEL);
      if (job != null && guarded.contains(job)) {
        violations.add("pod " + pod.getMetadata().getName() + " (uid " + pod.getMetadata().getUid() + ") of " + job
            + " " + what + " at " + java.time.Instant.now() + " with no action on the job");
      }
    }

    /**
     * Guards every job, once the events handled so far tell the pods as the API server lists them now (uid and
     * whether being deleted): an event of what the test did before, still on its way, is not taken for the switch's.
     */
    void guardAll() {
      await("the pod watch caught up").atMost(WAIT).untilAsserted(() -> assertThat(view(current.values()))
          .isEqualTo(view(client.pods().inNamespace(ns).list().getItems())));
      JOBS.forEach(job -> guarded.add(job.name));
    }

    private static Map<String, Boolean> view(java.util.Collection<Pod> pods) {
      return pods.stream().collect(Collectors.toMap(p -> p.getMetadata().getUid(),
          p -> p.getMetadata().getDeletionTimestamp() != null, (a, b) -> a, TreeMap::new));
    }

    void release(Job job) {
      guarded.remove(job.name);
    }

    List<String> violations() {
      return List.copyOf(violations);
    }

    @Override
    public void close() {
      informer.close();
    }
  }
}
