package dev.stint.core;

import dev.stint.core.decision.EngineSettings;
import dev.stint.core.decision.KueueSettings;
import dev.stint.core.kube.ActionApplier;
import dev.stint.core.heap.HeapGuard;
import dev.stint.core.kube.EventRecorder;
import dev.stint.core.kueue.KueueObjects;
import dev.stint.core.kueue.KueueOwners;
import dev.stint.core.kueue.KueueLink;
import dev.stint.core.kueue.WorkloadWriter;
import dev.stint.core.metrics.JobLifecycleMetrics;
import dev.stint.core.metrics.StintMetrics;
import dev.stint.core.model.EngineFramework;
import dev.stint.core.reconciler.TrainingJobReconciler;
import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.core.serving.KindCheck;
import dev.stint.core.serving.KindEvents;
import dev.stint.core.serving.KindVerdict;
import dev.stint.core.serving.RetryDelays;
import dev.stint.core.serving.ServedKind;
import dev.stint.core.serving.ServedKinds;
import dev.stint.kubeclient.DeafWatchCheck;
import dev.stint.kubeclient.SlimItemStore;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.Cloner;
import io.javaoperatorsdk.operator.api.config.ConfigurationService;
import io.javaoperatorsdk.operator.api.config.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.ResolvedControllerConfiguration;
import io.javaoperatorsdk.operator.api.config.informer.InformerConfiguration;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Settings of the engine, and the operator they make ({@link StintOperator#builder}); defaults suit a real cluster. */
public final class StintOperatorBuilder {
  // the operator's own logger: "Registered ..." lines read as they did before the builder had a file of its own
  private static final Logger LOG = LoggerFactory.getLogger(StintOperator.class);
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
  private LeaseFence fence;
  private Duration watchCheckPeriod = Duration.ofSeconds(30);
  private HeapGuard heap;
  private boolean kindChecks = true;
  private RetryDelays kindRetries = RetryDelays.DEFAULT;
  private Pod operatorPod;

  StintOperatorBuilder(KubernetesClient client, FrameworkRegistry registry) {
    this.client = client;
    this.registry = registry;
  }

  public StintOperatorBuilder clock(Clock clock) { this.clock = clock; return this; }

  /** Server-side apply for status patches; off only for the fabric8 mock server, which does not support it. */
  public StintOperatorBuilder serverSideApply(boolean on) { this.serverSideApply = on; return this; }

  public StintOperatorBuilder reconcileThreads(int threads) { this.reconcileThreads = threads; return this; }

  public StintOperatorBuilder closeClientOnStop(boolean close) { this.closeClientOnStop = close; return this; }

  /** {@code volcano} or a scheduler-plugins scheduler name: create PodGroups and gang-schedule pods; null: off. */
  public StintOperatorBuilder gangScheduler(String name) { this.gangScheduler = name; return this; }

  /**
   * Whether Stint speaks Kueue's Workload protocol itself ({@link KueueSettings.Mode#NATIVE}) or leaves queueing
   * to Kueue's own integrations, which drive {@code suspend} ({@link KueueSettings#OFF}, the default).
   */
  public StintOperatorBuilder kueue(KueueSettings settings) { this.kueue = settings; return this; }

  /** Watch only these namespaces (every informer: jobs and their children); empty: every namespace. */
  public StintOperatorBuilder namespaces(Collection<String> names) { this.namespaces = Set.copyOf(names); return this; }

  /**
   * Reconcile only while holding the Lease this configures (informers run and caches fill on a standby too, so
   * that it takes over warm); null: always reconcile.
   */
  public StintOperatorBuilder leaderElection(LeaderElectionConfiguration config) { return leaderElection(config, null); }

  /**
   * As {@link #leaderElection(LeaderElectionConfiguration)}, with the {@link LeaseFence} installed in the client
   * (null: none), which the election tells of every renewal and of the start and end of leading.
   */
  public StintOperatorBuilder leaderElection(LeaderElectionConfiguration config, LeaseFence fence) {
    this.leaderElection = config;
    this.fence = fence;
    return this;
  }

  /**
   * Whether an informer that fails to start fails its kind's start at once (production: the kind is down and
   * tried again by itself), or is retried by fabric8 while the start waits for it (tests on the mock server, whose
   * expectations may refuse a list).
   */
  public StintOperatorBuilder stopOnInformerError(boolean stop) { this.stopOnInformerError = stop; return this; }

  /**
   * Whether each kind is checked before its informers start (its CRD served, the rights of its informers granted),
   * so that a kind without them is down alone, with the reason named (the default); off for the mock server,
   * which answers neither discovery nor access reviews as an API server does.
   */
  public StintOperatorBuilder kindChecks(boolean on) { this.kindChecks = on; return this; }

  /** How soon a kind that is down is tried again ({@link RetryDelays#DEFAULT}: 5 s, doubling, at most a minute). */
  public StintOperatorBuilder kindRetries(RetryDelays delays) { this.kindRetries = delays; return this; }

  /**
   * The operator's own Pod, which the events about a kind going down or coming back are about; without one
   * (a process outside a cluster) only the log says it.
   */
  public StintOperatorBuilder operatorPod(String namespace, String name) {
    this.operatorPod = KindEvents.operatorPod(namespace, name);
    return this;
  }

  /**
   * How often the {@link DeafWatchCheck} compares every informer's cache with the API server (a difference is looked
   * at again half a period later); a deaf informer is listed and watched again in the process.
   * {@link Duration#ZERO}: never.
   */
  public StintOperatorBuilder watchCheckPeriod(Duration period) { this.watchCheckPeriod = period; return this; }

  /**
   * What tells the engine that the heap is short ({@link HeapGuard}); without this, the guard of this JVM's heap.
   */
  public StintOperatorBuilder heapGuard(HeapGuard guard) { this.heap = guard; return this; }

  /**
   * Where to record metrics: those the caller created before the client, to count the client's requests too
   * ({@link dev.stint.core.metrics.ApiRequestMetrics#install}). The operator closes them when it stops. Without
   * this, it creates its own.
   */
  public StintOperatorBuilder metrics(StintMetrics metrics) { this.metrics = metrics; return this; }

  public StintOperator build() {
    ReconcilerRole role = new ReconcilerRole();
    StintMetrics metrics = this.metrics != null ? this.metrics : new StintMetrics();
    ServedKinds kinds = new ServedKinds(registry.all().size());
    ConfigurationService configuration = ConfigurationService.newOverriddenConfigurationService(o -> o
        .withKubernetesClient(client)
        .withMetrics(metrics.josdk())
        .withCloseClientOnStop(closeClientOnStop)
        .withUseSSAToPatchPrimaryResource(serverSideApply)
        .withSSABasedCreateUpdateMatchForDependentResources(serverSideApply)
        .withConcurrentReconciliationThreads(reconcileThreads)
        // the reconciler never changes the job it is given (the SPI says so to frameworks); JOSDK's default deep
        // copy of it before every reconcile, through JSON, was a tenth of the operator's CPU (docs/benchmarks.md)
        .withResourceCloner(new SharedResourceCloner())
        // resource versions compared as numbers, as etcd issues them, where JOSDK allows it (not on the primary
        // resource: StatusWriter keeps its own writes until the watch shows them)
        .withParseResourceVersions(true)
        .withCacheSyncTimeout(Duration.ofMinutes(2))
        .withStopOnInformerErrorDuringStartup(stopOnInformerError)
        .withInformerStoppedHandler((informer, error) -> {
          if (error != null) {
            kinds.informerStopped(error); // that informer's kind goes down alone, and is tried again
          }
        }));
    HeapGuard heapGuard = (heap != null ? heap : HeapGuard.ofThisJvm()).withMetrics(metrics.registry());
    EventRecorder events = new EventRecorder(client, clock, "stint", metrics.registry())
        .shedChildEventsWhen(heapGuard::tight);
    KueueObjects kueueObjects = kueue.nativeMode() ? new KueueObjects(client, new KueueOwners(servedGroupKinds())) : null;
    StintOperator.Engine engine = new StintOperator.Engine(configuration, metrics, new ActionApplier(client), events,
        new JobLifecycleMetrics(metrics, clock, role::leading), kueueObjects,
        kueue.nativeMode() ? new WorkloadWriter(client, serverSideApply) : null, role, heapGuard, kinds,
        new KindEvents(events, operatorPod));
    List<TrainingJobReconciler<?>> reconcilers = new ArrayList<>();
    for (TrainingFramework<?> framework : registry.all()) {
      reconcilers.add(register(engine, framework));
    }
    role.whenLeading(kinds::startLeading);
    LeaseElection election = leaderElection == null ? null
        : new LeaseElection(client, role.following(leaderElection), fence);
    return new StintOperator(engine, List.copyOf(reconcilers),
        new StintOperator.WatchCheckSettings(client, watchCheckPeriod, closeClientOnStop, heapGuard), kinds, election);
  }

  /** {@code group/Kind} of every kind this operator serves: Kueue manages them as external frameworks. */
  private java.util.Set<String> servedGroupKinds() {
    return registry.all().stream()
        .map(f -> HasMetadata.getGroup(f.jobType()) + "/" + HasMetadata.getKind(f.jobType()))
        .collect(java.util.stream.Collectors.toUnmodifiableSet());
  }

  private <J extends TrainingJob<?>> TrainingJobReconciler<J> register(StintOperator.Engine engine,
                                                                       TrainingFramework<J> framework) {
    // so that watches and reads of the kind give the framework's class, not GenericKubernetesResource
    client.getKubernetesSerialization().registerKubernetesResource(framework.jobType());
    KueueLink<J> link = kueue.nativeMode()
        ? new KueueLink<>(framework, kueue, engine.kueueObjects(), engine.workloads(), engine.events(), engine.role())
        : KueueLink.off(framework);
    engine.role().whenLeading(link::releaseOrphans);
    var reconciler = new TrainingJobReconciler<>(framework, clock, engine.applier(), engine.events(),
        serverSideApply, new EngineSettings(gangScheduler, kueue), engine.lifecycle(), link, engine.heap());
    ControllerConfiguration<J> config = configuration(engine.configuration(), reconciler, framework, namespaces);
    String kind = HasMetadata.getKind(framework.jobType());
    Function<Controller<?>, KindVerdict> check = kindChecks
        ? KindCheck.onApiServer(client, framework.jobType(), namespaces) : controller -> KindVerdict.SERVED;
    engine.kinds().add(new ServedKind(kind, controllers(reconciler, config, engine.metrics()), check,
        engine.kinds().scheduler(), engine.role()::leading, kindRetries, engine.notice(), client),
        engine.metrics().registry());
    LOG.info("Registered {} ({}) from {}", kind, framework.name(), sourceOf(framework));
    return reconciler;
  }

  /**
   * Makes the kind's JOSDK controller: a new one for each start, so that no reconcile in flight when the kind went
   * down is left marked as running. JOSDK's gauges of the controller's queue follow the newest.
   */
  private <J extends TrainingJob<?>> Supplier<Controller<? extends HasMetadata>> controllers(
      TrainingJobReconciler<J> reconciler, ControllerConfiguration<J> config, StintMetrics metrics) {
    boolean[] made = {false};
    return () -> {
      if (made[0]) {
        metrics.forgetControllerGauges(config.getName());
      }
      made[0] = true;
      return new Controller<>(reconciler, config, client);
    };
  }

  private static <J extends TrainingJob<?>> ControllerConfiguration<J> configuration(
      ConfigurationService service, TrainingJobReconciler<J> reconciler, TrainingFramework<J> framework,
      Set<String> namespaces) {
    String name = EngineFramework.of(framework).controllerName();
    var informer = InformerConfiguration.builder(framework.jobType()).withName(name);
    if (!namespaces.isEmpty()) {
      informer.withNamespaces(namespaces); // the children's informers follow the controller's namespaces
    }
    // not generation-aware: the reconciler's own filter also lets through a status another client wrote
    return new ResolvedControllerConfiguration<>(name, false, reconciler.getClass().getCanonicalName(),
        unlimitedRetry(), null, Duration.ofHours(10), null, null, name, service,
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

  /** Hands the reconciler the cached resource itself: the engine treats it as read-only. */
  private static final class SharedResourceCloner implements Cloner {
    @Override
    public <R extends HasMetadata> R clone(R object) {
      return object;
    }
  }
}
