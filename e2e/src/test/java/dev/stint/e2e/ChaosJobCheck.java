package dev.stint.e2e;

import static dev.stint.e2e.ChaosCalls.ownedBy;
import static dev.stint.e2e.ChaosCalls.phase;

import dev.stint.e2e.ChaosChecks.Snapshot;
import dev.stint.e2e.ChaosJob.State;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.ReplicaStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Whether one job is where its driving says it should be: its status, pods and services for its driven state. */
final class ChaosJobCheck {
  private ChaosJobCheck() { }

  /** Null when the job is where its driving says it should be; otherwise what differs. */
  static String check(KubernetesClient client, ChaosJob job, Snapshot snap) {
    GenericKubernetesResource r = snap.jobsByName().get(job.name);
    if (job.state == State.DELETED) {
      return checkDeleted(job, snap, r);
    }
    if (r == null) {
      return "the job is gone (expected " + job.state + ")";
    }
    JobStatus s = StatusHistory.statusOf(client, r);
    List<Pod> pods = snap.podsOf(job.uid);
    List<Service> services = ownedBy(snap.services(), job.uid);
    List<String> wrong = new ArrayList<>();
    int suspensions = s.getSuspensions() == null ? 0 : s.getSuspensions();
    if (suspensions != job.suspensions) {
      wrong.add("status.suspensions " + suspensions + ", expected " + job.suspensions);
    }
    switch (job.state) {
      case RUNNING -> checkRunning(job, s, pods, services, wrong);
      case SUSPENDED -> checkSuspended(job, s, pods, services, wrong);
      case FINISHED -> checkFinished(job, s, pods, wrong);
      case DELETED -> { }
    }
    return wrong.isEmpty() ? null : String.join("; ", wrong) + " | status " + StatusHistory.describe(s);
  }

  private static String checkDeleted(ChaosJob job, Snapshot snap, GenericKubernetesResource r) {
    if (r != null && r.getMetadata().getUid().equals(job.uid)) {
      return "still exists after its deletion";
    }
    List<String> left = new ArrayList<>();
    snap.podsOf(job.uid).forEach(p -> left.add("pod " + p.getMetadata().getName()));
    ownedBy(snap.services(), job.uid).forEach(s -> left.add("service " + s.getMetadata().getName()));
    ownedBy(snap.supporting(), job.uid).forEach(s -> left.add(s.getKind() + " " + s.getMetadata().getName()));
    return left.isEmpty() ? null : "deleted, but its children remain: " + left;
  }

  /**
   * A running job has every pod, none ending, and a status that says what they do. Pods need not all be Running: the
   * operator cannot make a node run them (kwok leaves a pod Pending that was bound to a node deleted under it), so
   * the check asks that {@code active} counts the Running ones, and {@code Running=True} once all are.
   */
  private static void checkRunning(ChaosJob job, JobStatus s, List<Pod> pods, List<Service> services,
                                   List<String> wrong) {
    Set<String> expectedPods = new HashSet<>(job.shape.podNames(job.name));
    Map<String, String> podPhases = new TreeMap<>();
    pods.forEach(p -> podPhases.put(ReplicaPods.replicaName(p),
        p.getMetadata().getDeletionTimestamp() != null ? "Terminating" : phase(p)));
    boolean allThere = podPhases.keySet().equals(expectedPods)
        && podPhases.values().stream().allMatch(ph -> ph.equals("Running") || ph.equals("Pending"));
    if (!allThere) {
      wrong.add("pods " + podPhases + ", expected " + new TreeSet<>(expectedPods) + " Pending or Running");
    }
    boolean allRunning = allThere && podPhases.values().stream().allMatch("Running"::equals);
    if (allRunning && !s.isTrue("Running")) {
      wrong.add("Running is not True");
    }
    if (s.isTrue("Suspended") || finished(s)) {
      wrong.add("Suspended or finished");
    }
    for (String type : job.shape.replicas.keySet()) {
      int active = active(s, type);
      long running = pods.stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null
          && "Running".equals(phase(p))
          && type.toLowerCase(java.util.Locale.ROOT).equals(p.getMetadata().getLabels()
              .get("training.kubeflow.org/replica-type"))).count();
      if (active != running) {
        wrong.add(type + " active " + active + ", expected " + running + " (its Running pods)");
      }
    }
    Set<String> svcNames = services.stream().map(x -> x.getMetadata().getName()).collect(Collectors.toSet());
    Set<String> wantSvc = job.shape.servicePerPod ? expectedPods : Set.of(job.name);
    if (!svcNames.equals(wantSvc)) {
      wrong.add("services " + new TreeSet<>(svcNames) + ", expected " + new TreeSet<>(wantSvc));
    }
  }

  private static void checkSuspended(ChaosJob job, JobStatus s, List<Pod> pods, List<Service> services,
                                     List<String> wrong) {
    if (!pods.isEmpty()) {
      wrong.add("pods " + pods.stream().map(p -> p.getMetadata().getName() + "/" + phase(p)
          + (p.getMetadata().getDeletionTimestamp() != null ? "/terminating" : "")).toList() + ", expected none");
    }
    if (job.shape.servicePerPod && !services.isEmpty()) {
      wrong.add("services " + services.stream().map(x -> x.getMetadata().getName()).toList()
          + ", expected none");
    }
    if (!s.isTrue("Suspended")) {
      wrong.add("Suspended is not True");
    }
    if (s.isTrue("Running") || finished(s)) {
      wrong.add("Running or finished");
    }
    noneActive(job, s, wrong);
    if (!job.everRan && s.getStartTime() != null) {
      wrong.add("startTime " + s.getStartTime() + " set on a job that never ran");
    }
  }

  private static void checkFinished(ChaosJob job, JobStatus s, List<Pod> pods, List<String> wrong) {
    String kind = job.shape.kind;
    switch (job.plan) {
      case SUCCEED -> {
        if (!s.isTrue("Succeeded") || s.isTrue("PartiallySucceeded") || s.isTrue("Failed")
            || !reason(s, "Succeeded").equals(kind + "Succeeded")) {
          wrong.add("expected Succeeded (reason " + kind + "Succeeded), not partial, not Failed");
        }
      }
      case PARTIAL -> {
        if (!s.isTrue("PartiallySucceeded") || !s.isTrue("Succeeded") || s.isTrue("Failed")
            || !reason(s, "Succeeded").equals(kind + "PartiallySucceeded")) {
          wrong.add("expected PartiallySucceeded and Succeeded (reason " + kind + "PartiallySucceeded)");
        }
      }
      case FAIL -> {
        if (!s.isTrue("Failed") || s.isTrue("Succeeded")) {
          wrong.add("expected Failed");
        }
      }
    }
    if (s.getCompletionTime() == null) {
      wrong.add("no completionTime");
    }
    noneActive(job, s, wrong);
    List<String> unfinished = pods.stream().filter(p -> !"Succeeded".equals(phase(p))
        && !"Failed".equals(phase(p))).map(p -> p.getMetadata().getName() + "/" + phase(p)).toList();
    if (!unfinished.isEmpty()) {
      wrong.add("pods still running or pending: " + unfinished);
    }
  }

  private static void noneActive(ChaosJob job, JobStatus s, List<String> wrong) {
    for (String type : job.shape.replicas.keySet()) {
      if (active(s, type) != 0) {
        wrong.add(type + " active " + active(s, type) + ", expected 0");
      }
    }
  }

  static boolean finished(JobStatus s) {
    return s.isTrue("Succeeded") || s.isTrue("Failed");
  }

  static String reason(JobStatus s, String type) {
    return s.condition(type).map(JobCondition::getReason).orElse("");
  }

  static int active(JobStatus s, String type) {
    ReplicaStatus rs = s.getReplicaStatuses() == null ? null : s.getReplicaStatuses().get(type);
    return rs == null ? 0 : rs.active();
  }
}
