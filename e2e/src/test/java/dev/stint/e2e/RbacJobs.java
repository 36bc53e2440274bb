package dev.stint.e2e;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Jobs of each kind Stint serves, as manifests, and what RbacIT reads of them. */
final class RbacJobs {

  /**
   * A kind of job: how its manifest is spelled.
   *
   * @param replicas the replica types of a small job and their counts, in manifest order
   */
  record Kind(String apiVersion, String kind, String plural, String specField, String container,
              Map<String, Integer> replicas) {
    /**
     * A job of this kind.
     *
     * @param exitCode the exit code every pod ends with as soon as it runs (kwok), or null: pods run until told
     * @param runPolicy the YAML flow map of spec.runPolicy, e.g. {@code {suspend: false}}
     * @param extraSpec more fields of spec, as YAML lines indented by two spaces, or ""
     */
    String manifest(String name, Integer exitCode, String restartPolicy, String runPolicy, String extraSpec) {
      StringBuilder specs = new StringBuilder();
      String annotations = exitCode == null ? "{}" : "{stint.dev/kwok-exit-code: \"" + exitCode + "\"}";
      replicas.forEach((type, count) -> specs.append("    ").append(type).append(":\n")
          .append("      replicas: ").append(count).append("\n")
          .append("      restartPolicy: ").append(restartPolicy).append("\n")
          .append("      template:\n        metadata: {annotations: ").append(annotations).append("}\n")
          .append("        spec: {containers: [{name: ").append(container).append(", image: busybox}]}\n"));
      return "apiVersion: " + apiVersion + "\nkind: " + kind + "\nmetadata: {name: " + name + "}\nspec:\n"
          + "  runPolicy: " + runPolicy + "\n" + extraSpec + "  " + specField + ":\n" + specs;
    }

    /** A job whose pods run until {@link #finish}: suspended and resumed on the way. */
    String running(String name) {
      return manifest(name, null, "OnFailure", "{suspend: false}", "");
    }
  }

  static final Kind PYTORCH = new Kind("kubeflow.org/v1", "PyTorchJob", "pytorchjobs", "pytorchReplicaSpecs",
      "pytorch", Map.of("Master", 1));
  static final Kind PYTORCH_ELASTIC = new Kind("kubeflow.org/v1", "PyTorchJob", "pytorchjobs",
      "pytorchReplicaSpecs", "pytorch", Map.of("Worker", 2));
  static final Kind TENSORFLOW = new Kind("kubeflow.org/v1", "TFJob", "tfjobs", "tfReplicaSpecs", "tensorflow",
      Map.of("Worker", 2));
  static final Kind MPI = new Kind("kubeflow.org/v2beta1", "MPIJob", "mpijobs", "mpiReplicaSpecs", "mpi",
      new java.util.LinkedHashMap<>(Map.of("Launcher", 1, "Worker", 2)));
  static final Kind JAX = new Kind("kubeflow.org/v1", "JAXJob", "jaxjobs", "jaxReplicaSpecs", "jax",
      Map.of("Worker", 2));

  /** An elasticPolicy with a metric: the operator keeps an autoscaler for the job while it runs. */
  static String elasticPolicy(int maxReplicas) {
    return "  elasticPolicy: {minReplicas: 1, maxReplicas: " + maxReplicas + ", metrics: [{type: Resource, "
        + "resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}}]}\n";
  }

  private RbacJobs() { }

  static GenericKubernetesResource get(KubernetesClient client, Kind kind, String ns, String name) {
    return client.genericKubernetesResources(kind.apiVersion(), kind.kind()).inNamespace(ns).withName(name).get();
  }

  /** The status of a condition of the job ("True", "False"), or null when it has none of that type. */
  @SuppressWarnings("unchecked")
  static String condition(KubernetesClient client, Kind kind, String ns, String name, String type) {
    GenericKubernetesResource job = get(client, kind, ns, name);
    Object status = job == null ? null : job.getAdditionalProperties().get("status");
    if (!(status instanceof Map<?, ?> map) || !(map.get("conditions") instanceof List<?> conditions)) {
      return null;
    }
    return conditions.stream().map(c -> (Map<String, Object>) c).filter(c -> type.equals(c.get("type")))
        .map(c -> Objects.toString(c.get("status"))).findFirst().orElse(null);
  }

  static boolean hasStatus(KubernetesClient client, Kind kind, String ns, String name) {
    GenericKubernetesResource job = get(client, kind, ns, name);
    return job != null && job.getAdditionalProperties().get("status") != null;
  }

  static List<Pod> pods(KubernetesClient client, String ns, String job) {
    return client.pods().inNamespace(ns).withLabel("training.kubeflow.org/job-name", job).list().getItems();
  }

  static void suspend(Kind kind, String ns, String name, boolean suspend) {
    patch(kind, ns, name, "{\"spec\":{\"runPolicy\":{\"suspend\":" + suspend + "}}}");
  }

  static void patch(Kind kind, String ns, String name, String mergePatch) {
    Kubectl.run("patch", kind.plural() + "." + kind.apiVersion().split("/")[0], name, "-n", ns, "--type=merge",
        "-p", mergePatch).assertOk();
  }

  /**
   * Ends every pod of the job with this exit code (kwok) that is not told to yet. A pod may go between the list and
   * the annotation (one being replaced): callers repeat this until the job has ended.
   */
  static void finish(KubernetesClient client, String ns, String job, int exitCode) {
    for (Pod pod : pods(client, ns, job)) {
      Map<String, String> annotations = pod.getMetadata().getAnnotations();
      if (annotations == null || !annotations.containsKey("stint.dev/kwok-exit-code")) {
        Kubectl.run("annotate", "pod", pod.getMetadata().getName(), "-n", ns, "--overwrite",
            "stint.dev/kwok-exit-code=" + exitCode);
      }
    }
  }
}
