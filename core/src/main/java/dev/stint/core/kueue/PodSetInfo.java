package dev.stint.core.kueue;

import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What Kueue's admission puts into the pods of one podSet (Kueue's {@code podset.PodSetInfo}): the flavors' node
 * labels and tolerations, the admission checks' updates, Kueue's pod labels and annotation, and the admitted count.
 *
 * @param count the admitted pods of the podSet; null when the admission does not say (the spec's count)
 */
public record PodSetInfo(String name, Integer count, Map<String, String> nodeSelector, List<Toleration> tolerations,
                         Map<String, String> labels, Map<String, String> annotations) {

  /** Thrown when two sources give one key different values: Kueue refuses to start such a job too. */
  public static final class ConflictException extends IllegalArgumentException {
    ConflictException(String message) {
      super(message);
    }
  }

  /**
   * The podSet's info from its assignment and flavors, then every admission check's update of it merged in
   * ({@code podset.FromAssignment}, then {@code Merge}).
   *
   * @throws ConflictException when a key is given two values, or a flavor is unknown
   */
  static PodSetInfo of(WorkloadView workload, WorkloadView.PodSetAssignment assignment, Map<String, Flavor> flavors) {
    Map<String, String> nodeSelector = new LinkedHashMap<>();
    List<Toleration> tolerations = new ArrayList<>();
    for (String flavorName : assignment.flavors().values().stream().distinct().sorted().toList()) {
      Flavor flavor = flavors.get(flavorName);
      if (flavor == null) {
        throw new ConflictException("ResourceFlavor " + flavorName + " not found");
      }
      merge(nodeSelector, flavor.nodeLabels(), "nodeSelector");
      addAll(tolerations, flavor.tolerations());
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
    for (WorkloadView.PodSetUpdate update : workload.podSetUpdates()) {
      if (assignment.name().equals(update.name())) {
        merge(labels, update.labels(), "labels");
        merge(annotations, update.annotations(), "annotations");
        merge(nodeSelector, update.nodeSelector(), "nodeSelector");
        addAll(tolerations, update.tolerations());
      }
    }
    return new PodSetInfo(assignment.name(), assignment.count(), Map.copyOf(nodeSelector), List.copyOf(tolerations),
        Map.copyOf(labels), Map.copyOf(annotations));
  }

  /** Puts Kueue's keys into a pod's map, which may already hold them from the template: a different value conflicts. */
  public static Map<String, String> mergedInto(Map<String, String> existing, Map<String, String> added, String what) {
    Map<String, String> result = existing == null ? new LinkedHashMap<>() : new LinkedHashMap<>(existing);
    merge(result, added, what);
    return result;
  }

  /** The pod's tolerations with Kueue's added, each once. */
  public static List<Toleration> withTolerations(List<Toleration> existing, List<Toleration> added) {
    List<Toleration> result = existing == null ? new ArrayList<>() : new ArrayList<>(existing);
    addAll(result, added);
    return result;
  }

  private static void merge(Map<String, String> into, Map<String, String> added, String what) {
    added.forEach((key, value) -> {
      String old = into.putIfAbsent(key, value);
      if (old != null && !old.equals(value)) {
        throw new ConflictException(what + " " + key + ": " + old + " and " + value);
      }
    });
  }

  private static void addAll(List<Toleration> into, List<Toleration> added) {
    added.stream().filter(t -> !into.contains(t)).forEach(into::add);
  }
}
