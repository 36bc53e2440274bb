package dev.stint.core;

import dev.stint.core.kube.ActionApplier;
import dev.stint.core.heap.HeapGuard;
import dev.stint.core.kube.EventRecorder;
import dev.stint.core.kueue.KueueObjects;
import dev.stint.core.kueue.WorkloadWriter;
import dev.stint.core.metrics.JobLifecycleMetrics;
import dev.stint.core.metrics.StintMetrics;
import dev.stint.core.reconciler.TrainingJobReconciler;
import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.core.serving.KindEvents;
import dev.stint.core.serving.ServedKind;
import dev.stint.core.serving.ServedKinds;
import dev.stint.kubeclient.DeafWatchCheck;
import dev.stint.kubeclient.WatchedCache;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.ConfigurationService;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stint's engine as a running operator: one JOSDK controller per framework of the registry, all sharing one client,
 * each kind started and stopped on its own ({@link ServedKind}), so that a kind that cannot be served is down alone.
 * Build it with {@link #builder}, then {@link #start()}; {@link #stop()} ends it.
 */
public final class StintOperator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StintOperator.class);
  private final ConfigurationService configuration;
  private final StintMetrics metrics;
  private final ActionApplier applier;
  private final EventRecorder events;
  private final List<TrainingJobReconciler<?>> reconcilers;
  private final JobLifecycleMetrics lifecycle;
  private final WatchCheckSettings watchCheck;
  private final ServedKinds kinds;
  private final KueueObjects kueueObjects;
  private final WorkloadWriter workloads;
  /** Told when this process starts reconciling; by {@link #start} itself when there is no leader election. */
  private final ReconcilerRole role;
  private final LeaseElection election;
  private DeafWatchCheck deafWatchCheck;

  StintOperator(Engine engine, List<TrainingJobReconciler<?>> reconcilers, WatchCheckSettings watchCheck,
                        ServedKinds kinds, LeaseElection election) {
    this.configuration = engine.configuration();
    this.metrics = engine.metrics();
    this.applier = engine.applier();
    this.events = engine.events();
    this.lifecycle = engine.lifecycle();
    this.kueueObjects = engine.kueueObjects();
    this.workloads = engine.workloads();
    this.role = engine.role();
    this.reconcilers = reconcilers;
    this.watchCheck = watchCheck;
    this.kinds = kinds;
    this.election = election;
  }

  /**
   * Jobs the engine keeps something about outside the informer caches (a status it wrote, a retry, a suspension
   * being timed). It drops them when a job is deleted, so this does not grow with jobs that are gone.
   */
  public int rememberedJobs() {
    return reconcilers.stream().mapToInt(TrainingJobReconciler::remembered).sum() + lifecycle.tracked();
  }

  /** The engine's metrics, JOSDK's and the JVM's ({@link StintMetrics#scrape()} is served at /metrics). */
  public StintMetrics metrics() {
    return metrics;
  }

  /** The kinds, served or down, and their informers' health, for a readiness probe. */
  public ServedKinds kinds() {
    return kinds;
  }

  public static StintOperatorBuilder builder(KubernetesClient client, FrameworkRegistry registry) {
    return new StintOperatorBuilder(client, registry);
  }

  /**
   * Starts every kind that can be served (the others are down and tried again by themselves), then the leader
   * election and, unless turned off, the {@link DeafWatchCheck} of the informers.
   */
  public void start() {
    if (kueueObjects != null) {
      kueueObjects.start(); // before the controllers: a job's first pass needs the default queues and the flavors
    }
    configuration.getExecutorServiceManager().start(configuration);
    kinds.start();
    if (election != null) {
      election.start(); // after the kinds' first start, as JOSDK: a new leader's caches are synced
    } else {
      role.started(); // the only process: it reconciles from now on, its caches synced
    }
    if (!watchCheck.period().isZero()) {
      Duration period = watchCheck.period();
      deafWatchCheck = new DeafWatchCheck(kinds::watchedCaches, period, period.dividedBy(2), this::deafWatch)
          .pausedWhen(watchCheck.heap()::tight); // its lists are the first thing a short heap can do without
      deafWatchCheck.start();
      FunctionCounter.builder("stint.watch.check.skips", deafWatchCheck, DeafWatchCheck::skipped)
          .description("Informers the deaf-watch check did not list, because they had delivered since its last look")
          .register(metrics.registry());
    }
  }

  /**
   * Lists and watches the deaf informer again, in this process: fabric8 does not see a watch that died this way, and
   * the kind's other informers, the other kinds and the Lease need nothing.
   */
  private void deafWatch(WatchedCache cache, String evidence) {
    LOG.warn("Watch lost: {}; listing and watching it again", evidence);
    Counter.builder("stint.watch.restarts").tag("resource", cache.resource())
        .description("Informers listed and watched again in the process because their watch went deaf")
        .register(metrics.registry()).increment();
    kinds.restart(cache);
  }

  /** Stops the controllers, then sends the events still queued (for up to two seconds). */
  public void stop() {
    if (deafWatchCheck != null) {
      deafWatchCheck.close();
    }
    kinds.close();
    configuration.getExecutorServiceManager().stop(configuration.reconciliationTerminationTimeout());
    if (election != null) {
      election.stop();
    }
    if (watchCheck.closeClient()) {
      watchCheck.client().close();
    }
    if (kueueObjects != null) {
      kueueObjects.close();
      workloads.close();
    }
    events.close();
    watchCheck.heap().close();
    metrics.close();
  }

  /**
   * Waits until every event recorded so far has been sent to the API server (events go out in the background).
   *
   * @return whether they were sent within the timeout
   */
  public boolean awaitEventsSent(Duration timeout) {
    return events.awaitSent(timeout);
  }

  @Override
  public void close() {
    stop();
  }

  /** What {@link #start()} needs for the {@link DeafWatchCheck}, which waits while {@code heap} is tight. */
  record WatchCheckSettings(KubernetesClient client, Duration period, boolean closeClient, HeapGuard heap) { }

  /** The parts every kind shares. */
  record Engine(ConfigurationService configuration, StintMetrics metrics, ActionApplier applier,
                        EventRecorder events, JobLifecycleMetrics lifecycle, KueueObjects kueueObjects,
                        WorkloadWriter workloads, ReconcilerRole role, HeapGuard heap, ServedKinds kinds,
                        KindEvents notice) { }
}
