package dev.stint.spi;

/**
 * Capability: condition messages in the kind's upstream words. Without it a job gets {@link JobMessages#standard}
 * ({@code <Kind> <name> is running.}).
 *
 * @param <J> the custom resource class of the kind
 */
public interface WithMessages<J extends TrainingJob<?>> {

  /** The condition messages of this job. */
  JobMessages messages(J job);
}
