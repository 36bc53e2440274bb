package dev.stint.spi.api;

/**
 * The known limits of a job, checked before any child exists: by the CRDs (OpenAPI maxima and CEL rules), so the API
 * server refuses a job that breaks them, and by the engine for a job that got past an older CRD. Both use these
 * numbers, and a plugin's CRD should too.
 */
public final class ReplicaLimits {

  /** At most this many replicas of one replica type ({@code maximum} of {@code <x>ReplicaSpecs.<type>.replicas}). */
  public static final int MAX_PER_TYPE = 5000;

  /** At most this many replicas in all, summed over the replica types of one job (replicas defaulted as the kind does). */
  public static final int MAX_PER_JOB = 5000;

  /**
   * At most this many characters in the name of a child: a pod, and its headless service, are named
   * {@code <job>-<replica type lower-case>-<index>}, and a service name must be a DNS-1035 label (63 characters).
   */
  public static final int MAX_NAME = 63;

  private ReplicaLimits() { }

  /**
   * The length of the longest name of a replica type's children, {@code <job>-<type>-<index>}, for this many replicas
   * (0 or less counts as one name with index 0, as the CRD rules count it).
   */
  public static int longestIndexedName(String jobName, String replicaType, int replicas) {
    int maxIndex = Math.max(replicas - 1, 0);
    return jobName.length() + 1 + replicaType.length() + 1 + Integer.toString(maxIndex).length();
  }
}
