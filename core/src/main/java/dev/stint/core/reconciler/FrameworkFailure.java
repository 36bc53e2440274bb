package dev.stint.core.reconciler;

/**
 * A framework's code threw while a job was reconciled. It fails that job (not the operator, not other jobs): the
 * message becomes the job's {@code Failed} condition message.
 */
final class FrameworkFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  FrameworkFailure(String framework, String method, Throwable cause) {
    super("framework " + framework + " failed in " + method + ": " + cause, cause);
  }
}
