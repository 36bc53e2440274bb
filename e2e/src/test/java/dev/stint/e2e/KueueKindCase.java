package dev.stint.e2e;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One kind in {@link KueueNativeKindsIT}: a small job of it (two pods of 1 CPU, replica types in the kind's order),
 * the podSets Stint must make of it, and how it partially succeeds: which pod fails for good and which pod's success
 * then makes the job succeed.
 *
 * @param replicas the replica types and their counts, in the kind's order
 * @param successRules the job's {@code runPolicy.successPolicy.rules} that let it succeed with a failed replica, as a
 *     YAML flow list; null when the kind's own policy does already
 * @param failingPod the pod (after the job's name) that fails for good
 * @param succeedingPod the pod (after the job's name) whose success ends the job, then a partial success
 */
record KueueKindCase(RbacJobs.Kind kind, Map<String, Integer> replicas, String successRules, String failingPod,
                     String succeedingPod) {

  /**
   * PyTorch, TF and JAX fail on any replica's failure by their own policy, so the job names the replica that decides
   * (a Stint rule); MPI's own policy is the launcher's, a worker's failure is not fatal.
   */
  static final List<KueueKindCase> ALL = List.of(
      new KueueKindCase(RbacJobs.PYTORCH, ordered("Master", "Worker"), "[{succeeded: {Master: 1}}]",
          "worker-0", "master-0"),
      new KueueKindCase(RbacJobs.TENSORFLOW, ordered("Chief", "Worker"), "[{succeeded: {Chief: 1}}]",
          "worker-0", "chief-0"),
      new KueueKindCase(RbacJobs.MPI, ordered("Launcher", "Worker"), null, "worker-0", "launcher"),
      new KueueKindCase(RbacJobs.JAX, Map.of("Worker", 2), "[{succeeded: {Worker: 1}}]", "worker-1", "worker-0"));

  /** The Workload's podSets: lower-case replica types and counts, in the kind's order. */
  Map<String, Integer> podSets() {
    Map<String, Integer> podSets = new LinkedHashMap<>();
    replicas.forEach((type, count) -> podSets.put(type.toLowerCase(Locale.ROOT), count));
    return podSets;
  }

  /** The replica type of {@link #failingPod}. */
  String failingType() {
    return replicas.keySet().stream().filter(t -> failingPod.startsWith(t.toLowerCase(Locale.ROOT) + "-"))
        .findFirst().orElseThrow();
  }

  /** The pods of a job, and the CPUs it asks for. */
  int pods() {
    return replicas.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** A job of this kind in the test's LocalQueue, created unsuspended, with the low priority. */
  Job job(String name) {
    return new Job(this, name, LocalKueue.LOW, null, false);
  }

  @Override
  public String toString() {
    return kind.kind();
  }

  /** A job of the kind, as its manifest will say. */
  record Job(KueueKindCase of, String name, String priorityClass, String nodeSelector, boolean successRules) {
    Job priority(String workloadPriorityClass) {
      return new Job(of, name, workloadPriorityClass, nodeSelector, successRules);
    }

    /** Every pod gets this node selector (a YAML flow map's entries) besides the admitted flavor's. */
    Job nodeSelector(String entries) {
      return new Job(of, name, priorityClass, entries, successRules);
    }

    /** The job may succeed with the failing pod failed (see {@link KueueKindCase#successRules}). */
    Job partialSuccessAllowed() {
      return new Job(of, name, priorityClass, nodeSelector, true);
    }

    String yaml() {
      RbacJobs.Kind kind = of.kind();
      StringBuilder yaml = new StringBuilder("apiVersion: " + kind.apiVersion() + "\nkind: " + kind.kind()
          + "\nmetadata:\n  name: " + name + "\n  labels: {" + LocalKueue.QUEUE_LABEL + ": " + LocalKueue.LOCAL_QUEUE
          + ", " + LocalKueue.PRIORITY_CLASS_LABEL + ": " + priorityClass + "}\nspec:\n  runPolicy: {suspend: false"
          + (successRules && of.successRules() != null ? ", successPolicy: {rules: " + of.successRules() + "}" : "")
          + "}\n  " + kind.specField() + ":\n");
      of.replicas().forEach((type, count) -> yaml.append("    ").append(type).append(":\n")
          .append("      replicas: ").append(count).append("\n")
          .append("      restartPolicy: Never\n")
          .append("      template:\n        spec:\n")
          .append(nodeSelector == null ? "" : "          nodeSelector: {" + nodeSelector + "}\n")
          .append("          containers:\n")
          .append("          - {name: ").append(kind.container())
          .append(", image: busybox, resources: {requests: {cpu: \"1\"}}}\n"));
      return yaml.toString();
    }

    /** The name of one of its pods, e.g. {@code worker-0}. */
    String pod(String suffix) {
      return name + "-" + suffix;
    }
  }

  private static Map<String, Integer> ordered(String first, String second) {
    Map<String, Integer> replicas = new LinkedHashMap<>();
    replicas.put(first, 1);
    replicas.put(second, 1);
    return replicas;
  }
}
