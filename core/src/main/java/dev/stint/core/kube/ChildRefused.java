package dev.stint.core.kube;

/**
 * The API server refused to create one of a job's children for good, or the child's name is held by an object the job
 * does not own: the job cannot run as it is, so it ends {@code Failed} with this message, which names the child.
 */
public final class ChildRefused extends RuntimeException {

  /** @param message what went wrong, naming the child, in the API server's words where it gave any */
  public ChildRefused(String message) {
    super(message, null, false, false);
  }
}
