package dev.stint.core;

import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this process is the one that reconciles: the leader, or the only process when leader election is off.
 * JOSDK processes events only on the leader, but informers and their handlers run on every replica; a write made
 * outside a reconcile (such as releasing the Workload of a deleted job) asks here first, so standbys never write.
 */
public final class ReconcilerRole {
  private static final Logger LOG = LoggerFactory.getLogger(ReconcilerRole.class);
  private final List<Runnable> onStartLeading = new CopyOnWriteArrayList<>();
  private volatile boolean leading;

  /** Whether this process reconciles now. */
  public boolean leading() {
    return leading;
  }

  /** Runs that each time this process starts reconciling (its caches are synced by then). */
  public void whenLeading(Runnable action) {
    onStartLeading.add(action);
  }

  void started() {
    leading = true;
    for (Runnable action : onStartLeading) {
      try {
        action.run();
      } catch (RuntimeException e) {
        LOG.warn("A start-of-role task failed: {}", e.toString(), e);
      }
    }
  }

  void stopped() {
    leading = false;
  }

  /** The same configuration, with callbacks that tell this object and then the ones it had. */
  LeaderElectionConfiguration following(LeaderElectionConfiguration config) {
    Optional<LeaderCallbacks> theirs = config.getLeaderCallbacks();
    LeaderCallbacks both = new LeaderCallbacks(
        () -> {
          started();
          theirs.ifPresent(LeaderCallbacks::onStartLeading);
        },
        () -> {
          stopped();
          theirs.ifPresent(LeaderCallbacks::onStopLeading);
        },
        identity -> theirs.ifPresent(callbacks -> callbacks.onNewLeader(identity)));
    return new LeaderElectionConfiguration(config.getLeaseName(), config.getLeaseNamespace().orElse(null),
        config.getLeaseDuration(), config.getRenewDeadline(), config.getRetryPeriod(),
        config.getIdentity().orElse(null), both, config.isExitOnStopLeading());
  }
}
