package dev.stint.testkit;

import dev.stint.spi.ReplicaOutcomes;
import dev.stint.spi.ReplicaOutcomes.TypeOutcome;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * The {@link ReplicaOutcomes} a kind's success policy or launcher gate is asked about, written type by type:
 * {@code Outcomes.of(o -> o.type("Master", 1, 0).type("Worker", 3))} is a Master that succeeded and three Workers
 * none of which has ended.
 */
public final class Outcomes {
  private final Map<String, TypeOutcome> byType = new LinkedHashMap<>();

  private Outcomes() { }

  /** The outcomes the given types make. */
  public static ReplicaOutcomes of(UnaryOperator<Outcomes> types) {
    return new ReplicaOutcomes(types.apply(new Outcomes()).byType);
  }

  /** A type of this many replicas, of which the given indexes succeeded; none active or failed. */
  public Outcomes type(String type, int replicas, Integer... succeeded) {
    byType.put(type, new TypeOutcome(replicas, Set.of(), new TreeSet<>(Arrays.asList(succeeded)), new TreeSet<>()));
    return this;
  }

  /** A type of this many replicas, of which the given indexes are active (running); none ended. */
  public Outcomes active(String type, int replicas, Integer... active) {
    byType.put(type, new TypeOutcome(replicas, Set.of(active), new TreeSet<>(), new TreeSet<>()));
    return this;
  }
}
