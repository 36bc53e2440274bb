package dev.stint.e2e;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Latencies of the Kueue protocol as a test sees them, printed and never asserted (the machine's load decides them):
 * once from the conditions' {@code lastTransitionTime} (whole seconds, as the API server keeps them), once from the
 * test's own clock between the two observations (which adds up to one poll interval of the wait).
 */
final class KueueLatencies {
  /** One measure: what was measured for which kind, from the conditions and as observed. */
  record Sample(String kind, String what, long conditionSeconds, long observedMillis) {
    @Override
    public String toString() {
      return "KUEUE-LATENCY %-10s %-46s conditions %d s, observed %d ms".formatted(kind, what, conditionSeconds,
          observedMillis);
    }
  }

  private final List<Sample> samples = new ArrayList<>();

  /** From the Workload's {@code Admitted=True} to the job's {@code Running=True}; {@code job} says which. */
  void admissionToRunning(String kind, String job, KueueWorkload admitted, Condition running, Instant admittedSeen,
                          Instant runningSeen) {
    add(new Sample(kind, "admission to Running (" + job + ")",
        seconds(admitted.condition("Admitted").orElseThrow(), running),
        Duration.between(admittedSeen, runningSeen).toMillis()));
  }

  /** From the Workload's {@code Evicted=True} to its {@code QuotaReserved=False} (Stint's release). */
  void evictionToQuotaReleased(String kind, KueueWorkload released, Instant evictedSeen, Instant releasedSeen) {
    Condition evicted = released.condition("Evicted").orElseThrow();
    add(new Sample(kind, "eviction (" + evicted.getReason() + ") to quota released",
        seconds(evicted, released.condition("QuotaReserved").orElseThrow()),
        Duration.between(evictedSeen, releasedSeen).toMillis()));
  }

  synchronized void print() {
    samples.forEach(System.out::println);
  }

  private synchronized void add(Sample sample) {
    System.out.println(sample);
    samples.add(sample);
  }

  private static long seconds(Condition from, Condition to) {
    return Duration.between(Instant.parse(from.getLastTransitionTime()), Instant.parse(to.getLastTransitionTime()))
        .toSeconds();
  }
}
