package dev.stint.testdoubles;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/**
 * Moves pod phases on an API server the way a kubelet would, on the test's command. A pod is named as it is, or, for
 * a pod a batch Job runs ({@link FakeJobController}), by its Job's name: the test names the replica.
 */
public final class FakeKubelet {
  private final KubernetesClient client;
  private final String namespace;

  /** A kubelet for the pods of one namespace, writing their status through {@code client}. */
  public FakeKubelet(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  /** Running, every container started and ready. */
  public void run(String pod) {
    setStatus(pod, "Running", null, 0);
  }

  /** {@link #run} for each of these pods. */
  public void runAll(List<Pod> pods) {
    pods.forEach(p -> run(p.getMetadata().getName()));
  }

  /** Succeeded, every container terminated with exit code 0. */
  public void succeed(String pod) {
    setStatus(pod, "Succeeded", 0, 0);
  }

  /** Failed, every container terminated with {@code exitCode}. */
  public void fail(String pod, int exitCode) {
    setStatus(pod, "Failed", exitCode, 0);
  }

  /** Running, with the kubelet having restarted its containers {@code restarts} times. */
  public void restarted(String pod, int restarts) {
    setStatus(pod, "Running", null, restarts);
  }

  /** Pending and unschedulable, in the scheduler's {@code message}. */
  public void unschedulable(String pod, String message) {
    write(pod, KubeletStatuses.unschedulable(message));
  }

  /** Pending on a node, every container waiting for {@code reason} ({@code ImagePullBackOff}, ...). */
  public void waiting(String pod, String reason, String message) {
    write(pod, KubeletStatuses.waiting(containers(pod), reason, message));
  }

  /** Running, its first container in {@code CrashLoopBackOff} after exiting with {@code exitCode}. */
  public void crashLooping(String pod, int exitCode) {
    write(pod, KubeletStatuses.crashLooping(pod, containers(pod), exitCode));
  }

  /** Gives the pod this status, as the kubelet or the scheduler would ({@link KubeletStatuses}). */
  public void write(String name, io.fabric8.kubernetes.api.model.PodStatus status) {
    Pod pod = pod(name);
    pod.setStatus(status);
    client.pods().inNamespace(namespace).resource(pod).updateStatus();
  }

  private List<String> containers(String name) {
    return pod(name).getSpec().getContainers().stream()
        .map(c -> c.getName()).toList();
  }

  /** The pod of that name, else the live pod of the batch Job of that name. */
  public Pod pod(String name) {
    Pod pod = client.pods().inNamespace(namespace).withName(name).get();
    if (pod != null) {
      return pod;
    }
    return client.pods().inNamespace(namespace).list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getMetadata().getOwnerReferences() != null)
        .filter(p -> p.getMetadata().getOwnerReferences().stream()
            .anyMatch(r -> "Job".equals(r.getKind()) && name.equals(r.getName())))
        .findFirst().orElseThrow(() -> new IllegalStateException("no pod " + name + ", nor one of a Job " + name));
  }

  private void setStatus(String name, String phase, Integer exitCode, int restarts) {
    Pod pod = pod(name);
    List<ContainerStatus> statuses = pod.getSpec().getContainers().stream().map(c -> {
      var b = new ContainerStatusBuilder().withName(c.getName()).withImage(c.getImage()).withRestartCount(restarts)
          .withReady(exitCode == null);
      if (exitCode == null) {
        b.withNewState().withNewRunning().withStartedAt("2026-01-01T00:00:00Z").endRunning().endState();
      } else {
        b.withNewState().withNewTerminated().withExitCode(exitCode).endTerminated().endState();
      }
      return b.build();
    }).toList();
    pod.setStatus(new PodStatusBuilder().withPhase(phase).withContainerStatuses(statuses).build());
    client.pods().inNamespace(namespace).resource(pod).updateStatus();
  }
}
