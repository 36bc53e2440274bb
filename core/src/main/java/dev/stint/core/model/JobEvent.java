package dev.stint.core.model;

/** A Kubernetes event to record on the job. */
public record JobEvent(Type type, String reason, String message) {

  /** Event type as Kubernetes spells it. */
  public enum Type { Normal, Warning }

  public static JobEvent normal(String reason, String message) {
    return new JobEvent(Type.Normal, reason, message);
  }

  public static JobEvent warning(String reason, String message) {
    return new JobEvent(Type.Warning, reason, message);
  }
}
