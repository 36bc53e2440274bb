package dev.stint.e2e;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Optional;

/**
 * The jobs of one Kueue test, in its namespace beside its {@link LocalKueue}: creating them, reading their conditions
 * and pods, and ending pods with an exit code (kwok's stage for the annotation {@value #EXIT_CODE}). Shared by the
 * Kueue ITs, for any kind.
 */
record KueueScenario(KubernetesClient client, String ns, LocalKueue kueue) {
  static final String EXIT_CODE = "stint.dev/kwok-exit-code";
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  /** Applies a manifest in the test's namespace. */
  void create(String yaml) {
    Kubectl.runWithInput(yaml, "apply", "-n", ns, "-f", "-").assertOk();
  }

  GenericKubernetesResource job(RbacJobs.Kind kind, String name) {
    return RbacJobs.get(client, kind, ns, name);
  }

  /** The job's condition of that type, with its reason and transition time; empty when it has none. */
  Optional<Condition> condition(RbacJobs.Kind kind, String name, String type) {
    GenericKubernetesResource job = job(kind, name);
    List<?> raw = job == null ? null : job.get("status", "conditions");
    return raw == null ? Optional.empty() : raw.stream().map(c -> JSON.convertValue(c, Condition.class))
        .filter(c -> type.equals(c.getType())).findFirst();
  }

  /** Whether the job has that condition with status True. */
  boolean isTrue(RbacJobs.Kind kind, String name, String type) {
    return condition(kind, name, type).map(c -> "True".equals(c.getStatus())).orElse(false);
  }

  /** The name of the job's one Workload, once Stint has made it. */
  String workloadOf(RbacJobs.Kind kind, String name) {
    return kueue.awaitWorkloadOfJob(job(kind, name).getMetadata().getUid()).name();
  }

  List<Pod> pods(String job) {
    return RbacJobs.pods(client, ns, job);
  }

  /** {@code status.replicaStatuses.<type>.failed} of the job; 0 when absent. */
  int failedReplicas(RbacJobs.Kind kind, String name, String replicaType) {
    GenericKubernetesResource job = job(kind, name);
    Number failed = job == null ? null : job.get("status", "replicaStatuses", replicaType, "failed");
    return failed == null ? 0 : failed.intValue();
  }

  /** Ends one pod with that exit code. */
  void exit(String pod, int code) {
    client.pods().inNamespace(ns).withName(ReplicaPods.podName(client, ns, pod)).patch(
        PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\":{\"annotations\":{\"" + EXIT_CODE + "\":\"" + code + "\"}}}");
  }

  /**
   * Ends every pod of the job with that exit code. A pod gone meanwhile is skipped: the job may have ended with an
   * earlier one (an MPI launcher), and Stint then stops the pods still running.
   */
  void exitAll(String job, int code) {
    for (Pod pod : pods(job)) {
      try {
        exit(pod.getMetadata().getName(), code);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404) {
          throw e;
        }
      }
    }
  }
}
