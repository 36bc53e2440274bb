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
  ReplicaFailure,
  /**
   * A Stint addition: some of the job's pods exist and cannot run, as the kubelet says of a container in state
   * {@code waiting}: unschedulable, an image that cannot be pulled, a missing Secret, a crash loop. The reason names
   * the cause ({@code <Kind>ImagePullBackOff}), the message the replicas and the pods' own words. Removed as soon as
   * no pod waits.
   */
  PodsWaiting;

  /** The reason used with this condition: {@code <Kind><Type>}, for example {@code PyTorchJobRunning}. */
  public String reason(String kind) {
    return kind + name();
  }
}
