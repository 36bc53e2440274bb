package dev.stint.testdoubles;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that moves only when told to. */
final class ManualClock extends Clock {
  private volatile Instant now;

  ManualClock(Instant start) {
    this.now = start;
  }

  void advance(Duration by) {
    now = now.plus(by);
  }

  @Override public ZoneId getZone() { return ZoneOffset.UTC; }

  @Override public Clock withZone(ZoneId zone) { return this; }

  @Override public Instant instant() { return now; }
}
