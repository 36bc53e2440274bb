package dev.stint.core.serving;

import dev.stint.core.kube.WatchedCaches;
import dev.stint.kubeclient.WatchedCache;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.health.InformerHealthIndicator;
import io.javaoperatorsdk.operator.health.InformerWrappingEventSourceHealthIndicator;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.ManagedInformerEventSource;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One kind's controller, started and stopped on its own, so that a kind the operator cannot serve (its CRD missing or
 * deleted, a right missing from the ClusterRole) is down alone while every other kind is served. Before its informers
 * start, the kind is checked ({@link KindCheck}); a kind that fails the check, whose informers cannot start, or one of
 * whose informers stops, is down: one log line naming why, a notice (a Warning event), and another attempt after
 * {@link RetryDelays}, for as long as it takes. A kind that comes back runs on a new JOSDK controller, so nothing of
 * the old one's reconciles in flight is left over.
 */
public final class ServedKind {
  private static final Logger LOG = LoggerFactory.getLogger(ServedKind.class);

  /** Told of a kind going down (once per distinct reason) and coming back. */
  public interface Notice {
    void down(String kind, String reason);

    void back(String kind);
  }

  private final String kind;
  private final Supplier<Controller<? extends HasMetadata>> controllers;
  private final Function<Controller<?>, KindVerdict> check;
  private final ScheduledExecutorService scheduler;
  private final BooleanSupplier leading;
  private final RetryDelays delays;
  private final Notice notice;
  private final KubernetesClient client;
  private Controller<? extends HasMetadata> unstarted;
  private volatile Controller<? extends HasMetadata> running;
  private volatile String downReason;
  private Map<WatchedCache, ManagedInformerEventSource<?, ?, ?>> caches = Map.of();
  private int failures;
  private int sweepsFoundDown;
  private ScheduledFuture<?> retry;
  private boolean stopping;

  /**
   * @param controllers makes a new controller of the kind (its event sources included), not started
   * @param check the kind's check against the API server, for a controller's informers
   * @param leading whether this process reconciles now: a controller started on a standby only fills its caches
   */
  public ServedKind(String kind, Supplier<Controller<? extends HasMetadata>> controllers,
                    Function<Controller<?>, KindVerdict> check, ScheduledExecutorService scheduler,
                    BooleanSupplier leading, RetryDelays delays, Notice notice, KubernetesClient client) {
    this.kind = kind;
    this.controllers = controllers;
    this.check = check;
    this.scheduler = scheduler;
    this.leading = leading;
    this.delays = delays;
    this.notice = notice;
    this.client = client;
    this.unstarted = controllers.get(); // at once: a bad configuration fails the build, not a background attempt
  }

  public String kind() {
    return kind;
  }

  /** Whether the kind's controller runs. */
  public boolean served() {
    return running != null;
  }

  /** Why the kind is not served, or null when it is (or before its first attempt). */
  public String downReason() {
    return downReason;
  }

  /** The kind's informers that report unhealthy (not running, not watching, not synced), by name. */
  public List<String> unhealthyInformers() {
    Controller<?> controller = running;
    if (controller == null) {
      return List.of();
    }
    return controller.getControllerHealthInfo().unhealthyEventSources().keySet().stream()
        .map(source -> controller.getConfiguration().getName() + "/" + source).sorted().toList();
  }

  /** Checks the kind and starts its controller, or marks it down and tries again later. */
  public synchronized void attempt() {
    retry = null;
    if (stopping || running != null) {
      return;
    }
    Controller<? extends HasMetadata> candidate = unstarted != null ? unstarted : controllers.get();
    unstarted = null;
    KindVerdict verdict = checked(candidate);
    if (verdict.served()) {
      try {
        candidate.start(false);
        if (leading.getAsBoolean()) {
          candidate.startEventProcessing();
        }
        running = candidate;
        caches = cachesOf(candidate);
        nowServed();
        return;
      } catch (RuntimeException e) {
        candidate.stop();
        verdict = KindVerdict.down("its informers could not start: " + ApiErrors.oneLine(e));
      }
    } else {
      unstarted = candidate; // never started: the next attempt can use it, rather than make and register another
    }
    nowDown(verdict.reason());
  }

  /**
   * An informer of some kind stopped on an error (JOSDK's informer-stopped handler does not say whose): when it is
   * one of this kind's, the kind goes down, with the reason its check finds, or else the informer's error.
   */
  public synchronized void informerStopped(Throwable error) {
    Controller<?> controller = running;
    if (stopping || controller == null || !anInformerStopped(controller)) {
      return;
    }
    takeDown(controller, error);
  }

  /**
   * A kind served with an informer that does not watch (fabric8 retries a refused or missing resource for as long as
   * the informer runs) is checked: when the check finds the kind cannot be served (its CRD gone, a right revoked), it
   * goes down, and is tried again as any kind down. Only a verdict found by two sweeps in a row counts, and a check
   * that cannot reach the API server changes nothing: an API server that restarts (whose discovery may lack the CRDs
   * for a moment) is no reason to stop a kind.
   */
  public synchronized void sweep() {
    Controller<?> controller = running;
    if (stopping || controller == null || controller.getControllerHealthInfo().unhealthyEventSources().isEmpty()) {
      sweepsFoundDown = 0;
      return;
    }
    KindVerdict verdict;
    try {
      verdict = check.apply(controller);
    } catch (RuntimeException e) {
      return;
    }
    sweepsFoundDown = verdict.served() ? 0 : sweepsFoundDown + 1;
    if (sweepsFoundDown >= 2) {
      sweepsFoundDown = 0;
      stopController(controller);
      nowDown(verdict.reason());
    }
  }

  /** This process starts reconciling: the running controller starts processing events. */
  public synchronized void startLeading() {
    if (running != null) {
      running.startEventProcessing();
    }
  }

  /** The kind's informers as the deaf-watch check compares them; none while the kind is down. */
  public synchronized List<WatchedCache> watchedCaches() {
    return List.copyOf(caches.keySet());
  }

  /**
   * Lists and watches one informer of the kind afresh, in place: its cache keeps what it holds until the new list
   * replaces it, and the kind's other informers, its reconciles and the process go on.
   *
   * @return whether {@code cache} was one of this kind's (and was restarted, or took the kind down when it could not)
   */
  public synchronized boolean restart(WatchedCache cache) {
    ManagedInformerEventSource<?, ?, ?> source = caches.get(cache);
    if (source == null || running == null) {
      return false;
    }
    try {
      source.stop();
      source.start();
    } catch (RuntimeException e) {
      takeDown(running, e);
    }
    return true;
  }

  /** Stops the kind's controller and its attempts. */
  public synchronized void stop() {
    stopping = true;
    if (retry != null) {
      retry.cancel(false);
    }
    if (running != null) {
      running.stop();
      running = null;
    }
  }

  private KindVerdict checked(Controller<?> candidate) {
    try {
      return check.apply(candidate);
    } catch (RuntimeException e) {
      return KindVerdict.down("could not check it on the API server: " + ApiErrors.oneLine(e));
    }
  }

  private void takeDown(Controller<?> controller, Throwable error) {
    stopController(controller);
    KindVerdict verdict = checked(controller);
    nowDown(verdict.served() ? "an informer stopped: " + ApiErrors.oneLine(error) : verdict.reason());
  }

  private void stopController(Controller<?> controller) {
    controller.stop();
    running = null;
    caches = Map.of();
  }

  private static boolean anInformerStopped(Controller<?> controller) {
    for (InformerWrappingEventSourceHealthIndicator<?> source
        : controller.getControllerHealthInfo().informerEventSourceHealthIndicators().values()) {
      for (InformerHealthIndicator informer : source.informerHealthIndicators().values()) {
        if (!informer.isRunning()) {
          return true;
        }
      }
    }
    return false;
  }

  private Map<WatchedCache, ManagedInformerEventSource<?, ?, ?>> cachesOf(Controller<?> controller) {
    Map<WatchedCache, ManagedInformerEventSource<?, ?, ?>> of = new IdentityHashMap<>();
    for (EventSource<?, ?> source : controller.getEventSourceManager().allEventSources()) {
      if (source instanceof ManagedInformerEventSource<?, ?, ?> informer) {
        of.put(WatchedCaches.of(informer, controller.getConfiguration(), client), informer);
      }
    }
    return of;
  }

  private void nowServed() {
    boolean wasDown = downReason != null;
    downReason = null;
    failures = 0;
    if (wasDown) {
      LOG.info("{} is served again", kind);
      notice.back(kind);
    }
  }

  private void nowDown(String reason) {
    failures++;
    long seconds = delays.after(failures).toSeconds();
    if (!reason.equals(downReason)) {
      LOG.warn("{} is not served: {}; the other kinds are; checking again in {} s, then less and less often", kind,
          reason, seconds);
      notice.down(kind, reason);
    } else {
      LOG.debug("{} is still not served: {}", kind, reason);
    }
    downReason = reason;
    if (!stopping) {
      try {
        retry = scheduler.schedule(this::attempt, delays.after(failures).toMillis(), TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        LOG.debug("{}: no further attempt, the operator stops", kind);
      }
    }
  }
}
