package dev.stint.spi;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.function.Supplier;

/**
 * An object besides pods and services that a job needs, as returned by
 * {@link WithSupportingResources#supportingResources}. The engine sets its namespace, owner reference and labels, creates
 * it, keeps it equal to what the framework returns (unless created with {@link #onlyCreated}), and deletes it at the end of its
 * {@link Lifetime}.
 *
 * @param resource the object; it must have a name
 * @param lifetime when the engine deletes it
 * @param createOnly created once and never updated (for example a Secret holding a generated key pair)
 * @param content for an object created once, what it is made of, asked for only when the object is missing; null
 *     when {@code resource} is the whole object
 */
public record SupportingResource(HasMetadata resource, Lifetime lifetime, boolean createOnly,
                                 Supplier<? extends HasMetadata> content) {

  /** When a supporting object exists. */
  public enum Lifetime {
    /** While the job runs: deleted when the job is suspended or finishes (an autoscaler, a PodGroup). */
    WHILE_RUNNING,
    /** From the job's start until the job is deleted, suspensions included (an MPI hostfile, an SSH key Secret). */
    WITH_JOB
  }

  public static SupportingResource whileRunning(HasMetadata resource) {
    return new SupportingResource(resource, Lifetime.WHILE_RUNNING, false, null);
  }

  public static SupportingResource withJob(HasMetadata resource) {
    return new SupportingResource(resource, Lifetime.WITH_JOB, false, null);
  }

  /**
   * An object that lives with the job, created once when missing and then left as it is, whose content is costly or
   * random (a generated key pair): {@code named} gives its kind and name, {@code content} the whole object, asked for
   * only when the engine is about to create it. The framework keeps no state for it: the object in the cluster is
   * the state.
   */
  public static SupportingResource createdOnce(HasMetadata named, Supplier<? extends HasMetadata> content) {
    return new SupportingResource(named, Lifetime.WITH_JOB, true, content);
  }

  /** The same object, created once and then left as it is. */
  public SupportingResource onlyCreated() {
    return new SupportingResource(resource, lifetime, true, content);
  }

  /** The object to create: the content when it is made lazily, else the resource. */
  public HasMetadata toCreate() {
    return content == null ? resource : content.get();
  }
}
