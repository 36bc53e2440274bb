package dev.stint.e2e;

import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.ReplicaStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every status of every job of the test namespace, as an informer delivers them (in resource-version order, through
 * watch expiries and API server restarts: the informer relists), checked as it arrives against what may never happen:
 * {@code Succeeded}, {@code PartiallySucceeded} or {@code Failed} going back from True, {@code suspensions}
 * decreasing, the succeeded or failed counts of a finished job dropping.
 */
final class StatusHistory implements AutoCloseable {
  private static final List<String> TERMINAL = List.of("Succeeded", "PartiallySucceeded", "Failed");

  /** What was seen of one job so far. */
  private static final class Seen {
    final String name;
    int maxSuspensions;
    final List<String> terminal = new ArrayList<>();
    final Map<String, int[]> finishedCounts = new HashMap<>();
    String last = "";

    Seen(String name) {
      this.name = name;
    }
  }

  private final KubernetesClient client;
  private final List<SharedIndexInformer<GenericKubernetesResource>> informers = new ArrayList<>();
  private final Map<String, Seen> seen = new HashMap<>();
  private final List<String> violations = new ArrayList<>();
  private final AtomicLong snapshots = new AtomicLong();

  StatusHistory(KubernetesClient client, String namespace) {
    this.client = client;
    for (ChaosKinds.Shape shape : List.of(ChaosKinds.Shape.PYTORCH, ChaosKinds.Shape.TENSORFLOW,
        ChaosKinds.Shape.MPI)) {
      informers.add(client.genericKubernetesResources(shape.context()).inNamespace(namespace)
          .inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(GenericKubernetesResource job) {
              record(job);
            }

            @Override
            public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource job) {
              record(job);
            }

            @Override
            public void onDelete(GenericKubernetesResource job, boolean unknownFinalState) { }
          }, 0));
    }
  }

  static JobStatus statusOf(KubernetesClient client, GenericKubernetesResource job) {
    Object raw = job.getAdditionalProperties().get("status");
    return raw == null ? new JobStatus() : client.getKubernetesSerialization().convertValue(raw, JobStatus.class);
  }

  private synchronized void record(GenericKubernetesResource job) {
    snapshots.incrementAndGet();
    String uid = job.getMetadata().getUid();
    String name = job.getKind() + " " + job.getMetadata().getName();
    JobStatus status = statusOf(client, job);
    Seen s = seen.computeIfAbsent(uid, u -> new Seen(name));
    String now = describe(status) + " (resourceVersion " + job.getMetadata().getResourceVersion() + ")";
    int suspensions = status.getSuspensions() == null ? 0 : status.getSuspensions();
    if (suspensions < s.maxSuspensions) {
      violations.add(name + ": suspensions went back from " + s.maxSuspensions + " to " + suspensions
          + "; before: " + s.last + "; now: " + now);
    }
    s.maxSuspensions = Math.max(s.maxSuspensions, suspensions);
    for (String type : s.terminal) {
      if (!status.isTrue(type)) {
        violations.add(name + ": " + type + " was True and is not any more; before: " + s.last + "; now: " + now);
      }
    }
    for (String type : TERMINAL) {
      if (status.isTrue(type) && !s.terminal.contains(type)) {
        // PartiallySucceeded comes with Succeeded; Failed with neither
        if (!s.terminal.isEmpty() && (type.equals("Failed") || s.terminal.contains("Failed"))) {
          violations.add(name + ": finished as " + s.terminal + ", then also " + type + "; now: " + now);
        }
        s.terminal.add(type);
      }
    }
    if (!s.terminal.isEmpty() && status.getReplicaStatuses() != null) {
      status.getReplicaStatuses().forEach((type, rs) -> {
        int[] before = s.finishedCounts.get(type);
        if (before != null && (rs.succeeded() < before[0] || rs.failed() < before[1])) {
          violations.add(name + ": finished job's " + type + " counts dropped from succeeded " + before[0]
              + "/failed " + before[1] + " to " + rs.succeeded() + "/" + rs.failed() + "; now: " + now);
        }
        s.finishedCounts.put(type, new int[] {Math.max(rs.succeeded(), before == null ? 0 : before[0]),
            Math.max(rs.failed(), before == null ? 0 : before[1])});
      });
    }
    s.last = now;
  }

  /** A one-line summary of a status: true conditions, counts per type, suspensions. */
  static String describe(JobStatus status) {
    StringBuilder b = new StringBuilder("[");
    if (status.getConditions() != null) {
      status.getConditions().forEach(c -> b.append(c.getType()).append('=').append(c.getStatus())
          .append('(').append(c.getReason()).append(") "));
    }
    b.append("] ");
    if (status.getReplicaStatuses() != null) {
      for (Map.Entry<String, ReplicaStatus> e : status.getReplicaStatuses().entrySet()) {
        ReplicaStatus r = e.getValue();
        b.append(e.getKey()).append("{active ").append(r.active()).append(", succeeded ").append(r.succeeded())
            .append(", failed ").append(r.failed()).append(", terminating ").append(r.terminating()).append("} ");
      }
    }
    b.append("suspensions ").append(status.getSuspensions()).append(", startTime ").append(status.getStartTime())
        .append(", completionTime ").append(status.getCompletionTime());
    return b.toString();
  }

  synchronized List<String> violations() {
    return List.copyOf(violations);
  }

  long snapshots() {
    return snapshots.get();
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::close);
  }
}
