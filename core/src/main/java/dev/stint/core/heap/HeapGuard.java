package dev.stint.core.heap;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the operator from running out of heap: after every garbage collection it reads how much of the heap is live
 * and sets the {@link HeapLevel}; the engine asks it whether to take on new work ({@link #admitsNewJobs}) and whether
 * work that can wait should ({@link #tight}). A change of level is logged once, with what the operator does about it
 * and what to do (a larger {@code STINT_HEAP}), and shown by the metrics {@code stint_heap_pressure} (0 normal,
 * 1 tight, 2 short), {@code stint_heap_live_bytes} and {@code stint_jobs_held_total}.
 *
 * <p>The live heap is the heap pools' usage after their last collection (the old generation's is only known after a
 * full collection, which is when it matters): what a collection could not free, so what the caches, queues and work
 * in flight really hold.
 */
public final class HeapGuard implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HeapGuard.class);
  /** When a job held back because the heap is short asks again. */
  public static final Duration RETRY = Duration.ofSeconds(5);
  static final String PRESSURE = "stint.heap.pressure";
  static final String LIVE = "stint.heap.live";
  static final String HELD = "stint.jobs.held";

  /** The live heap after the last collection, and the most the heap may grow to, in bytes. */
  public record Reading(long live, long max) { }

  private final Supplier<Reading> reading;
  private final AtomicLong live = new AtomicLong();
  private final List<Runnable> unsubscribe = new ArrayList<>();
  private volatile HeapLevel level = HeapLevel.NORMAL;
  private Counter held;

  /** A guard that reads {@code reading} whenever {@link #evaluate} is called (tests; the JVM's: {@link #ofThisJvm}). */
  public HeapGuard(Supplier<Reading> reading) {
    this.reading = reading;
  }

  /** The guard of this JVM's heap, evaluated after every garbage collection. */
  public static HeapGuard ofThisJvm() {
    HeapGuard guard = new HeapGuard(HeapGuard::readThisJvm);
    NotificationListener listener = (Notification n, Object handback) -> {
      if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
        guard.evaluate();
      }
    };
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(listener, null, null);
        guard.unsubscribe.add(() -> {
          try {
            emitter.removeNotificationListener(listener);
          } catch (javax.management.ListenerNotFoundException e) {
            // already gone
          }
        });
      }
    }
    return guard;
  }

  /** Shows the level and the live heap in {@code meters}. */
  public HeapGuard withMetrics(MeterRegistry meters) {
    Gauge.builder(PRESSURE, this, g -> g.level.ordinal())
        .description("How short the heap is: 0 normal, 1 tight (events and the watch check wait), 2 short (new jobs "
            + "wait)").register(meters);
    Gauge.builder(LIVE, live, AtomicLong::get).baseUnit("bytes")
        .description("The live heap after the last garbage collection").register(meters);
    held = Counter.builder(HELD).tag("reason", "heap")
        .description("Passes in which a job that has no pods yet was held back because the heap is short")
        .register(meters);
    return this;
  }

  /** Reads the heap and moves to the level it calls for, logging a change. */
  public void evaluate() {
    Reading now = reading.get();
    live.set(now.live());
    HeapLevel before = level;
    HeapLevel after = before.next(now.live(), now.max());
    if (after != before) {
      level = after;
      log(before, after, now);
    }
  }

  public HeapLevel level() {
    return level;
  }

  /** Whether work that can wait (per-child events, the watch check) should. */
  public boolean tight() {
    return level.tight();
  }

  /** Whether a job that has no pods yet may get them now; counts the pass held back when not. */
  public boolean admitsNewJobs() {
    if (level != HeapLevel.SHORT) {
      return true;
    }
    if (held != null) {
      held.increment();
    }
    return false;
  }

  private static void log(HeapLevel before, HeapLevel after, Reading now) {
    String used = mib(now.live()) + " of " + mib(now.max()) + " MiB of heap live after a collection";
    switch (after) {
      case SHORT -> LOG.warn("Heap short: {}; jobs that have no pods yet wait until it frees (the jobs running keep "
          + "theirs), and per-child events and the watch check pause. Give the operator more heap (STINT_HEAP, "
          + "docs/operations.md#sizing)", used);
      case TIGHT -> LOG.warn("Heap tight: {}; per-child events and the watch check pause{}", used,
          before == HeapLevel.SHORT ? ", and new jobs get their pods again" : "");
      case NORMAL -> LOG.info("Heap back to normal: {}; events and the watch check resume", used);
    }
  }

  private static long mib(long bytes) {
    return bytes >> 20;
  }

  /** The heap pools' usage after their last collection, and the heap's maximum. */
  static Reading readThisJvm() {
    long used = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      MemoryUsage afterCollection = pool.getType() == MemoryType.HEAP ? pool.getCollectionUsage() : null;
      if (afterCollection != null) {
        used += afterCollection.getUsed();
      }
    }
    return new Reading(used, Runtime.getRuntime().maxMemory());
  }

  @Override
  public void close() {
    unsubscribe.forEach(Runnable::run);
    unsubscribe.clear();
  }
}
