package dev.stint.kubeclient;

import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * One informer as {@link DeafWatchCheck} compares it: what its cache holds and what the API server holds for the same
 * query (kind, namespaces, label selector), each as object key ({@code namespace/name}) to resource version.
 *
 * @param name the informer's controller and event source, for the log
 * @param resource the plural of the resource it follows ({@code pods}), for the metric of restarts
 * @param apiServer lists the objects from the API server
 * @param cache reads the informer's cache (never the event source's cache of its own recent writes)
 * @param delivered how many objects the informer has taken in (listed or watched) so far: a number that moved between
 *     two checks proves its watch alive, and the check skips the list. A constant where that cannot be known.
 *     Core's {@code WatchedCaches} makes one of a JOSDK event source; this module knows no JOSDK.
 */
public record WatchedCache(String name, String resource, Supplier<Map<String, String>> apiServer,
                           Supplier<Map<String, String>> cache, LongSupplier delivered) {

  /** An informer of an unnamed resource, whose deliveries are not counted: it is listed at every check. */
  public WatchedCache(String name, Supplier<Map<String, String>> apiServer, Supplier<Map<String, String>> cache) {
    this(name, "", apiServer, cache, () -> 0);
  }
}
