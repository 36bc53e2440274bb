package dev.stint.e2e;

import static dev.stint.e2e.CrdVerdicts.replica;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The checked-in TFJob CRD on a real API server: its CEL rules compile, refuse invalid jobs naming the field. */
class TFJobCrdValidationIT extends CrdOnApiServer {
  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.namespace("tfcrd");

  TFJobCrdValidationIT() {
    super(cluster::ns, "tf-dist-mnist.yaml");
  }

  static String job(String name, String extraSpec, String... replicas) {
    return CrdVerdicts.job("TFJob", "tfReplicaSpecs", name, extraSpec, replicas);
  }

  static final String CHIEF = replica("Chief", 1, "tensorflow", "busybox");
  static final String PS = replica("PS", 1, "tensorflow", "busybox");
  static final String WORKER = replica("Worker", 2, "tensorflow", "busybox");

  static Stream<Arguments> invalidJobs() {
    return Stream.of(
        Arguments.of("two chiefs", job("two-chiefs", "", replica("Chief", 2, "tensorflow", "busybox"), WORKER),
            "spec.tfReplicaSpecs.Chief.replicas: must be 1"),
        Arguments.of("chief and master", job("chief-master", "", CHIEF, replica("Master", 1, "tensorflow", "b"), WORKER),
            "spec.tfReplicaSpecs: must not have more than 1 Chief or Master role"),
        Arguments.of("upper-case key", job("upper", "", replica("WORKER", 2, "tensorflow", "busybox")),
            "spec.tfReplicaSpecs: replica types must be Chief, Master, PS, Worker or Evaluator"),
        Arguments.of("no tensorflow container", job("no-tf", "", PS, replica("Worker", 2, "main", "busybox")),
            "spec.tfReplicaSpecs: every replica type needs a container named tensorflow"),
        Arguments.of("empty image", job("no-image", "", PS, replica("Worker", 2, "tensorflow", "")),
            "spec.tfReplicaSpecs.Worker.template.spec.containers[0].image"),
        Arguments.of("unknown success policy", job("bad-policy", "  successPolicy: allWorkers\n", PS, WORKER),
            "spec.successPolicy: Unsupported value: \"allWorkers\": supported values: \"\", \"AllWorkers\""),
        Arguments.of("success rule of a missing type", job("bad-rule",
            "  runPolicy: {successPolicy: {rules: [{succeeded: {Chief: 1}}]}}\n", PS, WORKER),
            "spec.runPolicy.successPolicy.rules: a rule names a replica type the job does not have"),
        Arguments.of("no spec", "apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata: {name: no-spec}\n",
            "spec.tfReplicaSpecs: must be set"),
        Arguments.of("name not DNS-1035", job("9starts-with-digit", "", PS, WORKER),
            "metadata.name: must be a DNS-1035 label"));
  }


  /** The known limits on the real API server: 63-character child names, 5000 replicas per type and per job. */
  static Stream<Arguments> limits() {
    String name53 = "n" + "x".repeat(52);
    String name54 = "n" + "x".repeat(53);
    return Stream.of(
        Arguments.of("10 PS, 100 workers, name of 53 (worker-99 at 63)",
            job(name53, "", replica("PS", 10, "tensorflow", "busybox"), replica("Worker", 100, "tensorflow", "b")),
            List.of()),
        Arguments.of("10 PS, 100 workers, name of 54",
            job(name54, "", replica("PS", 10, "tensorflow", "busybox"), replica("Worker", 100, "tensorflow", "b")),
            List.of("metadata.name: Invalid value", NAME_TOO_LONG)),
        Arguments.of("2500 PS + 2500 workers", job("sum", "", replica("PS", 2500, "tensorflow", "busybox"),
            replica("Worker", 2500, "tensorflow", "busybox")), List.of()),
        Arguments.of("chief + 2500 PS + 2500 workers", job("sum", "", CHIEF,
            replica("PS", 2500, "tensorflow", "busybox"), replica("Worker", 2500, "tensorflow", "busybox")),
            List.of("spec.tfReplicaSpecs: Invalid value", "spec.tfReplicaSpecs: at most 5000 replicas in all")),
        Arguments.of("5001 workers", job("big", "", replica("Worker", 5001, "tensorflow", "busybox")),
            List.of("spec.tfReplicaSpecs.Worker.replicas", "less than or equal to 5000")));
  }

  @Test
  void everyFieldAndReplicaTypeIsAccepted() {
    String manifest = job("full", "  successPolicy: AllWorkers\n  enableDynamicWorker: true\n"
        + "  runPolicy: {successPolicy: {rules: [{succeeded: {Worker: 2}}]}}\n",
        CHIEF, replica("Evaluator", 1, "tensorflow", "busybox"), PS, WORKER);
    Kubectl.runWithInput(manifest, "apply", "--dry-run=server", "-n", cluster.ns(), "-f", "-").assertOk();
  }
}
