package dev.stint.core.kube;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectReference;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Decides what to send for each event, as client-go's {@code EventCorrelator} (tools/record/events_cache.go) does for
 * the Kubeflow operator and every Go controller, with its defaults:
 *
 * <ul>
 *   <li><b>deduplication</b>: an event equal to one sent before (same source, object, type, reason and message)
 *       becomes a PATCH of that event's {@code count} and {@code lastTimestamp}, not a new Event;</li>
 *   <li><b>aggregation</b>: from the {@value #MAX_SIMILAR}th event of one source, object, type and reason with
 *       distinct messages within {@link #SIMILAR_WINDOW}, they are folded into one event, "(combined from similar
 *       events): " and the latest message, whose count grows;</li>
 *   <li><b>spam filter</b>: per source and object a bucket of {@value #BURST} events, refilled by one every
 *       {@link #REFILL}; an event with no token left is dropped. Only the events asked to be budgeted pass through
 *       it: Stint exempts the job's own transitions (created, running, succeeded, ...), a handful per job that users
 *       and tools wait for, which client-go's filter would drop behind a large job's pod events.</li>
 * </ul>
 *
 * <p>Pure but for the clock, and thread-safe. It remembers at most {@value #MAX_KEYS} keys of each kind, the least
 * recently used going first, as client-go's caches.
 */
final class EventCorrelator {
  static final int MAX_SIMILAR = 10;
  static final Duration SIMILAR_WINDOW = Duration.ofMinutes(10);
  static final int BURST = 25;
  static final Duration REFILL = Duration.ofMinutes(5);
  static final int MAX_KEYS = 4096;
  static final String COMBINED = "(combined from similar events): ";

  /** What to send for an event. */
  sealed interface Send {
    /** Post {@code event}, a new Event. */
    record Create(Event event) implements Send { }

    /** Patch the Event {@code name} sent before: its count is now {@code count}, its latest occurrence as given. */
    record Patch(String name, int count, String lastTimestamp, String message) implements Send { }

    /** Send nothing: the object's budget of events is spent. */
    record Drop() implements Send { }
  }

  private record Similar(Set<String> messages, Instant last) { }

  private record Sent(String name, int count) { }

  private static final class Bucket {
    double tokens = BURST;
    Instant refilled;
  }

  private final Clock clock;
  private final Map<String, Similar> similar = lru();
  private final Map<String, Sent> sent = lru();
  private final Map<String, Bucket> buckets = lru();

  EventCorrelator(Clock clock) {
    this.clock = clock;
  }

  /**
   * What to send for {@code event}, which has its own name and a count of 1; {@code budgeted}: whether the spam
   * filter applies.
   */
  synchronized Send correlate(Event event, boolean budgeted) {
    Instant now = clock.instant();
    String objectKey = objectKey(event);
    String similarKey = objectKey + '\u0000' + event.getType() + '\u0000' + event.getReason();
    String message = event.getMessage();
    String key = similarKey + '\u0000' + message;
    if (aggregated(similarKey, message, now)) {
      message = COMBINED + message;
      key = similarKey;
    }
    Sent before = sent.get(key);
    Sent observed = before == null ? new Sent(event.getMetadata().getName(), 1)
        : new Sent(before.name(), before.count() + 1);
    sent.put(key, observed);
    if (budgeted && !take(objectKey, now)) {
      return new Send.Drop();
    }
    if (before == null) {
      event.setMessage(message);
      return new Send.Create(event);
    }
    return new Send.Patch(observed.name(), observed.count(), event.getLastTimestamp(), message);
  }

  /** An event of the Patch that could not be sent because its Event is gone (expired): post it anew. */
  synchronized void forgetSent(Send.Patch patch) {
    sent.values().removeIf(s -> s.name().equals(patch.name()));
  }

  private boolean aggregated(String similarKey, String message, Instant now) {
    Similar seen = similar.get(similarKey);
    if (seen == null || !now.isBefore(seen.last().plus(SIMILAR_WINDOW))) {
      seen = new Similar(new HashSet<>(), now);
    }
    seen.messages().add(message);
    similar.put(similarKey, new Similar(seen.messages(), now));
    return seen.messages().size() >= MAX_SIMILAR;
  }

  private boolean take(String objectKey, Instant now) {
    Bucket bucket = buckets.computeIfAbsent(objectKey, k -> new Bucket());
    if (bucket.refilled != null) {
      double refill = (double) Duration.between(bucket.refilled, now).toMillis() / REFILL.toMillis();
      bucket.tokens = Math.min(BURST, bucket.tokens + Math.max(0, refill));
    }
    bucket.refilled = now;
    if (bucket.tokens < 1) {
      return false;
    }
    bucket.tokens -= 1;
    return true;
  }

  private static String objectKey(Event event) {
    ObjectReference o = event.getInvolvedObject();
    String component = event.getSource() == null ? "" : event.getSource().getComponent();
    return String.join("\u0000", component, o.getKind(), o.getNamespace(), o.getName(), o.getUid(),
        o.getApiVersion());
  }

  private static <V> Map<String, V> lru() {
    return new LinkedHashMap<>(64, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > MAX_KEYS;
      }
    };
  }
}
