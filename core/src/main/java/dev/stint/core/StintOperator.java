package dev.stint.core;

import dev.stint.core.decision.EngineFramework;
import dev.stint.core.decision.EngineSettings;
import dev.stint.core.kube.ActionApplier;
import dev.stint.core.heap.HeapGuard;
import dev.stint.core.kube.DeafWatchCheck;
import dev.stint.core.kube.EventRecorder;
import dev.stint.core.kube.SlimItemStore;
import dev.stint.core.kube.WatchedCache;
import dev.stint.core.kueue.FlavorCache;
import dev.stint.core.kueue.KueueLink;
import dev.stint.core.kueue.KueueSettings;
import dev.stint.core.kueue.WorkloadWriter;
import dev.stint.core.metrics.JobLifecycleMetrics;
import dev.stint.core.metrics.StintMetrics;
import dev.stint.core.reconciler.TrainingJobReconciler;
import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.RegisteredController;
import io.javaoperatorsdk.operator.RuntimeInfo;
import io.javaoperatorsdk.operator.api.config.Cloner;
import io.javaoperatorsdk.operator.api.config.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.ResolvedControllerConfiguration;
import io.javaoperatorsdk.operator.api.config.informer.InformerConfiguration;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.ManagedInformerEventSource;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stint's engine as a running JOSDK operator: one controller per framework of the registry, all sharing one client.
 * Build it with {@link #builder}, then {@link #start()}; {@link #stop()} ends it.
 */
public final class StintOperator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StintOperator.class);
  private final Operator operator;
  private final StintMetrics metrics;
  private final ActionApplier applier;
  private final EventRecorder events;
  private final List<TrainingJobReconciler<?>> reconcilers;
  private final JobLifecycleMetrics lifecycle;
  private final WatchCheckSettings watchCheck;
  private final List<RegisteredController<?>> controllers;
  private final FlavorCache flavors;
  private final WorkloadWriter workloads;
  /** Told when this process starts reconciling; by {@link #start} itself when there is no leader election. */
  private final ReconcilerRole role;
  private final boolean electsLeader;
  private DeafWatchCheck deafWatchCheck;

  private StintOperator(Operator operator, StintMetrics metrics, ActionApplier applier, EventRecorder events,
                        List<TrainingJobReconciler<?>> reconcilers, JobLifecycleMetrics lifecycle,
                        WatchCheckSettings watchCheck, List<RegisteredController<?>> controllers,
                        FlavorCache flavors, WorkloadWriter workloads, ReconcilerRole role,
                        boolean electsLeader) {
    this.role = role;
    this.electsLeader = electsLeader;
    this.flavors = flavors;
    this.workloads = workloads;
    this.operator = operator;
    this.metrics = metrics;
    this.applier = applier;
    this.events = events;
    this.reconcilers = reconcilers;
    this.lifecycle = lifecycle;
    this.watchCheck = watchCheck;
    this.controllers = controllers;
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

  /**
   * What JOSDK knows of the running controllers: whether the operator started, and the health of every informer
   * (running, watching, synced), for a readiness probe.
   */
  public RuntimeInfo runtimeInfo() {
    return operator.getRuntimeInfo();
  }

  public static Builder builder(KubernetesClient client, FrameworkRegistry registry) {
    return new Builder(client, registry);
  }

  /** Starts the controllers and, unless turned off, the {@link DeafWatchCheck} of their informers. */
  public void start() {
    if (flavors != null) {
      flavors.start(); // before the controllers: an admitted job's first pass needs its flavors
    }
    operator.start();
    if (!electsLeader) {
      role.started(); // the only process: it reconciles from now on, its caches synced
    }
    if (!watchCheck.period().isZero()) {
      Duration period = watchCheck.period();
      deafWatchCheck = new DeafWatchCheck(watchedCaches(), period, period.dividedBy(2), this::deafWatch)
          .pausedWhen(watchCheck.heap()::tight); // its lists are the first thing a short heap can do without
      deafWatchCheck.start();
    }
  }

  /**
   * Like an informer that stopped: exits the process (production), for the Deployment to start it again with new
   * watches. fabric8 gives no way to restart one informer's watch, and a deaf informer is not seen as unhealthy.
   */
  private void deafWatch(String evidence) {
    LOG.error("Watch lost: {}", evidence);
    if (watchCheck.exitWhenDeaf()) {
      LOG.error("Exiting, to be started again with new watches");
      System.exit(1);
    }
  }

  /**
   * Every informer of every controller: the job kind's own and its children's. JOSDK's {@code RegisteredController}
   * is its {@code Controller}, which holds the event sources.
   */
  private List<WatchedCache> watchedCaches() {
    List<WatchedCache> caches = new ArrayList<>();
    for (RegisteredController<?> registered : controllers) {
      if (registered instanceof Controller<?> controller) {
        for (EventSource<?, ?> source : controller.getEventSourceManager().allEventSources()) {
          if (source instanceof ManagedInformerEventSource<?, ?, ?> informer) {
            caches.add(WatchedCache.of(informer, controller.getConfiguration(), watchCheck.client()));
          }
        }
      }
    }
    return caches;
  }

  /** Stops the controllers, then sends the events still queued (for up to two seconds). */
  public void stop() {
    if (deafWatchCheck != null) {
      deafWatchCheck.close();
    }
    operator.stop();
    if (flavors != null) {
      flavors.close();
      workloads.close();
    }
    events.close();
    applier.close();
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
  private record WatchCheckSettings(KubernetesClient client, Duration period, boolean exitWhenDeaf,
                                    HeapGuard heap) { }

  /** Hands the reconciler the cached resource itself: the engine treats it as read-only. */
  private static final class SharedResourceCloner implements Cloner {
    @Override
    public <R extends HasMetadata> R clone(R object) {
      return object;
    }
  }

  /** Settings of the engine; defaults suit a real cluster. */
  public static final class Builder {
    private final KubernetesClient client;
    private final FrameworkRegistry registry;
    private Clock clock = Clock.systemUTC();
    private boolean serverSideApply = true;
    private int reconcileThreads = 50;
    private boolean closeClientOnStop = true;
    private boolean stopOnInformerError = true;
    private String gangScheduler;
    private KueueSettings kueue = KueueSettings.OFF;
    private StintMetrics metrics;
    private Set<String> namespaces = Set.of();
    private LeaderElectionConfiguration leaderElection;
    private Duration watchCheckPeriod = Duration.ofSeconds(30);
    private HeapGuard heap;

    private Builder(KubernetesClient client, FrameworkRegistry registry) {
      this.client = client;
      this.registry = registry;
    }

    public Builder clock(Clock clock) { this.clock = clock; return this; }

    /** Server-side apply for status patches; off only for the fabric8 mock server, which does not support it. */
    public Builder serverSideApply(boolean on) { this.serverSideApply = on; return this; }

    public Builder reconcileThreads(int threads) { this.reconcileThreads = threads; return this; }

    public Builder closeClientOnStop(boolean close) { this.closeClientOnStop = close; return this; }

    /** {@code volcano} or a scheduler-plugins scheduler name: create PodGroups and gang-schedule pods; null: off. */
    public Builder gangScheduler(String name) { this.gangScheduler = name; return this; }

    /**
     * Whether Stint speaks Kueue's Workload protocol itself ({@link KueueSettings.Mode#NATIVE}) or leaves queueing
     * to Kueue's own integrations, which drive {@code suspend} ({@link KueueSettings#OFF}, the default).
     */
    public Builder kueue(KueueSettings settings) { this.kueue = settings; return this; }

    /** Watch only these namespaces (every informer: jobs and their children); empty: every namespace. */
    public Builder namespaces(Collection<String> names) { this.namespaces = Set.copyOf(names); return this; }

    /**
     * Reconcile only while holding the Lease this configures (informers run and caches fill on a standby too, so
     * that it takes over warm); null: always reconcile.
     */
    public Builder leaderElection(LeaderElectionConfiguration config) { this.leaderElection = config; return this; }

    /** Exit the process when an informer fails (production); tests turn this off to see the error instead. */
    public Builder stopOnInformerError(boolean stop) { this.stopOnInformerError = stop; return this; }

    /**
     * How often the {@link DeafWatchCheck} compares every informer's cache with the API server (a difference is looked
     * at again half a period later); a deaf informer is handled as one that failed ({@link #stopOnInformerError}).
     * {@link Duration#ZERO}: never.
     */
    public Builder watchCheckPeriod(Duration period) { this.watchCheckPeriod = period; return this; }

    /**
     * What tells the engine that the heap is short ({@link HeapGuard}); without this, the guard of this JVM's heap.
     */
    public Builder heapGuard(HeapGuard guard) { this.heap = guard; return this; }

    /**
     * Where to record metrics: those the caller created before the client, to count the client's requests too
     * ({@link dev.stint.core.metrics.ApiRequestMetrics#install}). The operator closes them when it stops. Without
     * this, it creates its own.
     */
    public Builder metrics(StintMetrics metrics) { this.metrics = metrics; return this; }

    public StintOperator build() {
      ReconcilerRole role = new ReconcilerRole();
      StintMetrics metrics = this.metrics != null ? this.metrics : new StintMetrics();
      Operator operator = new Operator(o -> o.withKubernetesClient(client)
          .withMetrics(metrics.josdk())
          .withCloseClientOnStop(closeClientOnStop)
          .withUseSSAToPatchPrimaryResource(serverSideApply)
          .withSSABasedCreateUpdateMatchForDependentResources(serverSideApply)
          .withConcurrentReconciliationThreads(reconcileThreads)
          // the reconciler never changes the job it is given (the SPI says so to frameworks); JOSDK's default deep
          // copy of it before every reconcile, through JSON, was a tenth of the operator's CPU (docs/benchmarks.md)
          .withResourceCloner(new SharedResourceCloner())
          // the status writer's recent updates stay cached until the watch shows a version at least as new
          .withParseResourceVersions(true)
          .withCacheSyncTimeout(Duration.ofMinutes(2))
          .withStopOnInformerErrorDuringStartup(stopOnInformerError)
          .withLeaderElectionConfiguration(leaderElection == null ? null : role.following(leaderElection))
          .withInformerStoppedHandler((informer, error) -> {
            if (error == null) {
              return;
            }
            LOG.error("Informer stopped: {}", error.toString(), error);
            if (stopOnInformerError) {
              // a controller without its informer is blind; let the Deployment restart the process
              System.exit(1);
            }
          }));
      ActionApplier applier = new ActionApplier(client);
      FlavorCache flavors = kueue.nativeMode() ? new FlavorCache(client) : null;
      WorkloadWriter workloads = kueue.nativeMode() ? new WorkloadWriter(client, serverSideApply) : null;
      HeapGuard heapGuard = (heap != null ? heap : HeapGuard.ofThisJvm()).withMetrics(metrics.registry());
      EventRecorder events = new EventRecorder(client, clock, "stint", metrics.registry())
          .shedChildEventsWhen(heapGuard::tight);
      JobLifecycleMetrics lifecycle = new JobLifecycleMetrics(metrics, clock);
      List<TrainingJobReconciler<?>> reconcilers = new ArrayList<>();
      List<RegisteredController<?>> controllers = new ArrayList<>();
      for (TrainingFramework<?> framework : registry.all()) {
        reconcilers.add(register(operator, framework, applier, events, lifecycle, controllers, flavors, workloads,
            role, heapGuard));
      }
      return new StintOperator(operator, metrics, applier, events, List.copyOf(reconcilers), lifecycle,
          new WatchCheckSettings(client, watchCheckPeriod, stopOnInformerError, heapGuard), List.copyOf(controllers),
          flavors,
          workloads, role, leaderElection != null);
    }

    private <J extends TrainingJob<?>> TrainingJobReconciler<J> register(Operator operator, TrainingFramework<J> framework,
                                                     ActionApplier applier, EventRecorder events,
                                                     JobLifecycleMetrics lifecycle,
                                                     List<RegisteredController<?>> controllers,
                                                     FlavorCache flavors, WorkloadWriter workloads,
                                                     ReconcilerRole role, HeapGuard heapGuard) {
      // so that watches and reads of the kind give the framework's class, not GenericKubernetesResource
      client.getKubernetesSerialization().registerKubernetesResource(framework.jobType());
      KueueLink<J> link = kueue.nativeMode()
          ? new KueueLink<>(framework, kueue, flavors, workloads, events, role) : KueueLink.off(framework);
      role.whenLeading(link::releaseOrphans);
      var reconciler = new TrainingJobReconciler<>(framework, clock, applier, events, serverSideApply,
          new EngineSettings(gangScheduler, kueue), lifecycle, link, heapGuard);
      controllers.add(operator.register(reconciler, configuration(operator, reconciler, framework, namespaces)));
      LOG.info("Registered {} ({}) from {}", HasMetadata.getKind(framework.jobType()), framework.name(),
          sourceOf(framework));
      return reconciler;
    }

    private static <J extends TrainingJob<?>> ControllerConfiguration<J> configuration(
        Operator operator, TrainingJobReconciler<J> reconciler, TrainingFramework<J> framework,
        Set<String> namespaces) {
      String name = EngineFramework.of(framework).controllerName();
      var informer = InformerConfiguration.builder(framework.jobType()).withName(name);
      if (!namespaces.isEmpty()) {
        informer.withNamespaces(namespaces); // the children's informers follow the controller's namespaces
      }
      // not generation-aware: the reconciler's own filter also lets through a status another client wrote
      return new ResolvedControllerConfiguration<>(name, false, reconciler.getClass().getCanonicalName(),
          unlimitedRetry(), null, Duration.ofHours(10), null, null, name, operator.getConfigurationService(),
          informer
              // no finalizer, so the cache is where the engine learns that a job is gone, and forgets it
              .withItemStore(new SlimItemStore<J>(job -> reconciler.forget(job.getMetadata().getUid())))
              .withInformerListLimit(SlimItemStore.LIST_PAGE)
              .withOnUpdateFilter(reconciler::worthReconciling)
              .buildForController(), false, null);
    }

    /**
     * For failures the reconciler does not handle itself (refusals are retried by the reconciler, with events):
     * retried with capped exponential backoff for as long as they last, never "exhausted" (JOSDK's default gives up
     * after 5 attempts and waits for the 10-hour resync).
     */
    private static GenericRetry unlimitedRetry() {
      return new GenericRetry().setInitialInterval(1000).setIntervalMultiplier(2).setMaxInterval(60_000)
          .withoutMaxAttempts();
    }

    private static String sourceOf(TrainingFramework<?> framework) {
      var source = framework.getClass().getProtectionDomain().getCodeSource();
      return source == null ? "unknown" : source.getLocation().toString();
    }
  }
}
