package dev.stint.spi;

import java.util.Map;
import java.util.Set;
import java.util.SortedSet;

/**
 * What the replicas of a job have done so far, by replica type; the input of a {@link SuccessPolicy}. A replica index
 * counts as succeeded when its current pod ended with exit code 0, as failed when its current pod ended failed and
 * will not be retried.
 *
 * @param byType outcomes keyed by replica type, in the framework's order
 */
public record ReplicaOutcomes(Map<String, TypeOutcome> byType) {

  /**
   * The outcome of one replica type.
   *
   * @param replicas desired replicas
   * @param active indexes whose pod is running
   * @param succeeded indexes whose pod succeeded
   * @param failed indexes whose pod failed for good
   */
  public record TypeOutcome(int replicas, Set<Integer> active, SortedSet<Integer> succeeded,
                            SortedSet<Integer> failed) { }

  /** The outcome of a type; an empty outcome with zero replicas when the job has no such type. */
  public TypeOutcome of(String type) {
    TypeOutcome t = byType.get(type);
    return t != null ? t : new TypeOutcome(0, Set.of(), new java.util.TreeSet<>(), new java.util.TreeSet<>());
  }

  public boolean has(String type) {
    return byType.containsKey(type);
  }
}
