package dev.stint.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the driver's informers last saw of one job and its pods. Guarded by its own monitor: the job informer and the
 * pod informer update it from their threads.
 */
final class JobView {
  final String name;
  boolean exists;
  /** The operator wrote a status: it has reconciled the job at least once. */
  boolean reconciled;
  boolean running;
  boolean suspended;
  boolean succeeded;
  boolean failed;
  /** Sum of {@code status.replicaStatuses.*.active}. */
  int active;
  /** Live pods of the job (not yet deleted from the informer): name → phase. */
  final Map<String, String> pods = new HashMap<>();
  /** Pods that appeared since the counters were last reset. */
  int podsAdded;
  /** When every live pod of the job was first seen terminal (Succeeded or Failed), or -1. */
  long podsDoneAt = -1;

  JobView(String name) {
    this.name = name;
  }

  void updateJob(GenericKubernetesResource job) {
    exists = true;
    Map<String, Object> status = map(job.getAdditionalProperties().get("status"));
    reconciled = !status.isEmpty();
    running = condition(status, "Running");
    suspended = condition(status, "Suspended");
    succeeded = condition(status, "Succeeded");
    failed = condition(status, "Failed");
    int sum = 0;
    for (Object replica : map(status.get("replicaStatuses")).values()) {
      Object a = map(replica).get("active");
      sum += a instanceof Number n ? n.intValue() : 0;
    }
    active = sum;
  }

  void updatePod(String pod, String phase, boolean added, long now) {
    if (added) {
      podsAdded++;
    }
    pods.put(pod, phase == null ? "Pending" : phase);
    if (podsDoneAt < 0 && pods.values().stream().allMatch(p -> "Succeeded".equals(p) || "Failed".equals(p))) {
      podsDoneAt = now;
    }
  }

  void removePod(String pod) {
    pods.remove(pod);
  }

  /** One line for a report note: the job's state and its pods' phases as the driver last saw them. */
  synchronized String describe() {
    return String.format("%s (running %b, suspended %b, succeeded %b, failed %b, active %d, pods %s)", name, running,
        suspended, succeeded, failed, active, new java.util.TreeMap<>(pods));
  }

  int runningPods() {
    return (int) pods.values().stream().filter("Running"::equals).count();
  }

  private static boolean condition(Map<String, Object> status, String type) {
    Object list = status.get("conditions");
    if (list instanceof List<?> conditions) {
      for (Object c : conditions) {
        Map<String, Object> m = map(c);
        if (type.equals(m.get("type"))) {
          return "True".equals(m.get("status"));
        }
      }
    }
    return false;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object o) {
    return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }
}
