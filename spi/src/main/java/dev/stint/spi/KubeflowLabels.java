package dev.stint.spi;

/**
 * The {@code training.kubeflow.org/*} label keys the engine puts on a job's pods and services, for a framework that
 * selects them (a job-wide service) or sets one itself (MPI's {@code job-role}).
 */
public final class KubeflowLabels {
  /** The controller's name ({@code pytorchjob-controller}, {@code mpi-operator}). */
  public static final String OPERATOR_NAME = "training.kubeflow.org/operator-name";
  /** The job's name. */
  public static final String JOB_NAME = "training.kubeflow.org/job-name";
  /** The replica type in lower case. */
  public static final String REPLICA_TYPE = "training.kubeflow.org/replica-type";
  /** The replica's index. */
  public static final String REPLICA_INDEX = "training.kubeflow.org/replica-index";
  /** {@code master} on leaders ({@link TrainingFramework#isLeader}); MPI's {@code launcher} and {@code worker}. */
  public static final String JOB_ROLE = "training.kubeflow.org/job-role";
  /**
   * A Stint addition, on every pod of a job with a {@code runPolicy.failurePolicy}: the attempt the pod belongs to,
   * {@code "0"} before the first gang restart (JobSet's {@code jobset.sigs.k8s.io/restart-attempt}). Also an
   * annotation of the same key, and the environment variable {@link #RESTART_ATTEMPT_ENV} of every container.
   */
  public static final String RESTART_ATTEMPT = "training.kubeflow.org/restart-attempt";
  /** The environment variable that tells training code its attempt ({@link #RESTART_ATTEMPT}). */
  public static final String RESTART_ATTEMPT_ENV = "STINT_RESTART_ATTEMPT";

  private KubeflowLabels() { }
}
