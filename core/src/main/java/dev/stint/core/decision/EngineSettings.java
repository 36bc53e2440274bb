package dev.stint.core.decision;

/**
 * Operator-wide settings that change decisions, the same for every kind.
 *
 * @param gangScheduler null for none; {@code volcano} for Volcano PodGroups; any other name for a scheduler-plugins
 *     (coscheduling) scheduler of that name, as the Kubeflow training operator's {@code --gang-scheduler-name}
 * @param kueue whether Stint speaks Kueue's Workload protocol itself ({@code --kueue})
 */
public record EngineSettings(String gangScheduler, KueueSettings kueue) {

  public EngineSettings(String gangScheduler) {
    this(gangScheduler, KueueSettings.OFF);
  }

  public EngineSettings {
    kueue = kueue == null ? KueueSettings.OFF : kueue;
  }

  public static EngineSettings defaults() {
    return new EngineSettings(null);
  }

  public boolean gangScheduling() {
    return gangScheduler != null && !gangScheduler.isBlank();
  }

  public boolean volcano() {
    return "volcano".equals(gangScheduler);
  }
}
