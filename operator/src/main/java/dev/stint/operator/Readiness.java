package dev.stint.operator;

import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * What {@code GET /readyz} answers: ready once every informer of the operator has synced, and the process leads or
 * waits as a healthy standby.
 *
 * <p>A standby is ready on purpose. Readiness gates a rolling update: with {@code maxUnavailable: 0} the Deployment
 * waits for each new pod to be ready before it stops an old one, and a new pod can only become leader once the old
 * leader stops. A readiness that meant "leading" would never be reached, and the update would never finish. No
 * Service routes traffic to the operator's pods, so a ready standby receives nothing it cannot handle.
 *
 * @param running false before the operator was started and after it was told to stop
 * @param informers the informers' side
 * @param leadership null when leader election is off
 */
record Readiness(BooleanSupplier running, Informers informers, Leadership leadership) {
  /** One answer of the probe: whether ready, and the state in words (the response body). */
  record State(boolean ready, String description) { }

  /** The informers' side, from JOSDK's runtime information. */
  interface Informers {
    /** Whether the operator has started: its informers were started and have synced once. */
    boolean started();

    /** The event sources JOSDK reports unhealthy (not running, not watching or not synced), by name. */
    List<String> unhealthy();
  }

  State check() {
    if (!running.getAsBoolean()) {
      return new State(false, "not ready: starting or stopping");
    }
    if (!informers.started()) {
      return new State(false, "not ready: informers not started or not synced");
    }
    List<String> unhealthy = informers.unhealthy();
    if (!unhealthy.isEmpty()) {
      return new State(false, "not ready: unhealthy event sources " + String.join(", ", unhealthy));
    }
    if (leadership == null) {
      return new State(true, "ready: leader election off");
    }
    if (leadership.leading()) {
      return new State(true, "ready: leader");
    }
    String holder = leadership.holder();
    return new State(true, "ready: standby (leader " + (holder == null ? "not known yet" : holder) + ")");
  }
}
