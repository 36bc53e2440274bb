package dev.stint.e2e;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The job shapes {@link ChaosIT} drives: three replicas each, every restart policy {@code Never}. */
final class ChaosKinds {
  private ChaosKinds() { }

  /** How a finished job ends. */
  enum Plan { SUCCEED, PARTIAL, FAIL }

  /**
   * A job shape. Every replica has {@code restartPolicy: Never}, so that an exit code is final and the outcome is
   * the plan's whatever the timing; a pod deleted behind the operator's back is recreated (it is missing, not failed).
   */
  enum Shape {
    /** PyTorchJob, Master 1 + Worker 2, the default success policy (the Master decides). */
    PYTORCH("pt", "kubeflow.org/v1", "PyTorchJob", "pytorchjobs", "pytorchReplicaSpecs", "pytorch",
        new String[] {"Master", "1", "Worker", "2"}, null, true),
    /**
     * PyTorchJob, Worker 3, rule {Worker: 2}, and a failure policy of no counted restart: one failed worker and two
     * succeeded is a partial success (the rule tolerates the failure, so the gang does not restart); two failed
     * workers fail it at the limit; a pod lost with its node restarts the gang without counting.
     */
    PYTORCH_RULES("pp", "kubeflow.org/v1", "PyTorchJob", "pytorchjobs", "pytorchReplicaSpecs", "pytorch",
        new String[] {"Worker", "3"}, "{Worker: 2}", true),
    /** TFJob, Chief 1 + Worker 2, rule {Chief: 1}: a failed worker does not fail the job. */
    TENSORFLOW("tf", "kubeflow.org/v1", "TFJob", "tfjobs", "tfReplicaSpecs", "tensorflow",
        new String[] {"Chief", "1", "Worker", "2"}, "{Chief: 1}", true),
    /** MPIJob v2beta1, Launcher 1 + Worker 2, the default success policy (the launcher decides). */
    MPI("mpi", "kubeflow.org/v2beta1", "MPIJob", "mpijobs", "mpiReplicaSpecs", "mpi",
        new String[] {"Launcher", "1", "Worker", "2"}, null, false);

    final String prefix;
    final String apiVersion;
    final String kind;
    final String plural;
    final String specField;
    final String container;
    /** replica type to count, in spec order. */
    final Map<String, Integer> replicas = new LinkedHashMap<>();
    final String rule;
    /** A headless service per pod (PyTorch, TF); MPI has one for the whole job. */
    final boolean servicePerPod;

    Shape(String prefix, String apiVersion, String kind, String plural, String specField, String container,
          String[] replicas, String rule, boolean servicePerPod) {
      this.prefix = prefix;
      this.apiVersion = apiVersion;
      this.kind = kind;
      this.plural = plural;
      this.specField = specField;
      this.container = container;
      for (int i = 0; i < replicas.length; i += 2) {
        this.replicas.put(replicas[i], Integer.parseInt(replicas[i + 1]));
      }
      this.rule = rule;
      this.servicePerPod = servicePerPod;
    }

    ResourceDefinitionContext context() {
      String[] gv = apiVersion.split("/");
      return new ResourceDefinitionContext.Builder().withGroup(gv[0]).withVersion(gv[1]).withKind(kind)
          .withPlural(plural).withNamespaced(true).build();
    }

    /** The pod names Stint gives the job's replicas (upstream's: {@code <job>-<type>-<i>}, MPI's launcher unindexed). */
    List<String> podNames(String job) {
      List<String> names = new java.util.ArrayList<>();
      replicas.forEach((type, n) -> {
        for (int i = 0; i < n; i++) {
          names.add(this == MPI && type.equals("Launcher") ? job + "-launcher"
              : job + "-" + type.toLowerCase(java.util.Locale.ROOT) + "-" + i);
        }
      });
      return names;
    }

    List<Plan> plans() {
      return this == PYTORCH ? List.of(Plan.SUCCEED, Plan.FAIL) : List.of(Plan.SUCCEED, Plan.PARTIAL, Plan.FAIL);
    }

    /**
     * The exit codes that end the job as planned, in phases: a phase starts once every pod of the previous one has
     * ended (so a failure is seen before the successes that complete the policy, whatever the timing). Keys are pod
     * name suffixes.
     */
    List<Map<String, Integer>> phases(Plan plan) {
      return switch (this) {
        case PYTORCH -> List.of(Map.of("master-0", plan == Plan.SUCCEED ? 0 : 1));
        case PYTORCH_RULES -> switch (plan) {
          case SUCCEED -> List.of(Map.of("worker-0", 0, "worker-1", 0, "worker-2", 0));
          case PARTIAL -> List.of(Map.of("worker-1", 1), Map.of("worker-0", 0, "worker-2", 0));
          case FAIL -> List.of(Map.of("worker-0", 1, "worker-2", 1));
        };
        case TENSORFLOW -> switch (plan) {
          case SUCCEED -> List.of(Map.of("chief-0", 0));
          case PARTIAL -> List.of(Map.of("worker-0", 1), Map.of("chief-0", 0));
          case FAIL -> List.of(Map.of("chief-0", 1));
        };
        case MPI -> switch (plan) {
          case SUCCEED -> List.of(Map.of("launcher", 0));
          case PARTIAL -> List.of(Map.of("worker-1", 1), Map.of("launcher", 0));
          case FAIL -> List.of(Map.of("launcher", 1));
        };
      };
    }

    String manifest(String name, boolean suspended) {
      StringBuilder y = new StringBuilder();
      y.append("apiVersion: ").append(apiVersion).append('\n')
          .append("kind: ").append(kind).append('\n')
          .append("metadata: {name: ").append(name).append(", labels: {stint.dev/chaos: \"true\"}}\n")
          .append("spec:\n");
      if (this == MPI) {
        y.append("  slotsPerWorker: 1\n");
      }
      y.append("  runPolicy:\n    suspend: ").append(suspended).append('\n');
      if (rule != null) {
        y.append("    successPolicy: {rules: [{succeeded: ").append(rule).append("}]}\n");
      }
      if (this == PYTORCH_RULES) {
        y.append("    failurePolicy: {maxRestarts: 0}\n");
      }
      y.append("  ").append(specField).append(":\n");
      replicas.forEach((type, n) -> y.append("    ").append(type).append(":\n")
          .append("      replicas: ").append(n).append('\n')
          .append("      restartPolicy: Never\n")
          .append("      template:\n        spec:\n          containers: [{name: ").append(container)
          .append(", image: busybox}]\n"));
      return y.toString();
    }
  }
}
