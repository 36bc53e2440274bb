package dev.stint.core.kube;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;

/**
 * A queue bounded by the heap its items hold, not by their count: work that waits for a slow API server (events to
 * send) must never be what runs the operator out of memory, however long each item is. An item is refused when it
 * would take the queue past its budget, except into an empty queue, so that one item always fits.
 */
final class Backlog<T> {
  private final LinkedBlockingQueue<T> items = new LinkedBlockingQueue<>();
  private final AtomicLong bytes = new AtomicLong();
  private final long budget;
  private final ToLongFunction<T> sizeOf;

  /**
   * @param budget the bytes the queued items may hold together
   * @param sizeOf the bytes one item holds (an estimate that errs on the large side)
   */
  Backlog(long budget, ToLongFunction<T> sizeOf) {
    this.budget = budget;
    this.sizeOf = sizeOf;
  }

  /** Queues {@code item} if it fits the budget; whether it did. */
  boolean offer(T item) {
    long size = sizeOf.applyAsLong(item);
    long after = bytes.addAndGet(size);
    if (after > budget && after != size) {
      bytes.addAndGet(-size);
      return false;
    }
    items.add(item);
    return true;
  }

  /** The oldest item, or null when there is none. */
  T poll() {
    return taken(items.poll());
  }

  /** The oldest item, waiting up to {@code timeout} for one; null when none came. */
  T poll(long timeout, TimeUnit unit) throws InterruptedException {
    return taken(items.poll(timeout, unit));
  }

  int size() {
    return items.size();
  }

  /** The bytes the queued items hold, as their sizes were estimated. */
  long bytes() {
    return bytes.get();
  }

  private T taken(T item) {
    if (item != null) {
      bytes.addAndGet(-sizeOf.applyAsLong(item));
    }
    return item;
  }
}
