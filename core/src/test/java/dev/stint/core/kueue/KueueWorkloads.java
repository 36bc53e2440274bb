package dev.stint.core.kueue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fluent Workload fixtures in the shape Kueue writes them:
 * {@code KueueWorkloads.workload("w").queue("q").admitted("cq", "worker", Map.of("cpu", "on-demand"), 2).view()}.
 */
final class KueueWorkloads {
  private final GenericKubernetesResource workload = new GenericKubernetesResource();
  private final Map<String, Object> spec = new LinkedHashMap<>();
  private final Map<String, Object> status = new LinkedHashMap<>();
  private final List<Map<String, Object>> conditions = new ArrayList<>();
  private final List<Map<String, Object>> assignments = new ArrayList<>();

  private KueueWorkloads(String name) {
    workload.setApiVersion(KueueApi.API_VERSION);
    workload.setKind("Workload");
    workload.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").withResourceVersion("7")
        .withGeneration(1L).withFinalizers(KueueApi.FINALIZER).withAnnotations(new LinkedHashMap<>()).build());
    workload.setAdditionalProperty("spec", spec);
    workload.setAdditionalProperty("status", status);
    status.put("conditions", conditions);
  }

  static KueueWorkloads workload(String name) {
    return new KueueWorkloads(name);
  }

  KueueWorkloads queue(String queue) {
    spec.put("queueName", queue);
    return this;
  }

  KueueWorkloads active(boolean active) {
    spec.put("active", active);
    return this;
  }

  KueueWorkloads annotation(String key, String value) {
    workload.getMetadata().getAnnotations().put(key, value);
    return this;
  }

  KueueWorkloads condition(String type, String value, String reason) {
    conditions.removeIf(c -> type.equals(c.get("type")));
    conditions.add(new LinkedHashMap<>(Map.of("type", type, "status", value, "reason", reason, "message",
        type + " " + reason, "lastTransitionTime", "2026-12-01T10:00:00Z", "observedGeneration", 1)));
    return this;
  }

  /** A condition with a message of its own. */
  KueueWorkloads condition(String type, String value, String reason, String message) {
    condition(type, value, reason);
    conditions.get(conditions.size() - 1).put("message", message);
    return this;
  }

  /** QuotaReserved and Admitted True, with one assignment (more with {@link #assignment}). */
  KueueWorkloads admitted(String clusterQueue, String podSet, Map<String, String> flavors, Integer count) {
    status.put("admission", Map.of("clusterQueue", clusterQueue, "podSetAssignments", assignments));
    condition("QuotaReserved", "True", "QuotaReserved");
    condition("Admitted", "True", "Admitted");
    return assignment(podSet, flavors, count);
  }

  KueueWorkloads assignment(String podSet, Map<String, String> flavors, Integer count) {
    Map<String, Object> assignment = new LinkedHashMap<>(Map.of("name", podSet, "flavors", flavors));
    if (count != null) {
      assignment.put("count", count);
    }
    assignments.add(assignment);
    return this;
  }

  /** Marks the last assignment placed by topology: a {@code topologyAssignment} on one rack (its content is Kueue's). */
  KueueWorkloads byTopology() {
    assignments.get(assignments.size() - 1).put("topologyAssignment", Map.of("levels", List.of("rack"),
        "slices", List.of(Map.of("domainCount", 1, "podCounts", Map.of("universal", 2),
            "valuesPerLevel", List.of(Map.of("universal", "r1"))))));
    return this;
  }

  /** One more {@code spec.podSets[]} entry with this {@code topologyRequest}. */
  @SuppressWarnings("unchecked")
  KueueWorkloads podSet(String name, int count, Map<String, Object> topologyRequest) {
    ((List<Map<String, Object>>) spec.computeIfAbsent("podSets", k -> new ArrayList<>()))
        .add(new LinkedHashMap<>(Map.of("name", name, "count", count, "topologyRequest", topologyRequest)));
    return this;
  }

  /** One more {@code spec.podSets[]} entry, with its count only. */
  @SuppressWarnings("unchecked")
  KueueWorkloads podSet(String name, int count) {
    ((List<Map<String, Object>>) spec.computeIfAbsent("podSets", k -> new ArrayList<>()))
        .add(new LinkedHashMap<>(Map.of("name", name, "count", count)));
    return this;
  }

  /** One more {@code status.reclaimablePods} entry. */
  @SuppressWarnings("unchecked")
  KueueWorkloads reclaimable(String podSet, int count) {
    ((List<Map<String, Object>>) status.computeIfAbsent("reclaimablePods", k -> new ArrayList<>()))
        .add(new LinkedHashMap<>(Map.of("name", podSet, "count", count)));
    return this;
  }

  KueueWorkloads evicted(String reason) {
    return condition("Evicted", "True", reason);
  }

  KueueWorkloads podSetUpdate(String podSet, Map<String, Object> update) {
    Map<String, Object> u = new LinkedHashMap<>(update);
    u.put("name", podSet);
    status.put("admissionChecks", List.of(Map.of("name", "check", "state", "Ready", "podSetUpdates", List.of(u))));
    return this;
  }

  KueueWorkloads deleting() {
    workload.getMetadata().setDeletionTimestamp("2026-12-01T11:00:00Z");
    return this;
  }

  KueueWorkloads edit(java.util.function.Consumer<GenericKubernetesResource> edit) {
    edit.accept(workload);
    return this;
  }

  GenericKubernetesResource build() {
    return workload;
  }

  WorkloadView view() {
    return WorkloadView.of(workload);
  }
}
