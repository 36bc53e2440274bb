package dev.stint.core.model;

import dev.stint.spi.ReplicaHosts;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.RunPolicy;

/**
 * What the decision, the Kueue link and the reconciler all read of a job's run policy, worked out in this one place
 * (each used to read {@code spec.runPolicy} with null checks of its own): whether it is suspended, which controller
 * manages it, whether its replicas restart as a gang, whether it has one Service per job. It asks the framework
 * nothing, so it can be read on a job whose framework fails, as the reconciler does before it writes a failure.
 */
public final class JobFacts {
  private static final RunPolicy NONE = new RunPolicy();

  private final TrainingJob<?> job;
  private final RunPolicy runPolicy;

  private JobFacts(TrainingJob<?> job, RunPolicy runPolicy) {
    this.job = job;
    this.runPolicy = runPolicy;
  }

  public static JobFacts of(TrainingJob<?> job) {
    RunPolicy runPolicy = job.getSpec() == null ? null : job.getSpec().runPolicy();
    return new JobFacts(job, runPolicy == null ? NONE : runPolicy);
  }

  /** The job's run policy; an empty one (every default) when the spec has none. Not to be changed. */
  public RunPolicy runPolicy() { return runPolicy; }

  /** {@code runPolicy.suspend} is true: by the user, or by Kueue's admission in its own modes. */
  public boolean suspended() { return runPolicy.suspended(); }

  /** {@code runPolicy.managedBy}, or null when unset. */
  public String managedBy() { return runPolicy.getManagedBy(); }

  /**
   * Whether this Stint manages the job: {@code managedBy} unset or the kind's own value. Another value (an empty one
   * too, as upstream) gets no write at all, not even status.
   */
  public boolean ours(String managedByValue) {
    String managedBy = managedBy();
    return managedBy == null || managedBy.equals(managedByValue);
  }

  /**
   * A failure policy is set: a member's failure restarts every pod, a succeeded replica runs again in the next
   * attempt (so its quota is still needed), and pods are created together.
   */
  public boolean gang() { return runPolicy.getFailurePolicy() != null; }

  /** {@code runPolicy.serviceMode: PerJob}: one headless Service for the job, none per pod. */
  public boolean servicePerJob() { return ReplicaHosts.perJob(job); }
}
