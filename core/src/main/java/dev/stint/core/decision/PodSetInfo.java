package dev.stint.core.decision;

import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What Kueue's admission puts into the pods of one podSet (Kueue's {@code podset.PodSetInfo}): the flavors' node
 * labels and tolerations, the admission checks' updates, Kueue's pod labels and annotation, and the admitted count.
 * A value of the decision's own, as {@link KueueGate}: {@code dev.stint.core.kueue.WorkloadGate} builds it from the
 * Workload's admission.
 *
 * @param count the admitted pods of the podSet; null when the admission does not say (the spec's count)
 * @param schedulingGates the gates the pods are created with: Kueue's topology gate when the podSet was placed by
 *     topology, which Kueue's ungater lifts from each pod with the node selector of its rank's domain
 */
public record PodSetInfo(String name, Integer count, Map<String, String> nodeSelector, List<Toleration> tolerations,
                         Map<String, String> labels, Map<String, String> annotations, List<String> schedulingGates) {

  /** Kueue's scheduling gate on a pod placed by topology ({@code kueue.x-k8s.io/topology}). */
  public static final String TOPOLOGY_GATE = "kueue.x-k8s.io/topology";

  /** Thrown when two sources give one key different values: Kueue refuses to start such a job too. */
  public static final class ConflictException extends IllegalArgumentException {
    public ConflictException(String message) {
      super(message);
    }
  }

  /**
   * Puts Kueue's keys into a map that may already hold some (a pod's, from its template; a podSet's, from another
   * flavor or admission check): a different value for a key conflicts.
   */
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
