package dev.stint.e2e;

import static dev.stint.e2e.ChaosCalls.controllers;
import static dev.stint.e2e.ChaosCalls.ownedBy;
import static dev.stint.e2e.ChaosCalls.retry;

import dev.stint.e2e.ChaosJob.State;
import dev.stint.e2e.ChaosKinds.Shape;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The round-end checks: convergence of every live job to the state its driving implies (judged by
 * {@link ChaosJobCheck}), no stray children, no status gone backwards, no running pod replaced without cause. What
 * fails is a finding, with the operator's log lines as evidence.
 */
final class ChaosChecks {
  /** The cluster's view of the test namespace at one moment. */
  record Snapshot(Map<String, GenericKubernetesResource> jobsByName, List<Pod> pods,
                  List<Service> services, List<HasMetadata> supporting) {
    /** The job's pods: those it controls, and those of its batch Jobs (an MPIJob's launcher). */
    List<Pod> podsOf(String jobUid) {
      Set<String> owners = new java.util.HashSet<>(Set.of(jobUid));
      ownedBy(supporting, jobUid).stream().filter(o -> "Job".equals(o.getKind()))
          .forEach(o -> owners.add(o.getMetadata().getUid()));
      return pods.stream().filter(p -> controllers(p).stream().anyMatch(r -> owners.contains(r.getUid()))).toList();
    }

    /** The live jobs' uids, and those of their launchers' batch Jobs, which own the launcher pods. */
    Set<String> liveUids() {
      Set<String> jobs = jobsByName.values().stream().map(j -> j.getMetadata().getUid()).collect(Collectors.toSet());
      Set<String> live = new java.util.HashSet<>(jobs);
      supporting.stream().filter(o -> "Job".equals(o.getKind())).filter(o -> controllers(o).stream()
          .anyMatch(r -> jobs.contains(r.getUid()))).forEach(o -> live.add(o.getMetadata().getUid()));
      return live;
    }
  }

  private final ChaosRun run;
  private final ChaosDriver driver;
  private int reportedViolations;

  ChaosChecks(ChaosRun run, ChaosDriver driver) {
    this.run = run;
    this.driver = driver;
  }

  /** Waits until every live job is in the state its driving implies and the namespace holds nothing stray. */
  Duration converge(int round) throws InterruptedException {
    long t0 = System.nanoTime();
    long deadline = t0 + ChaosIT.CONVERGE.toNanos();
    Map<ChaosJob, String> problems = Map.of();
    List<String> stray = List.of();
    while (System.nanoTime() < deadline) {
      driver.tick();
      try {
        Snapshot snap = snapshot();
        problems = new LinkedHashMap<>();
        for (ChaosJob job : run.jobs) {
          if (job.quarantined != null) {
            continue;
          }
          String problem = ChaosJobCheck.check(run.client, job, snap);
          if (problem != null) {
            problems.put(job, problem);
          }
        }
        stray = strayChildren(snap);
        if (problems.isEmpty() && stray.isEmpty()) {
          return Duration.ofNanos(System.nanoTime() - t0);
        }
      } catch (KubernetesClientException e) {
        problems = Map.of();
        stray = List.of("API error: " + e.getMessage());
      }
      Thread.sleep(1000);
    }
    for (Map.Entry<ChaosJob, String> e : problems.entrySet()) {
      ChaosJob job = e.getKey();
      job.quarantined = e.getValue();
      run.findings.add("round " + round + ": " + job + " (" + job.describeDriving() + ") did not converge within "
          + ChaosIT.CONVERGE.toSeconds() + " s: " + e.getValue() + "\n" + statusWriters(job) + evidence(job)
          + KwokLog.about(run.ns, job.name));
    }
    for (String s : stray) {
      run.findings.add("round " + round + ": " + s);
    }
    return Duration.ofNanos(System.nanoTime() - t0);
  }

  Snapshot snapshot() {
    Map<String, GenericKubernetesResource> byName = new HashMap<>();
    for (Shape shape : List.of(Shape.PYTORCH, Shape.TENSORFLOW, Shape.MPI)) {
      run.client.genericKubernetesResources(shape.context()).inNamespace(run.ns).list().getItems()
          .forEach(j -> byName.put(j.getMetadata().getName(), j));
    }
    List<HasMetadata> supporting = new ArrayList<>();
    run.client.configMaps().inNamespace(run.ns).list().getItems().stream().filter(ChaosCalls::ownedByAJob)
        .forEach(supporting::add);
    run.client.secrets().inNamespace(run.ns).list().getItems().stream().filter(ChaosCalls::ownedByAJob)
        .forEach(supporting::add);
    run.client.batch().v1().jobs().inNamespace(run.ns).list().getItems().stream().filter(ChaosCalls::ownedByAJob)
        .forEach(supporting::add);
    return new Snapshot(byName, run.client.pods().inNamespace(run.ns).list().getItems(),
        run.client.services().inNamespace(run.ns).list().getItems(), supporting);
  }

  /**
   * Pods, services and supporting objects that no live job owns, or not as its only controller; pods that duplicate
   * a replica (two of one type and index, or a name the job does not have).
   */
  List<String> strayChildren(Snapshot snap) {
    Set<String> live = snap.liveUids();
    List<String> stray = new ArrayList<>();
    List<HasMetadata> children = new ArrayList<>(snap.pods());
    children.addAll(snap.services());
    children.addAll(snap.supporting());
    for (HasMetadata child : children) {
      List<OwnerReference> refs = child.getMetadata().getOwnerReferences() == null ? List.of()
          : child.getMetadata().getOwnerReferences();
      List<OwnerReference> ctl = controllers(child);
      String what = child.getKind() + " " + child.getMetadata().getName();
      if (ctl.size() != 1 || refs.size() != 1) {
        stray.add(what + " has owner references " + refs.stream().map(r -> r.getKind() + "/" + r.getName()
            + (Boolean.TRUE.equals(r.getController()) ? "(controller)" : "")).toList() + ", expected one controller");
      } else if (!live.contains(ctl.get(0).getUid())) {
        stray.add("orphan: " + what + " is owned by " + ctl.get(0).getKind() + " " + ctl.get(0).getName()
            + " (uid " + ctl.get(0).getUid() + "), which no longer exists");
      }
    }
    stray.addAll(strayReplicas(snap));
    return stray;
  }

  /** Pods with a name their job does not have, and replicas (type and index) with more than one pod. */
  private List<String> strayReplicas(Snapshot snap) {
    Map<String, GenericKubernetesResource> byUid = snap.jobsByName().values().stream()
        .collect(Collectors.toMap(j -> j.getMetadata().getUid(), j -> j));
    List<String> stray = new ArrayList<>();
    Map<String, List<String>> replicas = new TreeMap<>();
    for (Pod pod : snap.pods()) {
      List<OwnerReference> ctl = controllers(pod);
      Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
      // an MPIJob's launcher pod is its batch Job's: the job by the pod's job-name label, the live ones only
      GenericKubernetesResource owner = ctl.size() != 1 ? null : ReplicaPods.carrier(pod) == null
          ? byUid.get(ctl.get(0).getUid()) : pod.getMetadata().getDeletionTimestamp() != null ? null
          : snap.jobsByName().get(labels.get("training.kubeflow.org/job-name"));
      if (owner == null) {
        continue;
      }
      Shape shape = shapeOf(owner);
      if (shape != null && !shape.podNames(owner.getMetadata().getName()).contains(ReplicaPods.replicaName(pod))) {
        stray.add("pod " + pod.getMetadata().getName() + " is not a replica of " + owner.getKind() + " "
            + owner.getMetadata().getName());
      }
      replicas.computeIfAbsent(owner.getMetadata().getUid() + "/"
          + labels.get("training.kubeflow.org/replica-type") + "/" + labels.get("training.kubeflow.org/replica-index"), k -> new ArrayList<>()).add(pod.getMetadata().getName());
    }
    replicas.forEach((replica, names) -> {
      if (names.size() > 1) {
        stray.add("duplicate pods for one replica: " + names);
      }
    });
    return stray;
  }

  private Shape shapeOf(GenericKubernetesResource job) {
    return run.jobs.stream().filter(j -> j.name.equals(job.getMetadata().getName())).map(j -> j.shape).findFirst()
        .orElse(null);
  }

  /**
   * After convergence: no status went backwards (from the informer's record of the whole run), and no pod of a job
   * that kept running through the round was replaced unless the test deleted it.
   */
  void checkAfterRound(int round) {
    List<String> violations = run.history.violations();
    for (int i = reportedViolations; i < violations.size(); i++) {
      run.findings.add("round " + round + ": status went backwards: " + violations.get(i));
    }
    reportedViolations = violations.size();
    Snapshot snap;
    try {
      snap = retry("snapshot", this::snapshot);
    } catch (RuntimeException e) {
      run.findings.add("round " + round + ": could not read the namespace after convergence: " + e);
      return;
    }
    for (ChaosJob job : run.live()) {
      if (job.state != State.RUNNING) {
        job.runningPods = Map.of();
        continue;
      }
      Map<String, String> now = snap.podsOf(job.uid).stream()
          .collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getMetadata().getUid()));
      if (!job.drivenThisRound) {
        for (Map.Entry<String, String> before : job.runningPods.entrySet()) {
          if (!job.podsDeletedThisRound.contains(before.getKey())
              && !Objects.equals(now.get(before.getKey()), before.getValue())) {
            run.findings.add("round " + round + ": " + job + " kept running, yet its pod " + before.getKey()
                + " was replaced (uid " + before.getValue() + " -> " + now.get(before.getKey())
                + ") though nothing deleted it\n" + evidence(job));
          }
        }
      }
      job.runningPods = now;
    }
  }

  /** Who wrote the job's status last, and when (its managed fields of the status subresource). */
  private String statusWriters(ChaosJob job) {
    try {
      GenericKubernetesResource r = run.jobResource(job);
      if (r == null || r.getMetadata().getManagedFields() == null) {
        return "";
      }
      return "    status writers: " + r.getMetadata().getManagedFields().stream()
          .filter(f -> "status".equals(f.getSubresource()))
          .map(f -> f.getManager() + " (" + f.getOperation() + ") at " + f.getTime()).toList()
          + "; resourceVersion " + r.getMetadata().getResourceVersion() + ", generation "
          + r.getMetadata().getGeneration() + "\n";
    } catch (KubernetesClientException e) {
      return "";
    }
  }

  /** The operator's log lines about a job, from every operator process of the run. */
  private String evidence(ChaosJob job) {
    StringBuilder b = new StringBuilder("    operator log lines naming " + job.name + ":\n");
    Predicate<String> about = line -> line.contains("/" + job.name + " ") || line.contains("/" + job.name + "]")
        || line.contains(" " + job.name + " ") || line.contains(job.name + "-");
    int n = 0;
    for (OperatorProcess p : run.operators) {
      for (String line : p.log().split("\n")) {
        if (about.test(line) && n++ < 40) {
          b.append("    ").append(p.logFile().getFileName()).append(": ").append(line).append('\n');
        }
      }
    }
    if (n > 40) {
      b.append("    ... ").append(n - 40).append(" more\n");
    }
    if (n == 0) {
      b.append("    (none)\n");
    }
    return b.toString();
  }
}
