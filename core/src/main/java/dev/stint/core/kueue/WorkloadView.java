package dev.stint.core.kueue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What Stint reads of a Workload: a typed view of the generic object, so that the decisions stay pure and Kueue's
 * fields Stint does not know survive every write (Stint only patches).
 *
 * @param admission null while no quota is reserved
 * @param podSetUpdates every admission check's {@code podSetUpdates}, in order
 * @param podSetCounts {@code spec.podSets[].count} by podSet name, in the spec's order
 * @param reclaimablePods {@code status.reclaimablePods} as counts by podSet name
 * @param workloadPriorityClass the WorkloadPriorityClass {@code spec.priorityClassRef} names; null for none or a pod
 *     PriorityClass
 * @param placedPodSets the podSets whose {@code topologyRequest} names their placement (required, preferred or
 *     unconstrained); an admission by topology marks the others unconstrained
 * @param podSetGroups the {@code topologyRequest.podSetGroupName} of each podSet in a group
 */
public record WorkloadView(String name, String resourceVersion, Long generation, boolean deleting,
                           List<String> finalizers, Map<String, String> annotations, String queueName, boolean active,
                           List<WorkloadCondition> conditions, Admission admission,
                           List<PodSetUpdate> podSetUpdates, Map<String, Integer> podSetCounts,
                           Map<String, Integer> reclaimablePods, String workloadPriorityClass,
                           java.util.Set<String> placedPodSets, Map<String, String> podSetGroups) {

  /** {@code status.admission}. */
  public record Admission(String clusterQueue, List<PodSetAssignment> podSetAssignments) { }

  /**
   * One {@code podSetAssignments[]}: the flavor of each resource, the admitted count (null: the spec's), and whether
   * Kueue placed it by topology (a {@code topologyAssignment}: its pods wait for Kueue's ungater).
   */
  public record PodSetAssignment(String name, Map<String, String> flavors, Integer count, boolean byTopology) { }

  /** One admission check's {@code podSetUpdates[]}. */
  public record PodSetUpdate(String name, Map<String, String> labels, Map<String, String> annotations,
                             Map<String, String> nodeSelector, List<Toleration> tolerations) { }

  public Optional<WorkloadCondition> condition(String type) {
    return conditions.stream().filter(c -> type.equals(c.type())).findFirst();
  }

  /** Stint deactivated it for its job's suspend ({@link KueueApi#DEACTIVATED_BY_SUSPEND}), not Kueue. */
  public boolean deactivatedBySuspend() {
    return annotations != null && "true".equals(annotations.get(KueueApi.DEACTIVATED_BY_SUSPEND));
  }

  public boolean isTrue(String type) {
    return condition(type).map(WorkloadCondition::isTrue).orElse(false);
  }

  /** The job a Workload belongs to: its controller owner reference, else its job-uid label with no name. */
  public record Owner(String name, String uid) { }

  /** The Workload's job as its metadata names it; null when it names none. */
  public static Owner ownerOf(GenericKubernetesResource workload) {
    var meta = workload.getMetadata();
    if (meta.getOwnerReferences() != null) {
      for (var ref : meta.getOwnerReferences()) {
        if (Boolean.TRUE.equals(ref.getController())) {
          return new Owner(ref.getName(), ref.getUid());
        }
      }
    }
    String uid = meta.getLabels() == null ? null : meta.getLabels().get(KueueApi.JOB_UID_LABEL);
    return uid == null ? null : new Owner(null, uid);
  }

  /**
   * Whether a Workload holding Kueue's finalizer outlived its job: no job of its owner's name exists now, or one
   * with another uid (the job was deleted and made again). Such a Workload holds its quota until the finalizer goes.
   *
   * @param jobUidNow the uid of the job of the owner's name in the cache, empty when there is none
   */
  public static boolean orphaned(boolean hasFinalizer, Owner owner, Optional<String> jobUidNow) {
    if (!hasFinalizer || owner == null || owner.name() == null) {
      return false; // without a name the job cannot be looked up: its deletion's own notice releases it
    }
    return jobUidNow.map(uid -> !uid.equals(owner.uid())).orElse(true);
  }

  public boolean hasFinalizer() {
    return finalizers.contains(KueueApi.FINALIZER);
  }

  /** Reads the fields Stint needs; anything missing reads as Kubernetes' default. */
  public static WorkloadView of(GenericKubernetesResource workload) {
    Map<String, Object> spec = map(workload.getAdditionalProperties().get("spec"));
    Map<String, Object> status = map(workload.getAdditionalProperties().get("status"));
    var meta = workload.getMetadata();
    List<WorkloadCondition> conditions = new ArrayList<>();
    list(status.get("conditions")).forEach(c -> conditions.add(WorkloadCondition.of(map(c))));
    List<PodSetUpdate> updates = new ArrayList<>();
    for (Object check : list(status.get("admissionChecks"))) {
      for (Object u : list(map(check).get("podSetUpdates"))) {
        Map<String, Object> update = map(u);
        updates.add(new PodSetUpdate(string(update.get("name")), strings(update.get("labels")),
            strings(update.get("annotations")), strings(update.get("nodeSelector")),
            tolerations(update.get("tolerations"))));
      }
    }
    return new WorkloadView(meta.getName(), meta.getResourceVersion(), meta.getGeneration(),
        meta.getDeletionTimestamp() != null,
        meta.getFinalizers() == null ? List.of() : List.copyOf(meta.getFinalizers()),
        Map.copyOf(strings(meta.getAnnotations())), string(spec.get("queueName")),
        !Boolean.FALSE.equals(spec.get("active")), List.copyOf(conditions), admission(status.get("admission")),
        List.copyOf(updates), counts(spec.get("podSets")), counts(status.get("reclaimablePods")),
        workloadPriorityClass(map(spec.get("priorityClassRef"))), placedPodSets(spec.get("podSets")),
        podSetGroups(spec.get("podSets")));
  }

  private static Map<String, String> podSetGroups(Object podSets) {
    Map<String, String> groups = new LinkedHashMap<>();
    for (Object entry : list(podSets)) {
      Object group = map(map(entry).get("topologyRequest")).get("podSetGroupName");
      if (group != null) {
        groups.put(string(map(entry).get("name")), string(group));
      }
    }
    return java.util.Collections.unmodifiableMap(groups);
  }

  private static java.util.Set<String> placedPodSets(Object podSets) {
    java.util.Set<String> placed = new java.util.LinkedHashSet<>();
    for (Object entry : list(podSets)) {
      Map<String, Object> request = map(map(entry).get("topologyRequest"));
      if (request.get("required") != null || request.get("preferred") != null
          || request.get("unconstrained") != null) {
        placed.add(string(map(entry).get("name")));
      }
    }
    return java.util.Collections.unmodifiableSet(placed);
  }

  private static String workloadPriorityClass(Map<String, Object> ref) {
    return "WorkloadPriorityClass".equals(ref.get("kind")) ? string(ref.get("name")) : null;
  }

  /** A list of {@code {name, count}} as counts by name, in the list's order. */
  private static Map<String, Integer> counts(Object entries) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (Object entry : list(entries)) {
      Map<String, Object> fields = map(entry);
      if (fields.get("name") instanceof String name) {
        counts.put(name, fields.get("count") instanceof Number n ? n.intValue() : 0);
      }
    }
    return java.util.Collections.unmodifiableMap(counts);
  }

  private static Admission admission(Object value) {
    if (!(value instanceof Map<?, ?>)) {
      return null;
    }
    Map<String, Object> admission = map(value);
    List<PodSetAssignment> assignments = new ArrayList<>();
    for (Object a : list(admission.get("podSetAssignments"))) {
      Map<String, Object> assignment = map(a);
      Object count = assignment.get("count");
      assignments.add(new PodSetAssignment(string(assignment.get("name")), strings(assignment.get("flavors")),
          count instanceof Number n ? n.intValue() : null, assignment.get("topologyAssignment") != null));
    }
    return new Admission(string(admission.get("clusterQueue")), List.copyOf(assignments));
  }

  static List<Toleration> tolerations(Object value) {
    List<Toleration> tolerations = new ArrayList<>();
    list(value).forEach(t -> tolerations.add(Serialization.unmarshal(Serialization.asJson(t), Toleration.class)));
    return List.copyOf(tolerations);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object value) {
    return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  static List<?> list(Object value) {
    return value instanceof List<?> l ? l : List.of();
  }

  /** The entries of a map with a value, as strings. */
  static Map<String, String> strings(Object value) {
    Map<String, String> result = new LinkedHashMap<>();
    map(value).forEach((k, v) -> {
      if (v != null) {
        result.put(k, string(v));
      }
    });
    return result;
  }

  private static String string(Object value) {
    return value == null ? null : value.toString();
  }
}
