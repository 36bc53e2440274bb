package dev.stint.core.testing;

import dev.stint.core.kueue.KueueApi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plays Kueue on the fabric8 mock server, as far as the Workload protocol goes: installs the Workload and
 * ResourceFlavor CRDs, admits a Workload (status.admission with the flavors, QuotaReserved and Admitted True, Evicted
 * False), evicts it (Evicted True, admission kept, as Kueue's core does: the controller releases it).
 */
public final class KueueDouble {
  private final KubernetesClient client;
  private final String namespace;

  public KueueDouble(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  /** The CRDs Stint watches in native mode, so that API discovery knows them. */
  public void installCrds() {
    client.apiextensions().v1().customResourceDefinitions().resource(crd("Workload", "workloads", "Namespaced"))
        .createOr(existing -> existing.update());
    client.apiextensions().v1().customResourceDefinitions()
        .resource(crd("ResourceFlavor", "resourceflavors", "Cluster")).createOr(existing -> existing.update());
  }

  public void flavor(String name, Map<String, String> nodeLabels, List<Map<String, Object>> tolerations) {
    client.genericKubernetesResources(KueueApi.RESOURCE_FLAVORS).resource(new GenericKubernetesResourceBuilder()
        .withApiVersion(KueueApi.API_VERSION).withKind("ResourceFlavor").withNewMetadata().withName(name).endMetadata()
        .withAdditionalProperties(Map.of("spec", Map.of("nodeLabels", nodeLabels, "tolerations", tolerations)))
        .build()).createOr(existing -> existing.update());
  }

  /** The job's Workload (Stint's, by its job-uid label), or null. */
  public GenericKubernetesResource workloadOf(String jobUid) {
    return client.genericKubernetesResources(KueueApi.WORKLOADS).inNamespace(namespace)
        .withLabel(KueueApi.JOB_UID_LABEL, jobUid).list().getItems().stream().findFirst().orElse(null);
  }

  /** Admits every podSet of the Workload on one flavor, each with its spec count (or {@code count} if not null). */
  @SuppressWarnings("unchecked")
  public void admit(String workloadName, String clusterQueue, String flavor, Integer count) {
    GenericKubernetesResource workload = get(workloadName);
    Map<String, Object> spec = (Map<String, Object>) workload.getAdditionalProperties().get("spec");
    List<Map<String, Object>> assignments = new ArrayList<>();
    for (Map<String, Object> podSet : (List<Map<String, Object>>) spec.get("podSets")) {
      assignments.add(Map.of("name", podSet.get("name"), "flavors", Map.of("cpu", flavor),
          "count", count == null ? podSet.get("count") : count));
    }
    Map<String, Object> status = status(workload);
    status.put("admission", Map.of("clusterQueue", clusterQueue, "podSetAssignments", assignments));
    List<Map<String, Object>> conditions = conditions(status);
    set(conditions, "QuotaReserved", "True", "QuotaReserved", "Quota reserved in ClusterQueue " + clusterQueue);
    set(conditions, "Admitted", "True", "Admitted", "The workload is admitted");
    if (conditions.stream().anyMatch(c -> "Evicted".equals(c.get("type")))) {
      set(conditions, "Evicted", "False", "QuotaReserved", "Previously: evicted");
    }
    client.genericKubernetesResources(KueueApi.WORKLOADS).inNamespace(namespace).resource(workload).updateStatus();
  }

  /** Sets Evicted=True with that reason, keeping the admission until the controller releases it. */
  public void evict(String workloadName, String reason) {
    GenericKubernetesResource workload = get(workloadName);
    List<Map<String, Object>> conditions = conditions(status(workload));
    set(conditions, "Evicted", "True", reason, "Evicted by the test: " + reason);
    client.genericKubernetesResources(KueueApi.WORKLOADS).inNamespace(namespace).resource(workload).updateStatus();
  }

  /** A Workload made before its job (as MultiKueue makes a worker's), with these podSets' counts and no owner. */
  public void prebuilt(String workloadName, String queue, Map<String, Integer> podSetCounts) {
    List<Map<String, Object>> podSets = new ArrayList<>();
    podSetCounts.forEach((podSet, count) -> podSets.add(Map.of("name", podSet, "count", count,
        "template", Map.of("spec", Map.of("containers", List.of(Map.of("name", "main", "image", "busybox")))))));
    client.genericKubernetesResources(KueueApi.WORKLOADS).inNamespace(namespace).resource(
        new GenericKubernetesResourceBuilder().withApiVersion(KueueApi.API_VERSION).withKind("Workload")
            .withNewMetadata().withName(workloadName).endMetadata()
            .withAdditionalProperties(Map.of("spec", Map.of("queueName", queue, "podSets", podSets))).build())
        .create();
    GenericKubernetesResource pending = get(workloadName); // as Kueue writes it before quota is reserved
    set(conditions(status(pending)), "QuotaReserved", "False", "Pending", "Waiting for quota");
    client.genericKubernetesResources(KueueApi.WORKLOADS).inNamespace(namespace).resource(pending).updateStatus();
  }

  /** Sets Finished=True with that reason, as MultiKueue does when it copies a worker's status. */
  public void finish(String workloadName, String reason) {
    GenericKubernetesResource workload = get(workloadName);
    set(conditions(status(workload)), "Finished", "True", reason, "Finished by the test: " + reason);
    client.genericKubernetesResources(KueueApi.WORKLOADS).inNamespace(namespace).resource(workload).updateStatus();
  }

  public GenericKubernetesResource get(String workloadName) {
    return client.genericKubernetesResources(KueueApi.WORKLOADS).inNamespace(namespace).withName(workloadName).get();
  }

  /** The condition's {@code status/reason}, or null. */
  @SuppressWarnings("unchecked")
  public static String condition(GenericKubernetesResource workload, String type) {
    Map<String, Object> status = (Map<String, Object>) workload.getAdditionalProperties().get("status");
    if (status == null || status.get("conditions") == null) {
      return null;
    }
    return ((List<Map<String, Object>>) status.get("conditions")).stream().filter(c -> type.equals(c.get("type")))
        .map(c -> c.get("status") + "/" + c.get("reason")).findFirst().orElse(null);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> status(GenericKubernetesResource workload) {
    Object status = workload.getAdditionalProperties().get("status");
    Map<String, Object> copy = status == null ? new LinkedHashMap<>()
        : new LinkedHashMap<>((Map<String, Object>) status);
    workload.getAdditionalProperties().put("status", copy);
    return copy;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> conditions(Map<String, Object> status) {
    List<Map<String, Object>> conditions = new ArrayList<>();
    if (status.get("conditions") != null) {
      ((List<Map<String, Object>>) status.get("conditions")).forEach(c -> conditions.add(new LinkedHashMap<>(c)));
    }
    status.put("conditions", conditions);
    return conditions;
  }

  private static void set(List<Map<String, Object>> conditions, String type, String status, String reason,
                          String message) {
    conditions.removeIf(c -> type.equals(c.get("type")));
    conditions.add(new LinkedHashMap<>(Map.of("type", type, "status", status, "reason", reason, "message", message,
        "lastTransitionTime", "2026-12-01T12:00:00Z")));
  }

  private static CustomResourceDefinition crd(String kind, String plural, String scope) {
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata().withName(plural + "." + KueueApi.GROUP).endMetadata()
        .withNewSpec().withGroup(KueueApi.GROUP).withScope(scope)
        .withNewNames().withKind(kind).withPlural(plural).withSingular(kind.toLowerCase()).endNames()
        .addNewVersion().withName(KueueApi.VERSION).withServed(true).withStorage(true)
        .withNewSubresources().withNewStatus().endStatus().endSubresources()
        .withNewSchema().withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true)
        .endOpenAPIV3Schema().endSchema().endVersion().endSpec().build();
  }
}
