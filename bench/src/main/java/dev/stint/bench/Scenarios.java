package dev.stint.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The burst, suspend, resume and completion scenarios on one set of jobs, and the plain-client limit. Every latency
 * is per job, from the moment the driver sent that job's request to the moment an informer event showed the
 * milestone; scenarios wait on the informers' local state only.
 */
final class Scenarios {
  /** The milestones of a suspension, the same for a preempted job and for all jobs suspended at once. */
  static final Predicate<JobView> SUSPENDED_INACTIVE = v -> v.suspended && v.active == 0;
  static final Predicate<JobView> SUSPENDED_NO_PODS = v -> v.suspended && v.pods.isEmpty();
  static final Predicate<JobView> RUNNING_AGAIN = v -> v.running && !v.suspended;
  private static final List<Milestone> SUSPENSION = List.of(new Milestone("active0", "active0", SUSPENDED_INACTIVE),
      new Milestone("noPods", "noPods", SUSPENDED_NO_PODS));

  /**
   * What a scenario waits for on every job: the tracker's milestone {@code name}, reached when {@code reached} holds
   * of the job's view, and reported as the latency {@code latency} from the moment the job's request was sent.
   */
  record Milestone(String name, String latency, Predicate<JobView> reached) { }

  private final Driver driver;
  private final Probe probe;
  private final int workers;
  private final long timeoutMillis;

  /** {@code runPolicy.serviceMode} of the jobs created, or null for the default (the operator {@code stint-lean}). */
  private String serviceMode;

  /** The jobs get {@code runPolicy.serviceMode: <mode>} (Stint's PerJob, for the {@code stint-lean} variant). */
  Scenarios serviceMode(String mode) {
    this.serviceMode = mode;
    return this;
  }

  Scenarios(Driver driver, Probe probe, int workers, long timeoutMillis) {
    this.driver = driver;
    this.probe = probe;
    this.workers = workers;
    this.timeoutMillis = timeoutMillis;
  }

  int podsPerJob() {
    return 1 + workers;
  }

  /** Creates one job of the measured shape (a Master and the configured Workers), with these annotations. */
  void createJob(String namespace, String name, Map<String, String> annotations) {
    driver.createJob(Manifests.pytorchJob(namespace, name, workers, annotations, serviceMode));
  }

  Driver driver() {
    return driver;
  }

  Probe probe() {
    return probe;
  }

  static List<String> names(String prefix, int n) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      names.add(String.format("%s-%05d", prefix, i));
    }
    return names;
  }

  /**
   * The limit: the same pods created by a plain client, one "job" (its pods one after another) per task. With
   * {@code services}, each pod's headless service too (created after the pods, as an operator does): every object a
   * PyTorchJob needs, so the gap left to an operator is its own work (status, events, reads).
   */
  ScenarioResult limit(Tracker t, List<String> jobs, boolean services) {
    Probe.Scope s = probe.begin(services ? "limitsvc" : "limit", jobs.size());
    List<Milestone> milestones = List.of(podsCreated(),
        new Milestone("podsRunning", "allPodsRunning", v -> v.runningPods() >= podsPerJob()));
    watch(t, milestones);
    Map<String, Long> sent = new ConcurrentHashMap<>();
    List<Runnable> tasks = new ArrayList<>();
    for (String job : jobs) {
      tasks.add(() -> {
        sent.put(job, Time.now());
        driver.createPod(Manifests.limitPod(t.namespace(), job, "master", 0, podsPerJob()));
        for (int i = 0; i < workers; i++) {
          driver.createPod(Manifests.limitPod(t.namespace(), job, "worker", i, podsPerJob()));
        }
        if (services) {
          driver.createService(Manifests.limitService(t.namespace(), job, "master", 0));
          for (int i = 0; i < workers; i++) {
            driver.createService(Manifests.limitService(t.namespace(), job, "worker", i));
          }
        }
      });
    }
    driver.runAll(tasks);
    awaitLatencies(s, t, sent, jobs, milestones);
    podRates(s, t.reached("podsCreated"), jobs.size(), "podsCreated");
    span(s, t.reached("podsRunning"), "timeToAllPodsRunningSeconds");
    return s.finish();
  }

  /** Scenario 1: create every job at once. */
  ScenarioResult burst(Tracker t, List<String> jobs) {
    Probe.Scope s = probe.begin("burst", jobs.size());
    List<Milestone> milestones = List.of(podsCreated(), new Milestone("running", "running", v -> v.running));
    watch(t, milestones);
    Map<String, Long> sent = new ConcurrentHashMap<>();
    driver.runAll(jobs.stream().<Runnable>map(job -> () -> {
      sent.put(job, Time.now());
      createJob(t.namespace(), job, Map.of());
    }).toList());
    return podsThenRunning(s, t, sent, jobs, milestones);
  }

  /** Scenario 2a: suspend every running job. */
  ScenarioResult suspend(Tracker t, List<String> jobs) {
    Probe.Scope s = probe.begin("suspend", jobs.size());
    watch(t, SUSPENSION);
    Map<String, Long> sent = patchAll(t, jobs, Manifests.suspendPatch(true));
    awaitLatencies(s, t, sent, jobs, SUSPENSION);
    span(s, t.reached("active0"), "timeToAllActive0Seconds");
    span(s, t.reached("noPods"), "timeToNoPodsSeconds");
    s.result.figures.put("podsDeletedPerSecond",
        rate(jobs.size() * podsPerJob(), last(t.reached("noPods")) - s.start()));
    return s.finish();
  }

  /**
   * Scenario 2c, preemption one at a time (what Kueue does when a higher-priority workload arrives): suspend one job
   * among the N running, wait for it to reach active 0 and no pods, then the next; at most {@code count} jobs. Each
   * latency is one suspension on a cluster that is otherwise busy with the other running jobs, not a queue of them.
   * The jobs are resumed afterwards (not measured), so the following scenarios find every job running.
   */
  ScenarioResult preempt(Tracker t, List<String> all, int count) {
    List<String> jobs = all.subList(0, Math.min(count, all.size()));
    Probe.Scope s = probe.begin("preempt", jobs.size());
    watch(t, SUSPENSION);
    Map<String, Long> sent = new ConcurrentHashMap<>();
    for (String job : jobs) {
      sent.put(job, Time.now());
      driver.patchJob(t.namespace(), job, Manifests.suspendPatch(true));
      await(s, t, "noPods", List.of(job));
    }
    recordLatencies(s, t, sent, SUSPENSION);
    ScenarioResult result = s.finish();
    t.clear();
    t.watch("running", RUNNING_AGAIN);
    patchAll(t, jobs, Manifests.suspendPatch(false));
    if (!t.await("running", jobs, timeoutMillis)) {
      result.notes.add("not every preempted job was Running again before the next scenario");
    }
    return result;
  }

  /** Scenario 2b: resume every suspended job. */
  ScenarioResult resume(Tracker t, List<String> jobs) {
    Probe.Scope s = probe.begin("resume", jobs.size());
    List<Milestone> milestones = List.of(podsCreated(), new Milestone("running", "running", RUNNING_AGAIN));
    watch(t, milestones);
    Map<String, Long> sent = patchAll(t, jobs, Manifests.suspendPatch(false));
    return podsThenRunning(s, t, sent, jobs, milestones);
  }

  /**
   * Scenario 3: every pod of every job exits 0 (workers first, the master last); latency from the moment all of a
   * job's pods were seen terminal to its Succeeded=True.
   */
  ScenarioResult complete(Tracker t, List<String> jobs) {
    Probe.Scope s = probe.begin("complete", jobs.size());
    t.clear();
    t.watch("succeeded", v -> v.succeeded);
    Map<String, Long> sent = new ConcurrentHashMap<>();
    driver.runAll(jobs.stream().<Runnable>map(job -> () -> {
      sent.put(job, Time.now());
      List<String> pods = new ArrayList<>(t.podNames(job));
      pods.sort(Comparator.comparing((String p) -> p.contains("-master-")).thenComparing(p -> p));
      pods.forEach(p -> driver.patchPod(t.namespace(), p, Manifests.exitPatch()));
    }).toList());
    await(s, t, "succeeded", jobs);
    Map<String, Long> succeeded = t.reached("succeeded");
    s.result.latency("podsDoneToSucceeded", doneToSucceeded(s, t, succeeded));
    s.result.latency("annotateToSucceeded", since(sent, succeeded));
    span(s, succeeded, "timeToAllSucceededSeconds");
    s.result.figures.put("jobsSucceededPerSecond", rate(succeeded.size(), last(succeeded) - s.start()));
    return s.finish();
  }

  /** From the moment every pod of a job was terminal to Succeeded=True; a job that succeeded first counts 0. */
  List<Double> doneToSucceeded(Probe.Scope s, Tracker t, Map<String, Long> succeeded) {
    List<Double> out = new ArrayList<>();
    int early = 0;
    for (Map.Entry<String, Long> e : succeeded.entrySet()) {
      JobView v = t.view(e.getKey());
      long done;
      synchronized (v) {
        done = v.podsDoneAt;
      }
      if (done < 0 || done > e.getValue()) {
        early++;
        out.add(0.0);
      } else {
        out.add(Time.seconds(e.getValue() - done));
      }
    }
    if (early > 0) {
      s.result.notes.add(early + " jobs were Succeeded before all their pods were seen terminal (counted as 0 s)");
    }
    return out;
  }

  /** Every pod of the job created (seen added by the informer). */
  private Milestone podsCreated() {
    return new Milestone("podsCreated", "allPodsCreated", v -> v.podsAdded >= podsPerJob());
  }

  private static void watch(Tracker t, List<Milestone> milestones) {
    t.clear();
    milestones.forEach(m -> t.watch(m.name(), m.reached()));
  }

  /** Waits until every job reached each milestone in turn, then records each one's latencies. */
  private void awaitLatencies(Probe.Scope s, Tracker t, Map<String, Long> sent, List<String> jobs,
                              List<Milestone> milestones) {
    milestones.forEach(m -> await(s, t, m.name(), jobs));
    recordLatencies(s, t, sent, milestones);
  }

  private static void recordLatencies(Probe.Scope s, Tracker t, Map<String, Long> sent, List<Milestone> milestones) {
    milestones.forEach(m -> s.result.latency(m.latency(), since(sent, t.reached(m.name()))));
  }

  /** The end of a scenario that creates every job's pods, then waits for Running: burst and resume alike. */
  private ScenarioResult podsThenRunning(Probe.Scope s, Tracker t, Map<String, Long> sent, List<String> jobs,
                                         List<Milestone> milestones) {
    awaitLatencies(s, t, sent, jobs, milestones);
    podRates(s, t.reached("podsCreated"), jobs.size(), "podsCreated");
    span(s, t.reached("running"), "timeToAllRunningSeconds");
    return s.finish();
  }

  private Map<String, Long> patchAll(Tracker t, List<String> jobs, String patch) {
    Map<String, Long> sent = new ConcurrentHashMap<>();
    driver.runAll(jobs.stream().<Runnable>map(job -> () -> {
      sent.put(job, Time.now());
      driver.patchJob(t.namespace(), job, patch);
    }).toList());
    return sent;
  }

  void await(Probe.Scope s, Tracker t, String milestone, List<String> jobs) {
    if (!t.await(milestone, jobs, timeoutMillis)) {
      List<String> missing = jobs.stream().filter(j -> !t.reached(milestone).containsKey(j)).toList();
      String ended = t.operatorGone() ? "ended early, the operator died" : "timed out after " + timeoutMillis / 1000
          + " s";
      s.result.notes.add(String.format("%s: %d of %d jobs never reached %s; %s", ended, missing.size(),
          jobs.size(), milestone, stuck(t, missing)));
    }
  }

  /** What the driver last saw of the first few jobs that missed a milestone, to tell a stuck operator from kwok. */
  static String stuck(Tracker t, List<String> missing) {
    return String.join("; ", missing.stream().limit(5).map(j -> t.view(j).describe()).toList())
        + (missing.size() > 5 ? "; ..." : "");
  }

  static List<Double> since(Map<String, Long> from, Map<String, Long> to) {
    List<Double> out = new ArrayList<>();
    to.forEach((job, at) -> {
      Long start = from.get(job);
      if (start != null) {
        out.add(Time.seconds(at - start));
      }
    });
    return out;
  }

  /**
   * Pods per second from the scenario's start to the last job's pods, and over the middle 80% of jobs (10th to 90th
   * percentile of the per-job times), which leaves out the ramp-up and the tail.
   */
  void podRates(Probe.Scope s, Map<String, Long> reached, int jobs, String what) {
    if (reached.isEmpty()) {
      return;
    }
    long[] at = reached.values().stream().mapToLong(Long::longValue).sorted().toArray();
    s.result.figures.put("timeTo" + cap(what) + "Seconds", Time.seconds(at[at.length - 1] - s.start()));
    s.result.figures.put(what + "PerSecond", rate((long) at.length * podsPerJob(), at[at.length - 1] - s.start()));
    int lo = (int) (at.length * 0.1);
    int hi = Math.max(lo, (int) Math.ceil(at.length * 0.9) - 1);
    if (hi > lo) {
      s.result.figures.put(what + "PerSecondMiddle80", rate((long) (hi - lo) * podsPerJob(), at[hi] - at[lo]));
    }
  }

  private static void span(Probe.Scope s, Map<String, Long> reached, String figure) {
    if (!reached.isEmpty()) {
      s.result.figures.put(figure, Time.seconds(last(reached) - s.start()));
    }
  }

  static long last(Map<String, Long> reached) {
    return reached.values().stream().mapToLong(Long::longValue).max().orElse(0);
  }

  static double rate(long count, long millis) {
    return millis <= 0 ? Double.NaN : Probe.round(count / Time.seconds(millis));
  }

  private static String cap(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }
}
