package dev.stint.spi.api;

/**
 * The limits every job is held to, by the CRDs (OpenAPI and CEL rules) and again by the engine before it creates
 * anything: a job that passes them cannot be refused by the API server for its size or its names.
 */
public final class ReplicaLimits {
  /** Replicas of one type at most. */
  public static final int MAX_PER_TYPE = 5000;
  /** Replicas of all types of one job at most. */
  public static final int MAX_PER_JOB = 5000;
  /** Characters of a pod or service name at most: a Service name is a DNS-1035 label. */
  public static final int MAX_NAME = 63;

  private ReplicaLimits() { }
}
