package dev.stint.e2e;

import static dev.stint.e2e.RbacJobs.JAX;
import static dev.stint.e2e.RbacJobs.MPI;
import static dev.stint.e2e.RbacJobs.PYTORCH;
import static dev.stint.e2e.RbacJobs.TENSORFLOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.e2e.RbacJobs.Kind;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pods that exist and cannot run, on the real control plane, for every kind (the JAX sample as a plugin): the real
 * kube-scheduler leaves pods that ask for GPUs no node has {@code Unschedulable}, and the job says so in its words
 * until a node with GPUs comes; status patches, as a kubelet writes them, give the waiting reasons of images that
 * cannot be pulled, missing Secrets and crash loops. The opt-in limit fails a job naming the cause.
 */
class PodsWaitingIT {
  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.namespace("waiting").withJaxPlugin("waiting-plugins-")
      .withOperator();
  private static final List<Kind> KINDS = List.of(PYTORCH, TENSORFLOW, MPI, JAX);
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final String GPU_NODE = "kwok-gpu-node";

  @AfterAll
  static void deleteTheGpuNode() {
    cluster.client().nodes().withName(GPU_NODE).delete();
  }

  /** A job whose every container asks for one GPU; the restart policy OnFailure. */
  static String gpuJob(Kind kind, String name, String runPolicy) {
    StringBuilder specs = new StringBuilder();
    kind.replicas().forEach((type, count) -> specs.append("    ").append(type).append(":\n")
        .append("      replicas: ").append(count).append("\n      restartPolicy: OnFailure\n")
        .append("      template:\n        spec: {containers: [{name: ").append(kind.container())
        .append(", image: busybox, resources: {limits: {nvidia.com/gpu: 1}}}]}\n"));
    return "apiVersion: " + kind.apiVersion() + "\nkind: " + kind.kind() + "\nmetadata: {name: " + name
        + "}\nspec:\n  runPolicy: " + runPolicy + "\n  " + kind.specField() + ":\n" + specs;
  }

  private static KubernetesClient client() {
    return cluster.client();
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> condition(Kind kind, String name, String type) {
    GenericKubernetesResource job = RbacJobs.get(client(), kind, cluster.ns(), name);
    Object status = job == null ? null : job.getAdditionalProperties().get("status");
    if (!(status instanceof Map<?, ?> map) || !(map.get("conditions") instanceof List<?> conditions)) {
      return Map.of();
    }
    return conditions.stream().map(c -> (Map<String, Object>) c).filter(c -> type.equals(c.get("type")))
        .findFirst().orElse(Map.of());
  }

  static void awaitWaiting(Kind kind, String name, String cause, String... words) {
    await(kind.kind() + " " + name + " PodsWaiting " + cause).atMost(WAIT).untilAsserted(() -> {
      Map<String, Object> waiting = condition(kind, name, "PodsWaiting");
      assertThat(waiting.get("status")).isEqualTo("True");
      assertThat(waiting.get("reason")).isEqualTo(kind.kind() + cause);
      assertThat(Objects.toString(waiting.get("message"))).contains(words);
    });
  }

  static void awaitRunningAgain(Kind kind, String name) {
    await(kind.kind() + " " + name + " running, nothing waiting").atMost(WAIT).untilAsserted(() -> {
      assertThat(condition(kind, name, "PodsWaiting")).isEmpty();
      assertThat(condition(kind, name, "Running").get("status")).isEqualTo("True");
    });
  }

  static long events(String job, String reason) {
    return client().v1().events().inNamespace(cluster.ns()).list().getItems().stream()
        .filter(e -> job.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason()))
        .mapToInt(Event::getCount).sum();
  }

  /** The status a kubelet writes for a pod: a merge patch of its status subresource. */
  static void patchStatus(String pod, String status) {
    Kubectl.run("patch", "pod", pod, "-n", cluster.ns(), "--subresource=status", "--type=merge",
        "-p", "{\"status\": " + status + "}").assertOk();
  }

  static String containerWaiting(Kind kind, String phase, String reason, String message, String lastState) {
    return "{\"phase\": \"" + phase + "\", \"containerStatuses\": [{\"name\": \"" + kind.container()
        + "\", \"image\": \"busybox\", \"imageID\": \"\", \"ready\": false, \"restartCount\": "
        + (lastState.isEmpty() ? 0 : 3) + ", \"started\": false, \"state\": {\"waiting\": {\"reason\": \"" + reason
        + "\", \"message\": \"" + message.replace("\"", "\\\"") + "\"}}" + lastState + "}]}";
  }

  static String containerRunning(Kind kind) {
    return "{\"phase\": \"Running\", \"containerStatuses\": [{\"name\": \"" + kind.container() + "\", \"image\": "
        + "\"busybox\", \"imageID\": \"\", \"ready\": true, \"restartCount\": 3, \"started\": true, \"state\": "
        + "{\"running\": {\"startedAt\": \"2026-01-01T00:00:00Z\"}}}]}";
  }

  static String firstPod(String job) {
    return RbacJobs.pods(client(), cluster.ns(), job).stream().map(p -> p.getMetadata().getName()).sorted()
        .reduce((a, b) -> b).orElseThrow(); // the last by name: a worker of every kind
  }

  @Test
  void podsThatAskForMoreThanAnyNodeHasAreUnschedulableUntilANodeComes() {
    KINDS.forEach(kind -> Kubectl.runWithInput(gpuJob(kind, "gpu-" + kind.plural(), "{}"), "apply", "-n",
        cluster.ns(), "-f", "-").assertOk());
    for (Kind kind : KINDS) {
      awaitWaiting(kind, "gpu-" + kind.plural(), "Unschedulable", kind.replicas().containsKey("Worker")
          ? "2 of 2 Workers: Unschedulable: 0/" : "Master 0: Unschedulable: 0/", "Insufficient nvidia.com/gpu");
      assertThat(condition(kind, "gpu-" + kind.plural(), "Running").get("status")).isNotEqualTo("True");
      assertThat(condition(kind, "gpu-" + kind.plural(), "Failed")).as("no failure by default").isEmpty();
    }
    assertThat(Kubectl.run("get", "pytorchjobs", "-n", cluster.ns(), "gpu-pytorchjobs").stdout())
        .as("kubectl get shows it in STATE").contains("PodsWaiting");
    await("one event per cause").atMost(WAIT).untilAsserted(() ->
        assertThat(events("gpu-pytorchjobs", "PyTorchJobUnschedulable")).isEqualTo(1));

    // nodes may come: one with GPUs, and the pods run
    Kubectl.runWithInput("""
        apiVersion: v1
        kind: Node
        metadata:
          name: %s
          annotations: {kwok.x-k8s.io/node: fake, node.alpha.kubernetes.io/ttl: "0"}
          labels: {kubernetes.io/hostname: %s, kubernetes.io/os: linux, kubernetes.io/arch: amd64, type: kwok}
        status:
          allocatable: {cpu: "32", memory: 256Gi, pods: "110", nvidia.com/gpu: "16"}
          capacity: {cpu: "32", memory: 256Gi, pods: "110", nvidia.com/gpu: "16"}
        """.formatted(GPU_NODE, GPU_NODE), "apply", "-f", "-").assertOk();
    KINDS.forEach(kind -> awaitRunningAgain(kind, "gpu-" + kind.plural()));
  }

  @Test
  void waitingReasonsOfTheKubeletAreShownInItsWordsAndGoWhenThePodsRun() {
    KINDS.forEach(kind -> Kubectl.runWithInput(kind.running("pull-" + kind.plural()), "apply", "-n", cluster.ns(),
        "-f", "-").assertOk());
    KINDS.forEach(kind -> awaitRunningAgain(kind, "pull-" + kind.plural()));
    for (Kind kind : KINDS) {
      String job = "pull-" + kind.plural();
      String pod = firstPod(job);
      patchStatus(pod, containerWaiting(kind, "Pending", "ErrImagePull", "rpc error: code = NotFound desc = "
          + "failed to pull and unpack image \"docker.io/library/nope:1\"", ""));
      awaitWaiting(kind, job, "ErrImagePull", ": ErrImagePull: rpc error: code = NotFound");
      patchStatus(pod, containerWaiting(kind, "Pending", "ImagePullBackOff", "Back-off pulling image \"nope:1\"",
          ""));
      awaitWaiting(kind, job, "ImagePullBackOff", ": ImagePullBackOff: Back-off pulling image \"nope:1\"");
      assertThat(condition(kind, job, "Running").get("status")).isEqualTo("False");
      patchStatus(pod, containerWaiting(kind, "Pending", "CreateContainerConfigError", "secret \"creds\" not found",
          ""));
      awaitWaiting(kind, job, "CreateContainerConfigError", ": CreateContainerConfigError: secret \"creds\" not found");
      patchStatus(pod, containerRunning(kind));
      awaitRunningAgain(kind, job);

      patchStatus(pod, containerWaiting(kind, "Running", "CrashLoopBackOff", "back-off 40s restarting failed "
          + "container=" + kind.container() + " pod=" + pod, ", \"lastState\": {\"terminated\": {\"exitCode\": 1, "
          + "\"reason\": \"Error\", \"startedAt\": \"2026-01-01T00:00:00Z\", \"finishedAt\": "
          + "\"2026-01-01T00:00:01Z\"}}"));
      awaitWaiting(kind, job, "CrashLoopBackOff", ": CrashLoopBackOff: back-off 40s", "last exit code 1 (Error)");
      assertThat(condition(kind, job, "Running").get("status")).as("a crash loop is not running").isEqualTo("False");
      patchStatus(pod, containerRunning(kind));
      awaitRunningAgain(kind, job);
    }
    await("one event per cause").atMost(WAIT).untilAsserted(() -> {
      assertThat(events("pull-pytorchjobs", "PyTorchJobErrImagePull")).isEqualTo(1);
      assertThat(events("pull-pytorchjobs", "PyTorchJobCreateContainerConfigError")).isEqualTo(1);
    });
  }

  @Test
  void theOptInLimitFailsTheJobNamingTheCauseAndStopsItsPods() {
    Kubectl.runWithInput(gpuJob(PYTORCH, "impatient", "{podsWaitingTimeoutSeconds: 5}")
        .replace("nvidia.com/gpu: 1", "nvidia.com/gpu: 64"), "apply", "-n", cluster.ns(), "-f", "-").assertOk();
    await("impatient failed").atMost(WAIT).untilAsserted(() -> {
      Map<String, Object> failed = condition(PYTORCH, "impatient", "Failed");
      assertThat(failed.get("status")).isEqualTo("True");
      assertThat(failed.get("reason")).isEqualTo("PyTorchJobUnschedulable");
      assertThat(Objects.toString(failed.get("message"))).startsWith("PyTorchJob impatient has failed because ")
          .contains("waited more than 5 s to start (spec.runPolicy.podsWaitingTimeoutSeconds): Unschedulable: 0/")
          .contains("nvidia.com/gpu");
    });
    await("impatient's pods deleted").atMost(WAIT).untilAsserted(() ->
        assertThat(RbacJobs.pods(client(), cluster.ns(), "impatient")).isEmpty());
  }
}
