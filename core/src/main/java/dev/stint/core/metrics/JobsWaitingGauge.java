package dev.stint.core.metrics;

import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code stint_jobs_with_pods_waiting{kind, reason}}: the jobs whose {@code PodsWaiting} condition is True, by the
 * condition's cause ({@code Unschedulable}, {@code ImagePullBackOff}, ...; the reason without the kind). Kept from the
 * statuses the operator writes, so it costs nothing per pass but a map lookup; a series stays, at 0, once its last
 * job stopped waiting.
 */
final class JobsWaitingGauge {
  /** {@code stint_jobs_with_pods_waiting}: a gauge. */
  static final String NAME = "stint.jobs.with.pods.waiting";

  private record Key(String kind, String reason) { }

  private final MeterRegistry registry;
  private final Map<String, Key> byUid = new ConcurrentHashMap<>();
  private final Map<Key, AtomicInteger> jobs = new ConcurrentHashMap<>();

  JobsWaitingGauge(MeterRegistry registry) {
    this.registry = registry;
  }

  /** The job's status as written. */
  void record(String uid, String kind, JobStatus status) {
    JobCondition waiting = status.condition("PodsWaiting").filter(JobCondition::isTrue).orElse(null);
    Key next = waiting == null ? null : new Key(kind, cause(kind, waiting.getReason()));
    Key previous = next == null ? byUid.remove(uid) : byUid.put(uid, next);
    if (!Objects.equals(previous, next)) {
      if (previous != null) {
        jobs.get(previous).decrementAndGet();
      }
      if (next != null) {
        gauge(next).incrementAndGet();
      }
    }
  }

  void forget(String uid) {
    Key previous = byUid.remove(uid);
    if (previous != null) {
      jobs.get(previous).decrementAndGet();
    }
  }

  private AtomicInteger gauge(Key key) {
    return jobs.computeIfAbsent(key, k -> {
      AtomicInteger count = new AtomicInteger();
      Gauge.builder(NAME, count, AtomicInteger::get)
          .description("Jobs some of whose pods exist and cannot run (condition PodsWaiting), by cause")
          .tag("kind", k.kind()).tag("reason", k.reason()).register(registry);
      return count;
    });
  }

  private static String cause(String kind, String reason) {
    return reason != null && reason.startsWith(kind) ? reason.substring(kind.length()) : String.valueOf(reason);
  }
}
