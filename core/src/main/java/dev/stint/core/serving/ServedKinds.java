package dev.stint.core.serving;

import dev.stint.kubeclient.WatchedCache;
import io.fabric8.kubernetes.api.Pluralize;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.controller.ControllerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.ManagedInformerEventSource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Every kind the operator serves, each started and stopped on its own ({@link ServedKind}): what {@code /readyz} and
 * {@code stint_kind_served} report, and where an informer that stopped, or went deaf, is handled.
 */
public final class ServedKinds implements AutoCloseable {
  /** How often kinds whose informers do not watch are checked: a missing CRD or right is named within this. */
  private static final Duration SWEEP = Duration.ofSeconds(10);
  private final List<ServedKind> kinds = new ArrayList<>();
  private final ScheduledExecutorService scheduler;

  public ServedKinds(int kinds) {
    this.scheduler = Executors.newScheduledThreadPool(Math.max(2, kinds), r -> {
      Thread t = new Thread(r, "stint-kinds");
      t.setDaemon(true);
      return t;
    });
  }

  /** Where each kind's attempts run. */
  public ScheduledExecutorService scheduler() {
    return scheduler;
  }

  /** Adds a kind, with its gauge {@code stint_kind_served{kind}}: 1 while its controller runs, else 0. */
  public void add(ServedKind kind, MeterRegistry meters) {
    kinds.add(kind);
    Gauge.builder("stint.kind.served", kind, k -> k.served() ? 1 : 0).tag("kind", kind.kind())
        .description("1 while the kind's controller runs, 0 while it is down (its CRD or a right missing)")
        .register(meters);
  }

  /**
   * The first attempt of every kind, all at once; returns when each kind is served or down. Then, every
   * {@code SWEEP}, the kinds served with an informer that does not watch are checked ({@link ServedKind#sweep}).
   */
  public void start() {
    CompletableFuture.allOf(kinds.stream().map(k -> CompletableFuture.runAsync(k::attempt, scheduler))
        .toArray(CompletableFuture[]::new)).join();
    scheduler.scheduleWithFixedDelay(() -> kinds.forEach(ServedKind::sweep), SWEEP.toMillis(), SWEEP.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /**
   * This process starts reconciling: each kind served starts processing events, on a thread of the kinds (the
   * elector's callback must not wait for a kind that is being started).
   */
  public void startLeading() {
    kinds.forEach(k -> onKindsThread(k::startLeading));
  }

  /** An informer stopped on an error: its kind goes down (on another thread: JOSDK's callback must not wait). */
  public void informerStopped(Throwable error) {
    onKindsThread(() -> kinds.forEach(k -> k.informerStopped(error)));
  }

  private void onKindsThread(Runnable task) {
    try {
      scheduler.execute(task);
    } catch (RejectedExecutionException e) {
      // the operator stops: nothing left to do for the kinds
    }
  }

  /** The informers of the kinds served now. */
  public List<WatchedCache> watchedCaches() {
    List<WatchedCache> caches = new ArrayList<>();
    kinds.forEach(k -> caches.addAll(k.watchedCaches()));
    return caches;
  }

  /** Lists and watches {@code cache}'s informer afresh; false when no kind served has it (any more). */
  public boolean restart(WatchedCache cache) {
    return kinds.stream().anyMatch(k -> k.restart(cache));
  }

  /** The kinds down, each with why: kind to reason, in the order of registration. */
  public Map<String, String> down() {
    Map<String, String> down = new LinkedHashMap<>();
    for (ServedKind kind : kinds) {
      String reason = kind.downReason();
      if (!kind.served() && reason != null) {
        down.put(kind.kind(), reason);
      }
    }
    return down;
  }

  /** Whether at least one kind is served. */
  public boolean anyServed() {
    return kinds.stream().anyMatch(ServedKind::served);
  }

  /** The unhealthy informers of the kinds served, as {@code controller/event source}. */
  public List<String> unhealthyInformers() {
    return kinds.stream().flatMap(k -> k.unhealthyInformers().stream()).sorted().toList();
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
    kinds.forEach(ServedKind::stop);
  }

  /** The resources a controller's child informers follow (its job kind's own informer left out). */
  public static Set<KindCheck.Watched> childrenOf(Controller<?> controller) {
    Set<KindCheck.Watched> children = new LinkedHashSet<>();
    for (EventSource<?, ?> source : controller.getEventSourceManager().allEventSources()) {
      if (source instanceof ManagedInformerEventSource<?, ?, ?> informer
          && !(source instanceof ControllerEventSource<?>)) {
        children.add(watched(informer));
      }
    }
    return children;
  }

  private static KindCheck.Watched watched(ManagedInformerEventSource<?, ?, ?> informer) {
    Class<? extends HasMetadata> type = informer.configuration().getInformerConfig().getResourceClass();
    if (type == GenericKubernetesResource.class
        && informer.configuration() instanceof InformerEventSourceConfiguration<?> config
        && config.getGroupVersionKind().isPresent()) {
      var gvk = config.getGroupVersionKind().get();
      return new KindCheck.Watched(gvk.getGroup() == null ? "" : gvk.getGroup(),
          Pluralize.toPlural(gvk.getKind().toLowerCase(java.util.Locale.ROOT)));
    }
    return new KindCheck.Watched(HasMetadata.getGroup(type), HasMetadata.getPlural(type));
  }
}
