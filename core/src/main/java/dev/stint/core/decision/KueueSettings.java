package dev.stint.core.decision;

/**
 * How Stint works with Kueue, chosen at start. Part of the decision's {@link EngineSettings}, so defined with it; the
 * Kueue integration ({@code dev.stint.core.kueue}) reads it too.
 *
 * @param mode {@link Mode#OFF}: Stint only honours {@code runPolicy.suspend}, which Kueue's own integrations drive;
 *     {@link Mode#NATIVE}: Stint creates and follows the Kueue Workload of each queued job itself
 * @param manageJobsWithoutQueueName in native mode, give every job a Workload, also one without the
 *     {@code kueue.x-k8s.io/queue-name} label (Kueue's {@code manageJobsWithoutQueueName})
 */
public record KueueSettings(Mode mode, boolean manageJobsWithoutQueueName) {

  /** Today's behaviour: no Workloads of Stint's own. */
  public static final KueueSettings OFF = new KueueSettings(Mode.OFF, false);

  /** The values of {@code --kueue}. */
  public enum Mode { OFF, NATIVE }

  public KueueSettings {
    if (mode == null) {
      throw new IllegalArgumentException("a Kueue mode is required");
    }
  }

  public boolean nativeMode() {
    return mode == Mode.NATIVE;
  }
}
