package dev.stint.core.kube;

/**
 * The API server refused to create one of a job's children for good, or the child's name is held by an object the job
 * does not own: the job cannot run as it is, so it ends {@code Failed} with this message.
 */
public final class ChildRefused extends RuntimeException {
  private final String child;

  /**
   * @param child the child, as {@code <Kind> <name>} ({@code Service x-master-0})
   * @param message what went wrong, in the API server's words where it gave any
   */
  public ChildRefused(String child, String message) {
    super(message, null, false, false);
    this.child = child;
  }

  /** The refused child, as {@code <Kind> <name>}. */
  public String child() {
    return child;
  }
}
