package dev.stint.operator;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This process's part in the leader election: JOSDK's, on a Lease, with JOSDK's timings (a 15 s lease, renewed every
 * 2 s, given up when not renewed for 10 s). Every process starts its informers and fills its caches; only the holder
 * of the Lease reconciles. A standby takes over within the lease duration after the holder stops renewing.
 *
 * <p>A process that loses the Lease while leading exits with code 1, so that its Deployment restarts it as a clean
 * standby: its reconciles in flight, retries and remembered state belong to a leadership that is over, and a new
 * leader may already act on the same jobs. JOSDK would exit too, but from inside the elector, also when the Lease is
 * released because the process is stopping; {@link System#exit} from a shutdown hook blocks forever, so this class
 * exits itself, and only when the loss is not the process's own stop.
 *
 * <p>JOSDK 5.2.3 does not give the Lease back when the operator stops; {@link #release} does, once the controllers
 * have stopped, so that in a rolling update the standby takes over within its retry period (2 s) rather than after
 * the whole lease duration.
 */
final class Leadership {
  private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);

  private final String identity;
  private final IntConsumer exit;
  private String leaseNamespace;
  private String leaseName;
  private volatile boolean leading;
  private volatile String holder;
  private volatile boolean stopping;
  private final AtomicBoolean exiting = new AtomicBoolean();

  /**
   * @param identity this process's name in the Lease
   * @param exit how the process ends when it loses the Lease ({@link System#exit} in production)
   */
  Leadership(String identity, IntConsumer exit) {
    this.identity = identity;
    this.exit = exit;
  }

  /** The election on Lease {@code namespace/name}, reporting to this object. */
  LeaderElectionConfiguration configuration(String namespace, String name) {
    this.leaseNamespace = namespace;
    this.leaseName = name;
    return LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration(name)
        .withLeaseNamespace(namespace)
        .withIdentity(identity)
        .withLeaderCallbacks(new LeaderCallbacks(this::startedLeading, this::stoppedLeading, this::newLeader))
        .withExitOnStopLeading(false) // see the class comment
        .build();
  }

  String identity() {
    return identity;
  }

  boolean leading() {
    return leading;
  }

  /** The Lease's holder as last seen, or null before the first look. */
  String holder() {
    return holder;
  }

  /** The process is stopping: the Lease it gives up on the way out is no reason to exit. */
  void stopping() {
    stopping = true;
  }

  /**
   * Gives the Lease up if this process still holds it: to be called after the controllers stopped, as the last
   * write of a leader. A failure only means that the next leader waits for the lease to expire.
   */
  void release(KubernetesClient client) {
    try {
      Lease lease = client.resources(Lease.class).inNamespace(leaseNamespace).withName(leaseName).get();
      if (lease == null || lease.getSpec() == null || !identity.equals(lease.getSpec().getHolderIdentity())) {
        return;
      }
      lease.getSpec().setHolderIdentity(null); // as client-go's ReleaseOnCancel: no holder, a 1 s lease
      lease.getSpec().setLeaseDurationSeconds(1);
      client.resource(lease).update(); // on its resourceVersion: a Lease another took meanwhile stays theirs
      LOG.info("Released Lease {}/{}", leaseNamespace, leaseName);
    } catch (KubernetesClientException e) {
      LOG.warn("Could not release Lease {}/{}; the next leader waits for it to expire: {}", leaseNamespace,
          leaseName, e.getMessage());
    }
  }

  private void startedLeading() {
    leading = true;
    LOG.info("Became leader ({}): reconciling", identity);
  }

  private void newLeader(String newHolder) {
    holder = newHolder;
    if (newHolder == null || newHolder.isEmpty()) {
      LOG.info("Waiting for leadership (the Lease was released: taking it at the next try)");
    } else if (!newHolder.equals(identity)) {
      LOG.info("Waiting for leadership (held by {})", newHolder);
    }
  }

  /**
   * Looks once a second whether the leader's last renewal is older than the renew deadline ({@code lapsed}, the
   * write fence's own test): then the Lease is lost, as client-go's elector decides at that moment. fabric8's elector
   * notices only when its renewal attempt ends, and a request the API server answers slowly holds it: a renewal
   * refused 401 over HTTP/2 (a deleted ServiceAccount's token) ended 21 s after the last renewal, the process
   * reporting itself leader meanwhile (writes were fenced from 10 s on).
   */
  void watch(BooleanSupplier lapsed) {
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread thread = new Thread(r, "stint-lease-watch");
      thread.setDaemon(true);
      return thread;
    });
    timer.scheduleWithFixedDelay(() -> checkLapse(lapsed), 1, 1, TimeUnit.SECONDS);
  }

  /** One look of {@link #watch}: a leader, not stopping, whose renewals lapsed, exits. */
  void checkLapse(BooleanSupplier lapsed) {
    if (leading && !stopping && lapsed.getAsBoolean()) {
      leading = false;
      exitLosing("its Lease was not renewed within the renew deadline");
    }
  }

  private void stoppedLeading() {
    boolean wasLeading = leading;
    leading = false;
    if (stopping || !wasLeading) {
      return;
    }
    exitLosing("the elector gave the Lease up");
  }

  private void exitLosing(String why) {
    if (!exiting.compareAndSet(false, true)) {
      return;
    }
    LOG.error("Lost leadership ({}); exiting so that a restart begins as a clean standby ({})", identity, why);
    // on a thread of its own: the elector calls this holding its lock, which the shutdown hook's stop also takes
    Thread exitThread = new Thread(() -> exit.accept(1), "stint-lost-leadership");
    exitThread.start();
  }
}
