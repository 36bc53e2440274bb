package dev.stint.kubeclient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds an informer whose watch died without telling it: its cache stays behind the API server while fabric8 still
 * counts it as watching (fabric8 7.9 with the JDK HTTP client can miss the end of a WebSocket that closed while its
 * last events were being read, for example at an API server restart; docs/fault-tests.md). Such an informer never
 * delivers another event, so the operator would go deaf for its kind.
 *
 * <p>Every {@code period} it lists each informer's objects from the API server (from its watch cache, as an informer's
 * first list does) and compares their resource versions with the informer's cache. A difference is normal for the
 * milliseconds an event takes to arrive, so it is only suspected and looked at again {@code confirmDelay} later: an
 * object whose version on the API server and in the cache are both still the same as then (the cache still behind,
 * or still holding a deleted object) means the watch delivers nothing, and {@code onDeaf} is told which informer and
 * why. An object that changed meanwhile proves nothing either way and is only suspected again. A failed list (the
 * API server away) forgets what was suspected of that informer.
 *
 * <p>An informer that has taken in objects since the previous check ({@link WatchedCache#delivered()}) is not listed:
 * a deaf watch delivers nothing, and a live one delivers in order, so what was suspected of it is on its way. That
 * spares the lists when they cost most, while the API server is busiest (a list of 8000 pods' metadata at N = 2000),
 * and a watch that goes deaf is still found: one period later, when it has delivered nothing since.
 */
public final class DeafWatchCheck implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DeafWatchCheck.class);
  /** How many of a deaf informer's objects its message names. */
  private static final int SHOWN = 3;

  private final Supplier<List<WatchedCache>> caches;
  private final Duration period;
  private final Duration confirmDelay;
  private final BiConsumer<WatchedCache, String> onDeaf;
  private final Map<WatchedCache, Map<String, Versions>> suspected = new IdentityHashMap<>();
  /** Each informer's {@link WatchedCache#delivered()} at the previous check. */
  private final Map<WatchedCache, Long> deliveredBefore = new IdentityHashMap<>();
  private volatile long skipped;
  private ScheduledExecutorService scheduler;
  private volatile BooleanSupplier paused = () -> false;

  /**
   * @param onDeaf told, once per check that finds one, of each deaf informer: its name and the objects it missed
   */
  public DeafWatchCheck(List<WatchedCache> caches, Duration period, Duration confirmDelay, Consumer<String> onDeaf) {
    this(() -> caches, period, confirmDelay, (cache, evidence) -> onDeaf.accept(evidence));
  }

  /**
   * @param caches the informers to compare, asked at every check (those of the kinds served then)
   * @param onDeaf told, once per check that finds one, of each deaf informer and the objects it missed
   */
  public DeafWatchCheck(Supplier<List<WatchedCache>> caches, Duration period, Duration confirmDelay,
                        BiConsumer<WatchedCache, String> onDeaf) {
    this.caches = caches;
    this.period = period;
    this.confirmDelay = confirmDelay;
    this.onDeaf = onDeaf;
  }

  /**
   * Skips the checks while {@code paused} holds (the heap is short: each check lists every object's metadata), and
   * forgets what it suspected, so that a check after the pause starts afresh.
   */
  public DeafWatchCheck pausedWhen(BooleanSupplier paused) {
    this.paused = paused;
    return this;
  }

  /** An object's resource version on the API server and in the cache; null where it is absent. */
  record Versions(String apiServer, String cache) { }

  /** Checks in the background, on a daemon thread, until {@link #close()}. */
  public synchronized void start() {
    scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "stint-deaf-watch-check");
      t.setDaemon(true);
      return t;
    });
    scheduler.schedule(this::checkAndReschedule, period.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void checkAndReschedule() {
    Duration next = period;
    try {
      next = check();
    } catch (RuntimeException e) {
      LOG.warn("The check of the informers' watches failed: {}", e.toString());
    }
    synchronized (this) {
      if (!scheduler.isShutdown()) {
        scheduler.schedule(this::checkAndReschedule, next.toMillis(), TimeUnit.MILLISECONDS);
      }
    }
  }

  /**
   * Compares every informer once, tells {@code onDeaf} of those found deaf, and returns when to check next: soon
   * when a difference waits to be confirmed, else after the period.
   */
  Duration check() {
    if (paused.getAsBoolean()) {
      suspected.clear();
      deliveredBefore.clear();
      return period;
    }
    boolean suspecting = false;
    List<WatchedCache> now = caches.get();
    Set<WatchedCache> current = Set.copyOf(now);
    suspected.keySet().retainAll(current); // an informer gone (its kind down, restarted) starts afresh
    deliveredBefore.keySet().retainAll(current);
    for (WatchedCache cache : now) {
      if (deliveredSinceLastCheck(cache)) {
        suspected.remove(cache);
        skipped++;
        continue;
      }
      Map<String, Versions> differ;
      try {
        Map<String, String> listed = cache.apiServer().get(); // before the cache: an event may land in between
        differ = differences(listed, cache.cache().get());
      } catch (RuntimeException e) {
        LOG.debug("Could not list for informer {}: {}", cache.name(), e.toString());
        suspected.remove(cache);
        continue;
      }
      Map<String, Versions> before = suspected.getOrDefault(cache, Map.of());
      Map<String, Versions> stuck = new TreeMap<>();
      differ.forEach((key, versions) -> {
        if (versions.equals(before.get(key))) {
          stuck.put(key, versions);
        }
      });
      if (!stuck.isEmpty()) {
        suspected.remove(cache); // once told, it is looked at afresh: the informer is listed again
        onDeaf.accept(cache, describe(cache.name(), stuck));
        continue;
      }
      suspected.put(cache, differ);
      suspecting |= !differ.isEmpty();
    }
    return suspecting ? confirmDelay : period;
  }

  private boolean deliveredSinceLastCheck(WatchedCache cache) {
    long delivered = cache.delivered().getAsLong();
    Long before = deliveredBefore.put(cache, delivered);
    return before != null && before != delivered;
  }

  /** How many times an informer was not listed because it had delivered objects since the check before. */
  public long skipped() {
    return skipped;
  }

  private static Map<String, Versions> differences(Map<String, String> apiServer, Map<String, String> cache) {
    Set<String> keys = new HashSet<>(apiServer.keySet());
    keys.addAll(cache.keySet());
    Map<String, Versions> differences = new HashMap<>();
    for (String key : keys) {
      String listed = apiServer.get(key);
      String cached = cache.get(key);
      if (!Objects.equals(listed, cached)) {
        differences.put(key, new Versions(listed, cached));
      }
    }
    return differences;
  }

  private String describe(String informer, Map<String, Versions> stuck) {
    List<String> shown = new ArrayList<>();
    stuck.entrySet().stream().limit(SHOWN).forEach(e -> shown.add(e.getKey() + " (API server: "
        + orAbsent(e.getValue().apiServer()) + ", cache: " + orAbsent(e.getValue().cache()) + ")"));
    String more = stuck.size() > SHOWN ? " and " + (stuck.size() - SHOWN) + " more" : "";
    return "informer " + informer + " receives no events: its cache has stayed behind the API server for at least "
        + confirmDelay.toSeconds() + " s on " + String.join(", ", shown) + more;
  }

  private static String orAbsent(String version) {
    return version == null ? "absent" : "resourceVersion " + version;
  }

  @Override
  public synchronized void close() {
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
  }
}
