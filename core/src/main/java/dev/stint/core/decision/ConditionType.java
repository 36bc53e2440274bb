package dev.stint.core.decision;

/** Condition types of the Kubeflow v1 job status ({@code status.conditions[].type}). */
public enum ConditionType {
  Created, Running, Restarting, Succeeded, Suspended, Failed,
  /** A Stint addition: the success policy held while some replicas failed (set just before Succeeded). */
  PartiallySucceeded,
  /**
   * A Stint addition, as on a ReplicaSet: the API server refuses the job's children for a reason that heals (quota,
   * throttling, server errors), and the operator keeps retrying. Removed once a pass goes through.
   */
  ReplicaFailure;

  /** The reason used with this condition: {@code <Kind><Type>}, for example {@code PyTorchJobRunning}. */
  public String reason(String kind) {
    return kind + name();
  }
}
