package dev.stint.e2e;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A read of one {@code kueue.x-k8s.io/v1beta2} Workload, as the tests look at it: its conditions, its admission and
 * the spec fields Stint fills in. Kueue's own types cannot be used from Java; the paths follow
 * {@code apis/kueue/v1beta2/workload_types.go} of Kueue v0.17.0.
 *
 * @param resource the Workload as the API server returned it
 */
record KueueWorkload(GenericKubernetesResource resource) {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  /** One podSet's share of an admission: the flavor of each resource, and how many pods were admitted. */
  record PodSetAssignment(String name, Map<String, String> flavors, Integer count) { }

  /** {@code status.admission}: the ClusterQueue that reserved the quota, one assignment per podSet. */
  record Admission(String clusterQueue, List<PodSetAssignment> podSetAssignments) {
    /** The assignment of the podSet with this name. */
    PodSetAssignment podSet(String name) {
      return podSetAssignments.stream().filter(a -> a.name().equals(name)).findFirst()
          .orElseThrow(() -> new AssertionError("no podSetAssignment " + name + " in " + this));
    }
  }

  String name() {
    return resource.getMetadata().getName();
  }

  String resourceVersion() {
    return resource.getMetadata().getResourceVersion();
  }

  /** The label {@code kueue.x-k8s.io/job-uid}, or null. */
  String jobUid() {
    Map<String, String> labels = resource.getMetadata().getLabels();
    return labels == null ? null : labels.get(LocalKueue.JOB_UID_LABEL);
  }

  /** {@code status.reclaimablePods} as counts by podSet name. */
  Map<String, Integer> reclaimablePods() {
    List<Map<String, Object>> raw = resource.get("status", "reclaimablePods");
    Map<String, Integer> counts = new LinkedHashMap<>();
    if (raw != null) {
      raw.forEach(r -> counts.put((String) r.get("name"), ((Number) r.get("count")).intValue()));
    }
    return counts;
  }

  /** Whether it is marked for deletion (held by a finalizer). */
  boolean deleting() {
    return resource.getMetadata().getDeletionTimestamp() != null;
  }

  /** The uid its controller owner reference names, or null. */
  String controllerUid() {
    var owners = resource.getMetadata().getOwnerReferences();
    return owners == null ? null : owners.stream().filter(r -> Boolean.TRUE.equals(r.getController()))
        .map(r -> r.getUid()).findFirst().orElse(null);
  }

  List<String> finalizers() {
    return resource.getMetadata().getFinalizers();
  }

  /** {@code status.conditions}, in the order the API server keeps them. */
  List<Condition> conditions() {
    List<?> raw = resource.get("status", "conditions");
    return raw == null ? List.of() : raw.stream().map(c -> JSON.convertValue(c, Condition.class)).toList();
  }

  Optional<Condition> condition(String type) {
    return conditions().stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  /** Whether the condition is present with status True. */
  boolean isTrue(String type) {
    return condition(type).map(c -> "True".equals(c.getStatus())).orElse(false);
  }

  /** The reason of the condition, or null when it is absent. */
  String reason(String type) {
    return condition(type).map(Condition::getReason).orElse(null);
  }

  /** {@code status.admission}, empty while no quota is reserved. */
  @SuppressWarnings("unchecked")
  Optional<Admission> admission() {
    Map<String, Object> admission = resource.get("status", "admission");
    if (admission == null) {
      return Optional.empty();
    }
    List<Map<String, Object>> assignments = (List<Map<String, Object>>) admission.getOrDefault(
        "podSetAssignments", List.of());
    return Optional.of(new Admission((String) admission.get("clusterQueue"), assignments.stream()
        .map(a -> new PodSetAssignment((String) a.get("name"), (Map<String, String>) a.get("flavors"),
            a.get("count") == null ? null : ((Number) a.get("count")).intValue()))
        .toList()));
  }

  /** {@code spec.active}; Kueue's default, true, when it is absent. */
  boolean active() {
    Boolean active = resource.get("spec", "active");
    return active == null || active;
  }

  /** {@code status.requeueState.count}: how often Kueue requeued it after a pods-ready timeout; 0 when absent. */
  int requeueCount() {
    Number count = resource.get("status", "requeueState", "count");
    return count == null ? 0 : count.intValue();
  }

  /** {@code spec.priority}, or null. */
  Integer priority() {
    Number priority = resource.get("spec", "priority");
    return priority == null ? null : priority.intValue();
  }

  /** {@code spec.queueName}, the LocalQueue. */
  String queueName() {
    return resource.get("spec", "queueName");
  }

  /** {@code spec.priorityClassRef.name}, or null. */
  String priorityClassName() {
    return resource.get("spec", "priorityClassRef", "name");
  }

  /** {@code spec.podSets[*]} as name to count, in order. */
  Map<String, Integer> podSetCounts() {
    List<Map<String, Object>> podSets = resource.get("spec", "podSets");
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (Map<String, Object> p : podSets == null ? List.<Map<String, Object>>of() : podSets) {
      Number count = (Number) p.get("count");
      counts.put((String) p.get("name"), count == null ? 1 : count.intValue());
    }
    return counts;
  }

  @Override
  public String toString() {
    return "Workload " + resource.getMetadata().getNamespace() + "/" + name() + " conditions="
        + conditions().stream().map(c -> c.getType() + "=" + c.getStatus() + "(" + c.getReason() + ")").toList()
        + " admission=" + admission().orElse(null);
  }
}
