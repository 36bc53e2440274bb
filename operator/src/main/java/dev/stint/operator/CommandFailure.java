package dev.stint.operator;

/**
 * A command cannot go on, for a reason the user can act on (the cluster is unreachable, a CRD is missing, the demo has
 * no jobs). {@link Main} prints the message, without a stack trace, and exits with {@link #exitCode()}.
 */
public class CommandFailure extends RuntimeException {
  /** Exit code of a command that started but could not do its work. */
  public static final int FAILED = 1;
  /** Exit code of a command line that makes no sense (unknown option, unknown framework). */
  public static final int USAGE = 2;

  private final int exitCode;

  public CommandFailure(String message) {
    this(FAILED, message);
  }

  public CommandFailure(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  public static CommandFailure usage(String message) {
    return new CommandFailure(USAGE, message);
  }

  public int exitCode() {
    return exitCode;
  }
}
