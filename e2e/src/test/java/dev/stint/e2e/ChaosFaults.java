package dev.stint.e2e;

import static dev.stint.e2e.ChaosCalls.retry;
import static dev.stint.e2e.ChaosCalls.transientError;

import dev.stint.e2e.ChaosJob.State;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The faults a chaos round injects: the operator killed or frozen, kube-apiserver restarted, watches expired, a job's
 * status clobbered, pods, services and nodes deleted behind the operator's back. Each counts itself in the run.
 */
final class ChaosFaults {
  enum Fault {
    KILL_OPERATOR, RESTART_APISERVER, WATCH_EXPIRY, STATUS_CLOBBER, DELETE_POD, DELETE_SERVICE, DELETE_NODE,
    PAUSE_LEADER, RESTART_ETCD
  }

  private final ChaosRun run;
  private final ChaosLeaders leaders;
  /** Nodes deleted and not yet recreated (the test recreates them at the end whatever happened). */
  private final Map<String, Node> deletedNodes = new TreeMap<>();

  ChaosFaults(ChaosRun run) {
    this.run = run;
    this.leaders = new ChaosLeaders(run);
  }

  /** A leader frozen past its Lease while a standby takes over and acts, then woken: see {@link ChaosLeaders}. */
  void pauseLeader(Runnable whileFrozen) {
    leaders.pauseLeader(whileFrozen);
    run.fault(Fault.PAUSE_LEADER);
  }

  /** SIGKILL once the operator has started (plus a seeded delay), so that it dies while reconciling; then a new one. */
  void kill(long afterStartMillis) {
    try {
      if (run.operator == run.paused) {
        // frozen by a watch-expiry window: killing it is still a kill, and its successor runs free
        run.paused = null;
      } else {
        Duration startup;
        try {
          startup = run.operator.awaitStarted(Duration.ofSeconds(120));
        } catch (IllegalStateException e) {
          run.superviseOperator();
          return;
        }
        long age = run.operator.age().toMillis();
        if (age < startup.toMillis() + afterStartMillis) {
          Thread.sleep(startup.toMillis() + afterStartMillis - age);
        }
      }
      run.operator.kill();
      run.fault(Fault.KILL_OPERATOR);
      run.operator = run.startOperator();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  void restartApiServer(boolean crash, Fault as) {
    Duration took = ClusterControl.restartApiServer(crash);
    run.apiServerRestarts.add(took);
    System.out.println("           kube-apiserver ready again after " + took.toMillis() + " ms");
    if (as != null) {
      run.fault(as);
    }
  }

  /** etcd stopped and started again under a running API server (whose watches and writes wait for it meanwhile). */
  void restartEtcd(boolean crash) {
    Duration took = ClusterControl.restartEtcd(crash);
    run.etcdRestarts.add(took);
    System.out.println("           etcd and kube-apiserver ready again after " + took.toMillis() + " ms");
    run.fault(Fault.RESTART_ETCD);
  }

  void pause() {
    run.superviseOperator();
    run.paused = run.operator;
    run.operator.pause();
  }

  /** The end of a watch-expiry window: etcd compacted past every watch the stopped operator holds, then SIGCONT. */
  void expireWatches(boolean crash) {
    long revision = ClusterControl.compactEtcd();
    System.out.println("           etcd compacted at revision " + revision);
    restartApiServer(crash, null);
    run.resumePaused();
    run.fault(Fault.WATCH_EXPIRY);
  }

  /**
   * Another client writes the job's status (read, modify, update with the read resource version: a write that
   * conflicts with the operator's is refused and tried again). See {@link #clobber}.
   */
  void clobberStatus(int pick) {
    List<ChaosJob> candidates = run.live().stream()
        .filter(j -> j.state == State.RUNNING || j.state == State.SUSPENDED)
        .sorted(Comparator.comparing(j -> j.name)).toList();
    if (candidates.isEmpty()) {
      return;
    }
    ChaosJob job = candidates.get(pick % candidates.size());
    for (int attempt = 0; attempt < 10; attempt++) {
      GenericKubernetesResource r = retry("read " + job, () -> run.jobResource(job));
      if (r == null) {
        return;
      }
      clobber(job, r);
      try {
        run.client.genericKubernetesResources(job.shape.context()).inNamespace(run.ns).resource(r).updateStatus();
        job.clobberedThisRound = true;
        System.out.println("           clobbered the status of " + job + " (" + job.state + ")");
        run.fault(Fault.STATUS_CLOBBER);
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() == 409) {
          run.clobberConflicts++;
        } else if (!transientError(e)) {
          throw e;
        }
      }
    }
  }

  /**
   * A running job's {@code Running} condition set False and its active counts to 0; a suspended job's active counts
   * set to its replicas, as a stale copy would say. The counters only the status holds ({@code suspensions},
   * {@code restarts}) and the finished conditions are left as they are: the operator cannot know them from anything
   * else.
   */
  @SuppressWarnings("unchecked")
  private static void clobber(ChaosJob job, GenericKubernetesResource r) {
    Map<String, Object> status = (Map<String, Object>) r.getAdditionalProperties().get("status");
    if (status == null) {
      status = new LinkedHashMap<>();
      r.getAdditionalProperties().put("status", status);
    }
    Map<String, Object> replicaStatuses = (Map<String, Object>) status.computeIfAbsent("replicaStatuses",
        k -> new LinkedHashMap<>());
    for (Map.Entry<String, Integer> type : job.shape.replicas.entrySet()) {
      Map<String, Object> rs = (Map<String, Object>) replicaStatuses.computeIfAbsent(type.getKey(),
          k -> new LinkedHashMap<>());
      rs.put("active", job.state == State.RUNNING ? 0 : type.getValue());
    }
    if (job.state == State.RUNNING && status.get("conditions") instanceof List<?> conditions) {
      for (Object c : conditions) {
        Map<String, Object> condition = (Map<String, Object>) c;
        if ("Running".equals(condition.get("type"))) {
          condition.put("status", "False");
          condition.put("reason", "ChaosClobbered");
          condition.put("message", "status written by another client (ChaosIT)");
        }
      }
    }
  }

  void deletePod(int pick, int podPick) {
    List<ChaosJob> candidates = runningJobsByName();
    if (candidates.isEmpty()) {
      return;
    }
    ChaosJob job = candidates.get(pick % candidates.size());
    List<String> names = job.shape.podNames(job.name);
    // an MPIJob's launcher pod is named by its batch Job's controller: <job>-launcher-<suffix>
    String pod = launcherPod(job, names.get(podPick % names.size()));
    if (pod == null) {
      return;
    }
    boolean gone = retry("delete pod " + pod,
        () -> !run.client.pods().inNamespace(run.ns).withName(pod).delete().isEmpty());
    if (gone) {
      job.podsDeletedThisRound.add(pod);
      System.out.println("           deleted pod " + pod);
      run.fault(Fault.DELETE_POD);
    }
  }

  /** The replica's pod name; for an MPIJob's launcher, the live pod of its batch Job, or null when it has none. */
  private String launcherPod(ChaosJob job, String replica) {
    if (!replica.equals(job.name + "-launcher")) {
      return replica;
    }
    try {
      return run.client.pods().inNamespace(run.ns).withLabel("training.kubeflow.org/job-name", job.name).list()
          .getItems().stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null)
          .filter(p -> p.getMetadata().getOwnerReferences() != null && p.getMetadata().getOwnerReferences().stream()
              .anyMatch(r -> "Job".equals(r.getKind()) && replica.equals(r.getName())))
          .map(p -> p.getMetadata().getName()).findFirst().orElse(null);
    } catch (KubernetesClientException e) {
      return null; // the API server is restarting: no deletion this time
    }
  }

  void deleteService(int pick, int svcPick) {
    List<ChaosJob> candidates = runningJobsByName();
    if (candidates.isEmpty()) {
      return;
    }
    ChaosJob job = candidates.get(pick % candidates.size());
    List<String> names = job.shape.servicePerPod ? job.shape.podNames(job.name) : List.of(job.name);
    String svc = names.get(svcPick % names.size());
    boolean gone = retry("delete service " + svc,
        () -> !run.client.services().inNamespace(run.ns).withName(svc).delete().isEmpty());
    if (gone) {
      System.out.println("           deleted service " + svc);
      run.fault(Fault.DELETE_SERVICE);
    }
  }

  private List<ChaosJob> runningJobsByName() {
    return run.live().stream().filter(j -> j.state == State.RUNNING)
        .sorted(Comparator.comparing(j -> j.name)).toList();
  }

  void deleteNode(String name) {
    Node node = retry("read node " + name, () -> run.client.nodes().withName(name).get());
    if (node == null) {
      return;
    }
    deletedNodes.putIfAbsent(name, node);
    retry("delete node " + name, () -> run.client.nodes().withName(name).delete());
    run.fault(Fault.DELETE_NODE);
  }

  /** The node again, as cluster.sh made it: kwok (which manages nodes by annotation) takes it up again. */
  void recreateNode(String name) {
    Node saved = deletedNodes.remove(name);
    if (saved == null) {
      return;
    }
    Node fresh = new NodeBuilder().withNewMetadata().withName(name)
        .withLabels(saved.getMetadata().getLabels()).withAnnotations(saved.getMetadata().getAnnotations())
        .endMetadata()
        .withNewStatus().withAllocatable(saved.getStatus().getAllocatable())
        .withCapacity(saved.getStatus().getCapacity()).endStatus().build();
    retry("recreate node " + name, () -> {
      try {
        return run.client.nodes().resource(fresh).create();
      } catch (KubernetesClientException e) {
        if (e.getCode() == 409) {
          return null;
        }
        throw e;
      }
    });
  }

  /** The ITs after this one need the cluster whole. */
  void recreateDeletedNodes() {
    new ArrayList<>(deletedNodes.keySet()).forEach(this::recreateNode);
  }
}
