package dev.stint.examples.jax;

import dev.stint.spi.AbstractTrainingFramework;
import dev.stint.spi.ContainerEnv;
import dev.stint.spi.FrameworkDefaults;
import dev.stint.spi.JobMessages;
import dev.stint.spi.ReplicaHosts;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.SuccessPolicy;
import dev.stint.spi.WithMessages;
import dev.stint.spi.api.ReplicaSpec;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;

/**
 * Kubeflow's JAXJob ({@code kubeflow.org/v1}) as the Kubeflow training operator v1.9 runs it, for Stint's engine:
 *
 * <ul>
 *   <li>one replica type, {@code Worker}; Worker 0 is the coordinator of {@code jax.distributed} and carries the
 *       {@code job-role=master} label;</li>
 *   <li>defaults: container {@code jax}, port {@code jaxjob-port} 6666, restart policy {@code Never};</li>
 *   <li>wiring: every container gets {@code COORDINATOR_ADDRESS} ({@code <job>-worker-0}, resolved by Worker 0's
 *       headless service), {@code COORDINATOR_PORT}, {@code NUM_PROCESSES} (the number of replicas) and
 *       {@code PROCESS_ID} (the replica's index), which {@code jax.distributed.initialize()} reads;</li>
 *   <li>success: every Worker succeeded.</li>
 * </ul>
 *
 * Everything else (pods, services, restarts, suspend and resume, status) is the engine's.
 */
public class JaxFramework extends AbstractTrainingFramework<JAXJob> implements WithMessages<JAXJob> {

  static final String CONTAINER = "jax";
  static final String PORT_NAME = "jaxjob-port";
  static final int DEFAULT_PORT = 6666;
  private static final FrameworkDefaults DEFAULTS = new FrameworkDefaults(CONTAINER, PORT_NAME, DEFAULT_PORT, "Never");

  /** The kind: {@code jax}, JAXJob, its one replica type and its defaults. */
  public JaxFramework() {
    super("jax", JAXJob.class, List.of(JAXJobSpec.WORKER), DEFAULTS);
  }

  @Override
  public boolean isLeader(JAXJob job, ReplicaId replica) {
    return replica.index() == 0;
  }

  /** Appends the coordinator settings to every container, after the template's own variables, in upstream's order. */
  @Override
  public void wire(JAXJob job, ReplicaId replica, Pod pod) {
    ContainerEnv.appendToEach(pod, List.of(
        new EnvVar("PYTHONUNBUFFERED", "1", null),
        new EnvVar("COORDINATOR_PORT", Integer.toString(coordinatorPort(job)), null),
        new EnvVar("COORDINATOR_ADDRESS", ReplicaHosts.host(job,
            new ReplicaId(JAXJobSpec.WORKER, 0).podName(job.getMetadata().getName())), null),
        new EnvVar("NUM_PROCESSES", Integer.toString(processes(job)), null),
        new EnvVar("PROCESS_ID", Integer.toString(replica.index()), null)));
  }

  @Override
  public SuccessPolicy successPolicy(JAXJob job) {
    return SuccessPolicy.allOf(JAXJobSpec.WORKER);
  }

  /** Upstream's words: {@code JAXJob <namespace>/<name> is running.} and {@code ... successfully completed.}. */
  @Override
  public JobMessages messages(JAXJob job) {
    return JobMessages.namespaced("JAXJob", job)
        .failingAs(JobMessages.standard("JAXJob", job.getMetadata().getName()));
  }

  /** Replicas of every type, each defaulting to 1: the processes of the {@code jax.distributed} group. */
  static int processes(JAXJob job) {
    return job.getSpec().getJaxReplicaSpecs().values().stream().mapToInt(ReplicaSpec::replicasOrDefault).sum();
  }

  /**
   * The {@code jaxjob-port} of the Workers' {@code jax} container, or 6666: the engine adds the default port to the
   * pods it builds, never to the stored job, so a template without the port means the default.
   */
  static int coordinatorPort(JAXJob job) {
    return DEFAULTS.templatePort(job.getSpec().getJaxReplicaSpecs().get(JAXJobSpec.WORKER));
  }
}
