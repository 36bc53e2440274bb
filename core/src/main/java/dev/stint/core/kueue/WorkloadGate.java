package dev.stint.core.kueue;

import dev.stint.core.decision.KueueGate.Held;
import dev.stint.core.decision.KueueGate;
import dev.stint.core.decision.PodSetInfo;
import dev.stint.core.decision.TopologyRequest;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a queued job's Workload into the decision's {@link KueueGate}: a pure function, the same for every kind. The
 * gate is the decision's own value; reading it from Kueue's objects is the Kueue integration's part, here.
 */
final class WorkloadGate {
  /** Kueue's eviction reason for a deactivated Workload ({@code WorkloadDeactivated}). */
  static final String DEACTIVATED = "Deactivated";
  /** Kueue's {@code QuotaReserved=False} reason for a Workload it cannot queue ({@code WorkloadInadmissible}). */
  static final String INADMISSIBLE = "Inadmissible";

  private WorkloadGate() { }

  /**
   * The gate of a queued job.
   *
   * @param workload the job's Workload, null when it is yet to be created
   * @param flavors the ResourceFlavors known, by name
   */
  static KueueGate of(String kind, String jobName, String queueName, WorkloadView workload,
                      Map<String, Flavor> flavors) {
    if (workload == null) {
      return new Held("WaitingForAdmission", waiting(kind, jobName, queueName, null));
    }
    String waiting = waiting(kind, jobName, workload.queueName() != null ? workload.queueName() : queueName, workload);
    if (workload.deleting()) {
      return new Held("WorkloadDeleted", "Workload " + workload.name() + " of " + kind + " " + jobName
          + " is being deleted.");
    }
    Optional<WorkloadCondition> finished = workload.condition("Finished").filter(WorkloadCondition::isTrue);
    if (finished.isPresent()) {
      // Kueue finished it before the job ended (a prebuilt Workload out of sync): nothing will admit it again
      return new Held("WorkloadFinished", "Workload " + workload.name() + " of " + kind + " " + jobName
          + " is finished (" + finished.get().reason() + "): " + finished.get().message());
    }
    // Kueue leaves Evicted=True (Deactivated) on a Workload made active again until it is admitted, and a Workload
    // that Stint deactivated for the user's suspend is made active in the pass that sees the job resumed: either way
    // the job now waits for admission, it is not evicted
    boolean resuming = workload.deactivatedBySuspend();
    Optional<WorkloadCondition> evicted = workload.condition("Evicted").filter(WorkloadCondition::isTrue)
        .filter(c -> !((workload.active() || resuming) && DEACTIVATED.equals(c.reason())));
    if (evicted.isPresent()) {
      return new Held("Evicted", kind + " " + jobName + " was evicted by Kueue (" + evicted.get().reason() + "): "
          + evicted.get().message());
    }
    if (!workload.active() && !resuming) {
      return new Held("Deactivated", "Workload " + workload.name() + " of " + kind + " " + jobName
          + " is deactivated.");
    }
    if (!workload.isTrue("Admitted") || workload.admission() == null) {
      return new Held("WaitingForAdmission", waiting);
    }
    Map<String, PodSetInfo> podSets = new LinkedHashMap<>();
    try {
      for (WorkloadView.PodSetAssignment assignment : workload.admission().podSetAssignments()) {
        podSets.put(assignment.name(), podSetInfo(workload, assignment, flavors));
      }
    } catch (PodSetInfo.ConflictException e) {
      return new Held("AdmissionNotApplicable", kind + " " + jobName + " is admitted but its pods cannot start: "
          + e.getMessage() + ".");
    }
    return new KueueGate.Admitted(Map.copyOf(podSets));
  }

  /**
   * Why the job waits: the LocalQueue the Workload is in (the job's label before the Workload exists), and Kueue's
   * message when it finds the Workload inadmissible ({@code QuotaReserved=False}, reason {@code Inadmissible}: no
   * such LocalQueue, a ClusterQueue stopped or missing). The message of a Workload only waiting its turn ("couldn't
   * assign flavors ...") is left out: Kueue rewrites it at every scheduling attempt, and the job's status would follow.
   */
  private static String waiting(String kind, String jobName, String queueName, WorkloadView workload) {
    if (queueName == null || queueName.isBlank()) {
      // queued only because Kueue manages jobs without a queue name: Kueue's own words name an empty LocalQueue
      return kind + " " + jobName + " is waiting for admission, but names no LocalQueue (label "
          + KueueApi.QUEUE_NAME_LABEL + ") and its namespace had no LocalQueue named default when it was created: "
          + "Kueue admits it once it has one (set the label while the job is suspended).";
    }
    String queue = "LocalQueue " + queueName;
    String why = workload == null ? "" : workload.condition("QuotaReserved")
        .filter(c -> !c.isTrue() && INADMISSIBLE.equals(c.reason()) && c.message() != null && !c.message().isBlank())
        .map(c -> ": " + c.message().strip().replaceAll("\\.$", ""))
        .orElse("");
    return kind + " " + jobName + " is waiting for admission by " + queue + why + ".";
  }

  /**
   * Whether the podSet is the larger of a group of two (the later one when both are of one pod), whose ranks Kueue's
   * ungater counts after its partner's ({@code topology_ungater.go}: a LeaderWorkerSet's workers are indexed from 1,
   * after their leader). Stint's replicas are indexed from 0 in each type, so their pods say an offset of -1, and each
   * rank keeps the place its assignment gives it; without it Kueue reads no ranks and fills the domains in any order.
   */
  static boolean ranksAfterItsPartner(WorkloadView workload, WorkloadView.PodSetAssignment assignment) {
    String group = workload.podSetGroups().get(assignment.name());
    if (group == null) {
      return false;
    }
    List<WorkloadView.PodSetAssignment> members = workload.admission().podSetAssignments().stream()
        .filter(a -> group.equals(workload.podSetGroups().get(a.name()))).toList();
    if (members.size() != 2) {
      return false;
    }
    WorkloadView.PodSetAssignment first = members.get(0);
    WorkloadView.PodSetAssignment second = members.get(1);
    WorkloadView.PodSetAssignment larger = count(workload, first) > count(workload, second) ? first : second;
    return larger.name().equals(assignment.name());
  }

  private static int count(WorkloadView workload, WorkloadView.PodSetAssignment assignment) {
    return assignment.count() != null ? assignment.count() : workload.podSetCounts().getOrDefault(assignment.name(), 0);
  }

  /**
   * The podSet's info from its assignment and flavors, then every admission check's update of it merged in
   * ({@code podset.FromAssignment}, then {@code Merge}).
   *
   * @throws PodSetInfo.ConflictException when a key is given two values, or a flavor is unknown
   */
  static PodSetInfo podSetInfo(WorkloadView workload, WorkloadView.PodSetAssignment assignment,
                               Map<String, Flavor> flavors) {
    Map<String, String> nodeSelector = new LinkedHashMap<>();
    List<Toleration> tolerations = new ArrayList<>();
    for (String flavorName : assignment.flavors().values().stream().distinct().sorted().toList()) {
      Flavor flavor = flavors.get(flavorName);
      if (flavor == null) {
        throw new PodSetInfo.ConflictException("ResourceFlavor " + flavorName + " not found");
      }
      nodeSelector = PodSetInfo.mergedInto(nodeSelector, flavor.nodeLabels(), "nodeSelector");
      tolerations = PodSetInfo.withTolerations(tolerations, flavor.tolerations());
    }
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(KueueApi.PODSET_LABEL, assignment.name());
    if (workload.queueName() != null) {
      labels.put(KueueApi.LOCAL_QUEUE_LABEL, workload.queueName());
    }
    String clusterQueue = workload.admission().clusterQueue();
    if (clusterQueue != null && clusterQueue.matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")) {
      labels.put(KueueApi.CLUSTER_QUEUE_LABEL, clusterQueue);
    }
    Map<String, String> annotations = new LinkedHashMap<>();
    annotations.put(KueueApi.WORKLOAD_ANNOTATION, workload.name());
    if (assignment.byTopology() && !workload.placedPodSets().contains(assignment.name())) {
      // placed by a ClusterQueue of topology flavors although it asked for nothing: Kueue's ungater looks only at
      // pods that carry a topology annotation
      annotations.put(TopologyRequest.UNCONSTRAINED, "true");
    }
    if (assignment.byTopology() && ranksAfterItsPartner(workload, assignment)) {
      annotations.put(KueueApi.POD_INDEX_OFFSET_ANNOTATION, "-1");
    }
    for (WorkloadView.PodSetUpdate update : workload.podSetUpdates()) {
      if (assignment.name().equals(update.name())) {
        labels = PodSetInfo.mergedInto(labels, update.labels(), "labels");
        annotations = PodSetInfo.mergedInto(annotations, update.annotations(), "annotations");
        nodeSelector = PodSetInfo.mergedInto(nodeSelector, update.nodeSelector(), "nodeSelector");
        tolerations = PodSetInfo.withTolerations(tolerations, update.tolerations());
      }
    }
    return new PodSetInfo(assignment.name(), assignment.count(), Map.copyOf(nodeSelector), List.copyOf(tolerations),
        Map.copyOf(labels), Map.copyOf(annotations),
        assignment.byTopology() ? List.of(PodSetInfo.TOPOLOGY_GATE) : List.of());
  }
}
