package dev.stint.core;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectorBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader election on a Lease, as JOSDK's {@code LeaderElectionManager} runs it (fabric8's elector, JOSDK's
 * configuration and timings), but on its own: JOSDK's is tied to the controllers registered before its operator
 * starts, and Stint starts and stops each kind's controller by itself ({@link dev.stint.core.serving.ServedKind}).
 */
final class LeaseElection {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseElection.class);
  private final KubernetesClient client;
  private final LeaderElectionConfiguration config;
  private final LeaseFence fence;
  private ExecutorService executor;
  private CompletableFuture<?> running;

  /**
   * @param config with the callbacks to tell (those of {@link ReconcilerRole#following})
   * @param fence the fence of the client's writes, told of every renewal and of the start and end of leading; null
   *     when the client has none
   */
  LeaseElection(KubernetesClient client, LeaderElectionConfiguration config, LeaseFence fence) {
    this.client = client;
    this.config = config;
    this.fence = fence;
  }

  synchronized void start() {
    String identity = config.getIdentity().orElseGet(() -> System.getenv("HOSTNAME"));
    if (identity == null || identity.isBlank()) {
      identity = UUID.randomUUID().toString();
    }
    String namespace = config.getLeaseNamespace().orElseGet(() -> client.getConfiguration().getNamespace());
    if (namespace == null) {
      throw new IllegalArgumentException("the Lease's namespace is not set and cannot be inferred");
    }
    checkAllowed(namespace);
    LeaderCallbacks callbacks = config.getLeaderCallbacks()
        .orElseGet(() -> new LeaderCallbacks(() -> { }, () -> { }, holder -> { }));
    LeaderCallbacks exiting = new LeaderCallbacks(() -> {
      if (fence != null) {
        fence.startedLeading();
      }
      callbacks.onStartLeading();
    }, () -> {
      if (fence != null) {
        fence.stoppedLeading(); // first: no write of this process goes out from here on
      }
      callbacks.onStopLeading();
      if (config.isExitOnStopLeading()) {
        LOG.info("Stopped leading ({}): exiting", config.getLeaseName());
        System.exit(1); // as JOSDK: two leaders must never reconcile at once
      }
    }, callbacks::onNewLeader);
    executor = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "stint-lease");
      t.setDaemon(true);
      return t;
    });
    // releaseOnCancel false, as JOSDK: the stop callback is then told in every case
    Lock lock = new LeaseLock(namespace, config.getLeaseName(), identity);
    running = new LeaderElectorBuilder(client, executor).withConfig(new LeaderElectionConfig(
            fence == null ? lock : fence.watching(lock), config.getLeaseDuration(),
            config.getRenewDeadline(), config.getRetryPeriod(), exiting, false, config.getLeaseName()))
        .build().start();
  }

  /**
   * Reads the Lease once before electing: fabric8's elector retries a refusal for ever, so a Lease the Role does not
   * name (another {@code --leader-election-id} or namespace than the install's) left every replica a ready standby
   * that never leads. A 403 stops the start instead, naming what to fix; anything else is the elector's to retry.
   */
  private void checkAllowed(String namespace) {
    try {
      client.leases().inNamespace(namespace).withName(config.getLeaseName()).get();
    } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
      if (e.getCode() == 403) {
        throw new IllegalStateException("the API server refuses Lease " + namespace + "/" + config.getLeaseName()
            + " to this operator (403 Forbidden): its Role must allow get, update and patch on that Lease (and "
            + "create on leases); --leader-election-id and --leader-election-namespace must name the Lease the Role "
            + "names (deploy/ and the chart: stint in the operator's namespace, the chart's leaderElection.id)", e);
      }
      LOG.debug("Lease {}/{} not read before the election ({}): the elector tries again", namespace,
          config.getLeaseName(), e.getMessage());
    }
  }

  synchronized void stop() {
    if (running != null) {
      running.cancel(false);
      executor.shutdownNow();
    }
  }
}
