package dev.stint.spi;

import dev.stint.spi.api.RunPolicy;

/**
 * The name by which a job's training code reaches one of its pods, in the job's service mode
 * ({@code spec.runPolicy.serviceMode}). Every address a framework writes into a pod (a master's address, a rendezvous
 * endpoint, a cluster spec, a coordinator) goes through {@link #host}, so that it resolves in either mode:
 *
 * <ul>
 *   <li>{@code PerReplica} (the default, as the Kubeflow training operator): each replica has a headless Service of
 *       its pod's name, and the pod is reached as {@code <pod>} ({@code <pod>.<namespace>.svc});</li>
 *   <li>{@code PerJob}: the job has one headless Service named after the job, each pod has its name as
 *       {@code hostname} and the job's name as {@code subdomain} (as a JobSet's pods), and the pod is reached as
 *       {@code <pod>.<job>} ({@code <pod>.<job>.<namespace>.svc}): no Service and no EndpointSlice per replica.</li>
 * </ul>
 *
 * A framework that makes its own job-wide Service ({@link WithSupportingResources#servicePerPod} false, as MPI's)
 * names its hosts itself and is not concerned.
 */
public final class ReplicaHosts {
  /** {@code runPolicy.serviceMode} for a headless Service per replica (the default). */
  public static final String PER_REPLICA = "PerReplica";
  /** {@code runPolicy.serviceMode} for one headless Service per job. */
  public static final String PER_JOB = "PerJob";

  private ReplicaHosts() { }

  /** Whether the job asks for one Service per job. */
  public static boolean perJob(TrainingJob<?> job) {
    RunPolicy runPolicy = job.getSpec() == null ? null : job.getSpec().runPolicy();
    return runPolicy != null && PER_JOB.equals(runPolicy.getServiceMode());
  }

  /** The name of the job's own Service in {@code PerJob} mode: the job's name. */
  public static String jobService(TrainingJob<?> job) {
    return job.getMetadata().getName();
  }

  /**
   * The host name of the pod {@code podName} of this job: the pod's name, or {@code <pod>.<job>} in {@code PerJob}
   * mode; both are completed by the pod's DNS search path. Append {@code .<namespace>.svc} for a fully qualified name.
   */
  public static String host(TrainingJob<?> job, String podName) {
    return perJob(job) ? podName + "." + jobService(job) : podName;
  }
}
