package dev.stint.core.decision;

/** The replica restart policies and how each maps onto pods and failures. */
final class RestartPolicies {
  static final String ALWAYS = "Always";
  static final String ON_FAILURE = "OnFailure";
  static final String NEVER = "Never";
  static final String EXIT_CODE = "ExitCode";

  private RestartPolicies() { }

  /** The pod's restartPolicy: the replica policy, except ExitCode, which the engine handles with pod restarts. */
  static String podRestartPolicy(String replicaPolicy) {
    return EXIT_CODE.equals(replicaPolicy) ? NEVER : replicaPolicy;
  }

  /** Whether a failed pod is deleted and recreated rather than counted as a final failure. */
  static boolean retries(String replicaPolicy, int exitCode) {
    return switch (replicaPolicy) {
      case ALWAYS, ON_FAILURE -> true;
      case EXIT_CODE -> retryableExitCode(exitCode);
      default -> false;
    };
  }

  /** Upstream's rule: exit codes 128 and above (signals: 137 OOM kill, 143 SIGTERM) are retryable. */
  static boolean retryableExitCode(int exitCode) {
    return exitCode >= 128;
  }

  /** Whether the kubelet restarts containers in place, so restart counts feed backoffLimit. */
  static boolean countsContainerRestarts(String replicaPolicy) {
    return ALWAYS.equals(replicaPolicy) || ON_FAILURE.equals(replicaPolicy) || EXIT_CODE.equals(replicaPolicy);
  }
}
