package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.e2e.RbacJobs.Kind;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The jobs {@link UpgradeIT} carries from one Stint to the next, in one namespace: their kinds and names, what the
 * test does to them, what it waits for and reads of them, and the checks that a switch changed nothing. It keeps what
 * each job's status counts must be (the restarts and suspensions the test caused) and the finished jobs' statuses;
 * its {@link PodGuard} catches every pod made or deleted while the test does not act on the job.
 */
final class UpgradeFleet implements AutoCloseable {
  static final Duration WAIT = Duration.ofSeconds(150);
  static final Kind PT = kind(RbacJobs.PYTORCH, "Master", 1, "Worker", 1);
  static final Kind PT_MASTER = RbacJobs.PYTORCH;
  private static final Kind PT_WORKERS = kind(RbacJobs.PYTORCH, "Worker", 2);

  /** A job of the test: its kind and name. */
  record Job(Kind kind, String name) {
    int size() {
      return kind.replicas().values().stream().mapToInt(Integer::intValue).sum();
    }

    @Override
    public String toString() {
      return kind.kind() + " " + name;
    }
  }

  static final Job PYTORCH = new Job(PT, "pytorch");
  static final Job TENSORFLOW = new Job(RbacJobs.TENSORFLOW, "tensorflow");
  static final Job MPI = new Job(RbacJobs.MPI, "mpi");
  static final Job SUSPENDED = new Job(PT, "suspended");
  static final Job RESTARTED = new Job(PT, "restarted");
  static final Job WAITING = new Job(PT_MASTER, "waiting");
  static final Job DONE = new Job(PT_MASTER, "done");
  static final Job PARTIAL = new Job(PT_WORKERS, "partial");
  /** Made to wait by the new Stint, and carried into the rollback so. */
  static final Job WAITING_NEW = new Job(PT_MASTER, "waiting-new");
  static final List<Job> JOBS = List.of(PYTORCH, TENSORFLOW, MPI, SUSPENDED, RESTARTED, WAITING, DONE,
      PARTIAL, WAITING_NEW);

  private final KubernetesClient client;
  private final String ns;
  private final PodGuard guard;
  private final StatusHistory history;
  /** What each job's status counts must be: restarts and suspensions. */
  private final Map<Job, Integer> restarts = new HashMap<>();
  private final Map<Job, Integer> suspensions = new HashMap<>();
  /** The finished jobs' statuses as the previous Stint left them, which nothing may change. */
  private final Map<Job, String> finished = new HashMap<>();

  /** Watches the namespace's pods and job statuses from now on. */
  UpgradeFleet(KubernetesClient client, String ns) {
    this.client = client;
    this.ns = ns;
    guard = new PodGuard(client, ns, WAIT);
    history = new StatusHistory(client, ns);
  }

  @Override
  public void close() {
    guard.close();
    history.close();
  }

  // ---- what the test checks

  /** The watch on every pod of every job from now on, once it has caught up. */
  void guardAll() {
    guard.guardAll(JOBS.stream().map(Job::name).toList());
  }

  /** The job's status as it is now is what nothing may change from here on: it has finished. */
  void keepFinished(Job job) {
    finished.put(job, fingerprint(job));
  }

  /** Every job's status and pods, with the watch on every pod of every job from now on. */
  Map<Job, String> carriedState() {
    guardAll();
    Map<Job, String> state = new LinkedHashMap<>();
    for (Job job : JOBS) {
      if (RbacJobs.get(client, job.kind, ns, job.name) != null) {
        state.put(job, fingerprint(job) + "; pods " + new TreeMap<>(allPods(job)));
      }
    }
    return state;
  }

  void assertCarried(Map<Job, String> before) {
    assertThat(guard.violations()).as("pods made or deleted by the switch").isEmpty();
    before.forEach((job, state) -> assertThat(fingerprint(job) + "; pods " + new TreeMap<>(allPods(job)))
        .as("%s as the stopped Stint left it", job).isEqualTo(state));
    before.keySet().forEach(this::assertCounts);
    assertOneLauncher();
  }

  /** Nothing behind the test's back, and {@code operator}, the Stint running now, still up. */
  void assertNothingWrong(OperatorProcess operator) {
    assertThat(guard.violations()).as("pods made or deleted behind the test's back").isEmpty();
    assertThat(history.violations()).as("statuses that went back").isEmpty();
    finished.forEach((job, state) -> assertThat(fingerprint(job)).as("%s, finished under the previous Stint", job)
        .isEqualTo(state));
    JOBS.stream().filter(job -> RbacJobs.get(client, job.kind, ns, job.name) != null).forEach(this::assertCounts);
    assertThat(operator.alive()).as("the Stint is still up; see %s", operator.logFile()).isTrue();
  }

  private void assertCounts(Job job) {
    JobStatus s = status(job);
    assertThat(orZero(s.getRestarts())).as("%s restarts", job).isEqualTo(restarts.getOrDefault(job, 0));
    assertThat(orZero(s.getSuspensions())).as("%s suspensions", job).isEqualTo(suspensions.getOrDefault(job, 0));
  }

  /** The job's MPIJob launcher: exactly one live pod, when the job runs. */
  void assertOneLauncher() {
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
  void forgetQuickRestarts() {
    for (String plural : List.of("pytorchjobs", "tfjobs", "mpijobs")) {
      String names = Kubectl.run("get", plural + ".kubeflow.org", "-n", ns, "-o",
          "jsonpath={range .items[?(@.status.quickRestarts)]}{.metadata.name}{\"\\n\"}{end}").assertOk().stdout();
      names.lines().filter(n -> !n.isBlank()).forEach(name -> Kubectl.run("patch", plural + ".kubeflow.org", name,
          "-n", ns, "--subresource=status", "--type=json",
          "-p", "[{\"op\": \"remove\", \"path\": \"/status/quickRestarts\"}]").assertOk());
    }
  }

  void create(Job job, String manifest) {
    guard.release(job.name);
    Kubectl.runWithInput(manifest, "create", "-n", ns, "-f", "-").assertOk();
  }

  static String running(Job job) {
    return job.kind.manifest(job.name, null, "OnFailure", "{}", "");
  }

  /** A job whose pods ask for a node no one has: they stay Pending, unschedulable, until {@link #unblock}. */
  static String waiting(Job job) {
    return running(job).replace("spec: {containers:", "spec: {nodeSelector: {stint.dev/pool: nowhere}, containers:");
  }

  void unblock(Job job) {
    guard.release(job.name);
    Kubectl.run("patch", job.kind.plural() + ".kubeflow.org", job.name, "-n", ns, "--type=json", "-p",
        "[{\"op\": \"remove\", \"path\": \"/spec/" + job.kind.specField() + "/Master/template/spec/nodeSelector\"}]")
        .assertOk();
  }

  void suspend(Job job) {
    guard.release(job.name);
    RbacJobs.suspend(job.kind, ns, job.name, true);
    suspensions.merge(job, 1, Integer::sum);
  }

  void resume(Job job) {
    guard.release(job.name);
    RbacJobs.suspend(job.kind, ns, job.name, false);
  }

  /** One worker exits 1: the failure policy restarts the whole gang, every pod new. */
  void gangRestart(Job job) {
    guard.release(job.name);
    Set<String> before = uids(job);
    Pod worker = live(job).stream().filter(p -> p.getMetadata().getName().contains("-worker-")).findFirst()
        .orElseThrow();
    exit(worker, 1);
    restarts.merge(job, 1, Integer::sum);
    awaitRunning(job, before);
  }

  /** Worker 0 fails, then worker 1 succeeds: the rule {Worker: 1} holds with a failed replica. */
  void partialSuccess(Job job) {
    guard.release(job.name);
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
  void end(Job job) {
    guard.release(job.name);
    RbacJobs.finish(client, ns, job.name, 0);
  }

  private void exit(Pod pod, int code) {
    Kubectl.run("annotate", "pod", pod.getMetadata().getName(), "-n", ns, "--overwrite",
        "stint.dev/kwok-exit-code=" + code).assertOk();
  }

  // ---- what the test waits for

  /**
   * Every replica has a running pod, none of them one of {@code old}, no other pod is left (not even one being
   * deleted), and the job says it runs.
   */
  void awaitRunning(Job job, Set<String> old) {
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

  void awaitSuspended(Job job) {
    await(job + " suspended").atMost(WAIT).untilAsserted(() -> {
      assertThat(RbacJobs.pods(client, ns, job.name)).isEmpty();
      JobStatus s = status(job);
      assertThat(s.isTrue("Suspended")).isTrue();
      assertThat(s.isTrue("Running")).isFalse();
      assertThat(s.condition("Suspended").orElseThrow().getReason()).isEqualTo(job.kind.kind() + "Suspended");
    });
    assertCounts(job);
  }

  void awaitWaiting(Job job) {
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
  void awaitSucceeded(Job job, boolean ending) {
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

  private void awaitNothingRuns(Job job) {
    await(job + ": no pod running").atMost(WAIT).untilAsserted(() -> assertThat(RbacJobs.pods(client, ns, job.name))
        .noneSatisfy(p -> assertThat(p.getStatus().getPhase()).isIn("Running", "Pending")));
  }

  // ---- what the test reads

  JobStatus status(Job job) {
    var found = RbacJobs.get(client, job.kind, ns, job.name);
    return found == null ? new JobStatus() : StatusHistory.statusOf(client, found);
  }

  /**
   * What must not change when nobody acts on the job: each condition (type, status, reason, last transition), the
   * counts, the times, each replica type's counts and indexes.
   */
  private String fingerprint(Job job) {
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
          .append(r.active()).append(", restarts ").append(r.restarts()).append(", succeeded ").append(r.succeeded())
          .append(' ').append(r.getSucceededIndexes()).append(", failed ").append(r.failed()).append(' ')
          .append(r.getFailedIndexes()).append('}'));
    }
    return b.toString();
  }

  /** Every pod of the job, the finished ones too: uid by name. */
  private Map<String, String> allPods(Job job) {
    return RbacJobs.pods(client, ns, job.name).stream().collect(Collectors.toMap(p -> p.getMetadata().getName(),
        p -> p.getMetadata().getUid()));
  }

  private List<Pod> live(Job job) {
    return RbacJobs.pods(client, ns, job.name).stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .toList();
  }

  private Set<String> uids(Job job) {
    return live(job).stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
  }

  private static int orZero(Integer n) {
    return n == null ? 0 : n;
  }

  private static Kind kind(Kind base, Object... typesAndCounts) {
    Map<String, Integer> replicas = new LinkedHashMap<>();
    for (int i = 0; i < typesAndCounts.length; i += 2) {
      replicas.put((String) typesAndCounts[i], (Integer) typesAndCounts[i + 1]);
    }
    return new Kind(base.apiVersion(), base.kind(), base.plural(), base.specField(), base.container(), replicas);
  }
}
