package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A job the operator cannot read, on the real API server: a PyTorchJob with {@code backoffLimit: 3000000000}, stored
 * under a CRD without today's int32 bound (as one older than it, or a plugin's whose field changed type, lets in).
 * Before, the informer's list of PyTorchJobs failed on it and no PyTorchJob was served. Now the operator starts and
 * serves the other PyTorchJob, leaves that one with no pods and says why once, naming the field; fixed with kubectl, it
 * is served too.
 */
class UnreadableJobIT {
  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.namespace("unreadable");
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final String BOUND = "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/runPolicy"
      + "/properties/backoffLimit/maximum";

  @AfterAll
  static void restoreTheCrds() {
    LocalCluster.installCrds();
  }

  static String job(String name, String backoffLimit) {
    return """
        apiVersion: kubeflow.org/v1
        kind: PyTorchJob
        metadata: {name: %s}
        spec:
          runPolicy: {backoffLimit: %s}
          pytorchReplicaSpecs:
            Master:
              replicas: 1
              template: {spec: {containers: [{name: pytorch, image: busybox}]}}
        """.formatted(name, backoffLimit);
  }

  @Test
  void theKindIsServedAndTheUnreadableJobLeftAloneUntilFixed() throws InterruptedException {
    Kubectl.run("patch", "crd", "pytorchjobs.kubeflow.org", "--type=json",
        "-p", "[{\"op\":\"remove\",\"path\":\"" + BOUND + "\"}]").assertOk();
    // the API server takes a moment to serve the changed schema
    await().atMost(WAIT).until(() -> Kubectl.runWithInput(job("unreadable", "3000000000"), "apply", "-n",
        cluster.ns(), "-f", "-").exitCode() == 0);
    Kubectl.runWithInput(job("readable", "3"), "apply", "-n", cluster.ns(), "-f", "-").assertOk();

    OperatorProcess operator = OperatorProcess.start();
    try {
      await().atMost(WAIT).untilAsserted(() -> assertThat(pods("readable")).hasSize(1));
      await().atMost(WAIT).untilAsserted(() -> assertThat(unreadableEvents()).singleElement().satisfies(e -> {
        assertThat(e.getType()).isEqualTo("Warning");
        assertThat(e.getInvolvedObject().getName()).isEqualTo("unreadable");
        assertThat(e.getMessage()).startsWith("PyTorchJob cannot be read by this operator: "
            + "spec.runPolicy.backoffLimit: ").contains("3000000000", "left as they are");
      }));
      assertThat(pods("unreadable")).isEmpty();

      LocalCluster.installCrds();
      Kubectl.run("patch", "pytorchjob", "unreadable", "-n", cluster.ns(), "--type=merge",
          "-p", "{\"spec\":{\"runPolicy\":{\"backoffLimit\":3}}}").assertOk();

      await().atMost(WAIT).untilAsserted(() -> assertThat(pods("unreadable")).hasSize(1));
      assertThat(unreadableEvents()).as("said once").hasSize(1);
    } finally {
      OperatorProcess.closeAlive(operator);
    }
  }

  private static List<Pod> pods(String job) {
    return cluster.pods().withLabel("training.kubeflow.org/job-name", job).list().getItems();
  }

  private static List<Event> unreadableEvents() {
    return cluster.client().v1().events().inNamespace(cluster.ns()).list().getItems().stream()
        .filter(e -> "PyTorchJobUnreadable".equals(e.getReason())).toList();
  }
}
