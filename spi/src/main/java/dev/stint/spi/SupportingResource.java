package dev.stint.spi;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * An object besides pods and services that a job needs, as returned by
 * {@link TrainingFramework#supportingResources}. The engine sets its namespace, owner reference and labels, creates
 * it, keeps it equal to what the framework returns (unless created with {@link #onlyCreated}), and deletes it at the end of its
 * {@link Lifetime}.
 *
 * @param resource the object; it must have a name
 * @param lifetime when the engine deletes it
 * @param createOnly created once and never updated (for example a Secret holding a generated key pair)
 */
public record SupportingResource(HasMetadata resource, Lifetime lifetime, boolean createOnly) {

  /** When a supporting object exists. */
  public enum Lifetime {
    /** While the job runs: deleted when the job is suspended or finishes (an autoscaler, a PodGroup). */
    WHILE_RUNNING,
    /** From the job's start until the job is deleted, suspensions included (an MPI hostfile, an SSH key Secret). */
    WITH_JOB
  }

  public static SupportingResource whileRunning(HasMetadata resource) {
    return new SupportingResource(resource, Lifetime.WHILE_RUNNING, false);
  }

  public static SupportingResource withJob(HasMetadata resource) {
    return new SupportingResource(resource, Lifetime.WITH_JOB, false);
  }

  /** The same object, created once and then left as it is. */
  public SupportingResource onlyCreated() {
    return new SupportingResource(resource, lifetime, true);
  }
}
