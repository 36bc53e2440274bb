package dev.stint.core.decision;

import dev.stint.spi.ReplicaOutcomes;
import dev.stint.spi.ReplicaOutcomes.TypeOutcome;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/** What one pass over a job's replicas found, per replica type: counts, outcomes by index and failures. */
final class ReplicaTally {

  /** Counts and outcomes of one replica type. */
  static final class TypeTally {
    final int replicas;
    int active;
    int succeeded;
    int failed;
    int terminating;
    int newRestarts;
    final Set<Integer> activeIndexes = new HashSet<>();
    final SortedSet<Integer> succeededIndexes = new TreeSet<>();
    /** Indexes whose pod failed and will not be retried, with the exit code. */
    final SortedMap<Integer, Integer> failedForGood = new TreeMap<>();

    TypeTally(int replicas) {
      this.replicas = replicas;
    }

    /** Every replica is running or has already succeeded, and at least one runs. */
    boolean up() {
      return active > 0 && activeIndexes.size() + succeededIndexes.size() >= replicas;
    }
  }

  private final Map<String, TypeTally> byType = new LinkedHashMap<>();
  boolean backoffExceeded;
  int containerRestarts;
  /** Some pod cannot run ({@link WaitingPods}): then not every replica is up, even if every pod's phase is Running. */
  boolean podsWaiting;

  /** Members that failed or were disrupted, for a job with a failure policy: in the framework's order, by index. */
  private final java.util.List<MemberFailure> memberFailures = new java.util.ArrayList<>();

  java.util.List<MemberFailure> memberFailures() {
    return memberFailures;
  }

  TypeTally type(String type, int replicas) {
    return byType.computeIfAbsent(type, t -> new TypeTally(replicas));
  }

  Map<String, TypeTally> byType() {
    return byType;
  }

  ReplicaOutcomes outcomes() {
    Map<String, TypeOutcome> map = new LinkedHashMap<>();
    byType.forEach((type, t) -> map.put(type, new TypeOutcome(t.replicas, Set.copyOf(t.activeIndexes),
        new TreeSet<>(t.succeededIndexes), new TreeSet<>(t.failedForGood.keySet()))));
    return new ReplicaOutcomes(map);
  }

  boolean anyFailedForGood() {
    return byType.values().stream().anyMatch(t -> !t.failedForGood.isEmpty());
  }

  /** Replica types with indexes that failed for good, in the framework's order. */
  java.util.List<String> typesFailedForGood() {
    return byType.entrySet().stream().filter(e -> !e.getValue().failedForGood.isEmpty()).map(Map.Entry::getKey)
        .toList();
  }

  boolean allUp() {
    return !podsWaiting && !byType.isEmpty() && byType.values().stream().allMatch(t -> t.replicas == 0 || t.up())
        && byType.values().stream().anyMatch(t -> t.active > 0);
  }

  int newRestarts() {
    return byType.values().stream().mapToInt(t -> t.newRestarts).sum();
  }
}
