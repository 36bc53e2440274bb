package dev.stint.testkit;

import java.util.LinkedHashMap;
import java.util.Map;

/** Jobs for the tables of the CRD limit tests: a name of a given length, replica counts, a manifest valid otherwise. */
public final class LimitCases {

  private LimitCases() { }

  /** A DNS-1035 name of this length. */
  public static String name(int length) {
    return "n" + "x".repeat(length - 1);
  }

  /** Replica types and their replicas, in order; a null count leaves {@code replicas} unset. */
  public static Map<String, Integer> replicas(Object... typesAndCounts) {
    Map<String, Integer> replicas = new LinkedHashMap<>();
    for (int i = 0; i < typesAndCounts.length; i += 2) {
      replicas.put((String) typesAndCounts[i], (Integer) typesAndCounts[i + 1]);
    }
    return replicas;
  }

  /**
   * A job of this kind that is valid apart from its name and replicas: every replica type gets one container of the
   * kind's default name.
   *
   * @param apiVersion for example {@code kubeflow.org/v1}
   * @param kind for example {@code PyTorchJob}
   * @param specsField the replica-spec map's field, for example {@code pytorchReplicaSpecs}
   * @param container the default container's name, for example {@code pytorch}
   */
  public static String job(String apiVersion, String kind, String specsField, String container, String name,
                           Map<String, Integer> replicas) {
    StringBuilder specs = new StringBuilder();
    replicas.forEach((type, count) -> specs.append("    ").append(type).append(":\n")
        .append(count == null ? "" : "      replicas: " + count + "\n")
        .append("      template: {spec: {containers: [{name: ").append(container).append(", image: busybox}]}}\n"));
    return "apiVersion: " + apiVersion + "\nkind: " + kind + "\nmetadata: {name: " + name + "}\nspec:\n"
        + "  " + specsField + ":\n" + specs;
  }
}
