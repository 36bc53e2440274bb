package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The checked-in CRDs on a real API server: installed with kubectl, and invalid jobs refused naming the field. */
class CrdValidationIT {
  static KubernetesClient client;
  static String ns;

  @BeforeAll
  static void setUp() {
    client = LocalCluster.client();
    LocalCluster.installCrds();
    ns = LocalCluster.namespace(client, "crd");
  }

  @AfterAll
  static void tearDown() {
    if (client != null) {
      client.namespaces().withName(ns).delete();
      client.close();
    }
  }

  static String job(String name, String master, String worker, String extraSpec) {
    return """
        apiVersion: kubeflow.org/v1
        kind: PyTorchJob
        metadata: {name: %s}
        spec:
        %s  pytorchReplicaSpecs:
        %s%s""".formatted(name, extraSpec, master, worker);
  }

  static String replica(String type, int replicas, String container, String image) {
    return """
            %s:
              replicas: %d
              template:
                spec:
                  containers: [{name: %s, image: "%s"}]
        """.formatted(type, replicas, container, image);
  }

  static final String MASTER = replica("Master", 1, "pytorch", "busybox");
  static final String WORKER = replica("Worker", 2, "pytorch", "busybox");

  static Stream<Arguments> invalidJobs() {
    return Stream.of(
        Arguments.of("two masters", job("two-masters", replica("Master", 2, "pytorch", "busybox"), WORKER, ""),
            "spec.pytorchReplicaSpecs.Master.replicas: must be 1"),
        Arguments.of("no worker replicas", job("no-workers", MASTER, replica("Worker", 0, "pytorch", "busybox"), ""),
            "spec.pytorchReplicaSpecs.Worker.replicas: must be at least"),
        Arguments.of("no pytorch container", job("no-pytorch", replica("Master", 1, "main", "busybox"), WORKER, ""),
            "spec.pytorchReplicaSpecs: every replica type needs a container"),
        Arguments.of("empty image", job("no-image", replica("Master", 1, "pytorch", ""), WORKER, ""),
            "spec.pytorchReplicaSpecs: every container in template.spec.containers"),
        Arguments.of("unknown replica type", job("chief", MASTER, replica("Chief", 1, "pytorch", "busybox"), ""),
            "spec.pytorchReplicaSpecs: replica types must be Master"),
        Arguments.of("managedBy not allowed", job("other-manager", MASTER, WORKER,
            "  runPolicy: {managedBy: example.com/other}\n"), "spec.runPolicy.managedBy must be"),
        Arguments.of("cleanPodPolicy unknown", job("bad-clean", MASTER, WORKER,
            "  runPolicy: {cleanPodPolicy: Sometimes}\n"), "spec.runPolicy.cleanPodPolicy must be one of"),
        Arguments.of("both nproc fields", job("both-nproc", "", WORKER,
            "  nprocPerNode: \"2\"\n  elasticPolicy: {nProcPerNode: 2}\n"), "spec.elasticPolicy.nProcPerNode"),
        Arguments.of("name not DNS-1035", job("9starts-with-digit", MASTER, WORKER, ""),
            "metadata.name: must be a DNS-1035 label"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidJobs")
  void apiServerRejectsInvalidJobNamingTheField(String title, String manifest, String message) {
    Kubectl.Result result = Kubectl.runWithInput(manifest, "apply", "-n", ns, "-f", "-");
    assertThat(result.exitCode()).as("accepted: %s", manifest).isNotZero();
    assertThat(result.stderr()).contains(message);
  }

  @Test
  void upstreamExampleIsAcceptedUnchanged() throws Exception {
    String example = Files.readString(LocalCluster.ROOT.resolve("examples/pytorch-simple.yaml"));
    Kubectl.runWithInput(example, "apply", "--dry-run=server", "-n", ns, "-f", "-").assertOk();
  }

  @Test
  void managedByIsImmutable() {
    Kubectl.runWithInput(job("managed", MASTER, WORKER, "  runPolicy: {managedBy: kueue.x-k8s.io/multikueue}\n"),
        "apply", "-n", ns, "-f", "-").assertOk();
    Kubectl.Result patch = Kubectl.run("patch", "pytorchjob", "managed", "-n", ns, "--type", "merge", "-p",
        "{\"spec\":{\"runPolicy\":{\"managedBy\":\"kubeflow.org/training-operator\"}}}");
    assertThat(patch.exitCode()).isNotZero();
    assertThat(patch.stderr()).contains("spec.runPolicy.managedBy is immutable");
  }
}
