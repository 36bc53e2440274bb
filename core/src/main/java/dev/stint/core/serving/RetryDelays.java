package dev.stint.core.serving;

import java.time.Duration;

/**
 * When a kind that is down is checked again: {@code first}, then twice as long each time, at most {@code max}. A
 * right granted or a CRD applied is seen within {@code max}; a kind down for days costs one discovery request and a
 * few access reviews per {@code max}.
 */
public record RetryDelays(Duration first, Duration max) {
  /** The production delays: 5 s, doubling, at most a minute. */
  public static final RetryDelays DEFAULT = new RetryDelays(Duration.ofSeconds(5), Duration.ofMinutes(1));

  /** The delay before attempt {@code failures + 1}, after {@code failures} failed attempts (at least one). */
  public Duration after(int failures) {
    Duration delay = first;
    for (int i = 1; i < failures && delay.compareTo(max) < 0; i++) {
      delay = delay.multipliedBy(2);
    }
    return delay.compareTo(max) > 0 ? max : delay;
  }
}
