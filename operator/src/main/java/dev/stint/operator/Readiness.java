package dev.stint.operator;

import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * What {@code GET /readyz} answers: ready once every kind has been started (served, or down for a reason named), at
 * least one kind is served with its informers healthy, and the process leads or waits as a healthy standby.
 *
 * <p>A kind that is down (its CRD missing, a right missing from the ClusterRole) does not make the operator unready:
 * the other kinds are served, and an unready pod would only stop a rolling update that may be what brings the fix.
 * The body names the kinds down and why, {@code stint_kind_served{kind}} is 0 for them, and the alert
 * {@code StintKindNotServed} fires. With no kind served at all, the operator does nothing useful and is not ready.
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

    /** The kinds down, each with why. */
    Map<String, String> down();

    /** Whether at least one kind is served. */
    boolean anyServed();
  }

  State check() {
    if (!running.getAsBoolean()) {
      return new State(false, "not ready: starting or stopping");
    }
    if (!informers.started()) {
      return new State(false, "not ready: informers not started or not synced");
    }
    String down = describeDown(informers.down());
    if (!informers.anyServed()) {
      return new State(false, "not ready: no kind served" + down);
    }
    List<String> unhealthy = informers.unhealthy();
    if (!unhealthy.isEmpty()) {
      return new State(false, "not ready: unhealthy event sources " + String.join(", ", unhealthy) + down);
    }
    return new State(true, role() + down);
  }

  private String role() {
    if (leadership == null) {
      return "ready: leader election off";
    }
    if (leadership.leading()) {
      return "ready: leader";
    }
    String holder = leadership.holder();
    return "ready: standby (leader " + (holder == null ? "not known yet" : holder) + ")";
  }

  /** One line per kind down: {@code \nnot served: JAXJob: <why>}. */
  private static String describeDown(Map<String, String> down) {
    StringBuilder lines = new StringBuilder();
    down.forEach((kind, reason) -> lines.append("\nnot served: ").append(kind).append(": ").append(reason));
    return lines.toString();
  }
}
