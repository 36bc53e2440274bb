package dev.stint.spi;

/**
 * Decides when a job has succeeded. A framework supplies the default policy of its kind
 * ({@link TrainingFramework#successPolicy}); the engine turns a policy that holds into conditions, stops the replicas
 * still running and reports a partial success when some replicas failed. Implementations are pure functions.
 */
@FunctionalInterface
public interface SuccessPolicy {

  /** True when the job counts as succeeded with these outcomes. */
  boolean holds(ReplicaOutcomes outcomes);

  /** A policy that holds when every replica of {@code type} succeeded. */
  static SuccessPolicy allOf(String type) {
    return o -> o.of(type).replicas() > 0 && o.of(type).succeeded().size() >= o.of(type).replicas();
  }

  /** A policy that holds when at least {@code min} replicas of {@code type} succeeded. */
  static SuccessPolicy atLeast(String type, int min) {
    return o -> o.of(type).succeeded().size() >= min;
  }
}
