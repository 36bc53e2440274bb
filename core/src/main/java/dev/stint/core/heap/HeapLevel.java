package dev.stint.core.heap;

/**
 * How short the operator's heap is, judged on the live heap after a collection (what the caches and queues really
 * hold), against the most the heap may grow to. The decision is pure: {@link #next} is table-tested.
 *
 * <p>Each level is left only some way below where it was entered, so that a live heap that hovers around a threshold
 * does not switch the operator's behaviour at every collection.
 */
public enum HeapLevel {
  /** Room to spare: the operator works at full speed. */
  NORMAL,
  /** Three quarters used: per-child events and the watch check pause, to keep what is left for the caches. */
  TIGHT,
  /**
   * Nine tenths used: also no job that has no pods yet gets any; it waits, and the jobs already running keep what
   * they need. The operator slows down instead of running out of memory.
   */
  SHORT;

  static final double TIGHT_FROM = 0.75;
  static final double TIGHT_UNTIL = 0.70;
  static final double SHORT_FROM = 0.90;
  static final double SHORT_UNTIL = 0.85;

  /** The level after a collection left {@code live} bytes of at most {@code max}, coming from this level. */
  public HeapLevel next(long live, long max) {
    if (max <= 0) {
      return NORMAL;
    }
    double used = (double) live / max;
    if (used >= SHORT_FROM || this == SHORT && used >= SHORT_UNTIL) {
      return SHORT;
    }
    if (used >= TIGHT_FROM || this != NORMAL && used >= TIGHT_UNTIL) {
      return TIGHT;
    }
    return NORMAL;
  }

  /** Whether work that can wait (per-child events, the watch check) should. */
  public boolean tight() {
    return this != NORMAL;
  }
}
