package dev.stint.testdoubles;

import dev.stint.spi.KubeflowLabels;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a kubelet would do next with a pod, as a pure function of the pod, how long it has been in its current state
 * and the time: start it, let its containers exit, or restart them in place as the pod's restart policy says. All
 * containers of a pod share one fate (the exit code of the {@value SimulatedKubelet#EXIT_CODE} annotation, for the
 * replica indexes of {@value SimulatedKubelet#EXIT_CODE_INDEXES} when it is set).
 */
final class PodLifecycle {

  private PodLifecycle() { }

  /**
   * The status to write, or empty when the pod stays as it is.
   *
   * @param inState how long the pod has been Pending (since first seen) or its containers have been running
   * @param startDelay how long a pod stays Pending
   */
  static Optional<PodStatus> next(Pod pod, Duration inState, Duration startDelay, Instant now) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    if (pod.getMetadata().getDeletionTimestamp() != null || "Succeeded".equals(phase) || "Failed".equals(phase)) {
      return Optional.empty();
    }
    if (!"Running".equals(phase)) {
      return inState.compareTo(startDelay) >= 0 ? Optional.of(running(pod, now, 0, null)) : Optional.empty();
    }
    Optional<Duration> runFor = runDuration(pod);
    if (runFor.isEmpty() || inState.compareTo(runFor.get()) < 0) {
      return Optional.empty();
    }
    int exitCode = exitCode(pod);
    if (restartsInPlace(pod, exitCode)) {
      return Optional.of(running(pod, now, restartCount(pod) + 1, terminated(pod, exitCode, now)));
    }
    return Optional.of(finished(pod, exitCode, now));
  }

  /**
   * The {@value SimulatedKubelet#RUN_SECONDS} annotation (decimal seconds), or empty when the containers run until
   * deleted.
   *
   * @throws IllegalArgumentException when the annotation is not a number of seconds
   */
  static Optional<Duration> runDuration(Pod pod) {
    String value = annotation(pod, SimulatedKubelet.RUN_SECONDS);
    if (value == null) {
      return Optional.empty();
    }
    try {
      double seconds = Double.parseDouble(value.trim());
      if (seconds >= 0 && !Double.isInfinite(seconds)) {
        return Optional.of(Duration.ofMillis(Math.round(seconds * 1000)));
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(SimulatedKubelet.RUN_SECONDS + " must be a number of seconds, not '"
        + value + "'");
  }

  /**
   * The {@value SimulatedKubelet#EXIT_CODE} annotation, 0 by default; also 0 for a pod whose replica index is not
   * among those of {@value SimulatedKubelet#EXIT_CODE_INDEXES}, when that annotation is set.
   *
   * @throws IllegalArgumentException when an annotation is not a whole number, or a list of them
   */
  static int exitCode(Pod pod) {
    String value = annotation(pod, SimulatedKubelet.EXIT_CODE);
    int code;
    try {
      code = value == null ? 0 : Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(SimulatedKubelet.EXIT_CODE + " must be a whole number, not '" + value
          + "'", e);
    }
    String indexes = annotation(pod, SimulatedKubelet.EXIT_CODE_INDEXES);
    String attempts = annotation(pod, SimulatedKubelet.EXIT_CODE_ATTEMPTS);
    boolean index = indexes == null || numbers(SimulatedKubelet.EXIT_CODE_INDEXES, indexes).contains(replicaIndex(pod));
    boolean attempt = attempts == null
        || numbers(SimulatedKubelet.EXIT_CODE_ATTEMPTS, attempts).contains(label(pod, KubeflowLabels.RESTART_ATTEMPT, "0"));
    return index && attempt ? code : 0;
  }

  private static String label(Pod pod, String key, String otherwise) {
    Map<String, String> labels = pod.getMetadata().getLabels();
    return labels == null ? otherwise : labels.getOrDefault(key, otherwise);
  }

  private static Set<String> numbers(String annotation, String value) {
    Set<String> indexes = new HashSet<>();
    for (String index : value.split(",")) {
      String trimmed = index.trim();
      if (!trimmed.matches("\\d{1,9}")) {
        throw new IllegalArgumentException(annotation
            + " must be whole numbers separated by commas, such as \"1,3\", not '" + value + "'");
      }
      indexes.add(Integer.toString(Integer.parseInt(trimmed)));
    }
    return indexes;
  }

  /** The pod's replica index label, as the engine sets it; null on a pod the engine did not make. */
  private static String replicaIndex(Pod pod) {
    Map<String, String> labels = pod.getMetadata().getLabels();
    return labels == null ? null : labels.get(KubeflowLabels.REPLICA_INDEX);
  }

  /** The kubelet restarts containers in place under Always, and under OnFailure after a non-zero exit. */
  private static boolean restartsInPlace(Pod pod, int exitCode) {
    String policy = pod.getSpec().getRestartPolicy() == null ? "Always" : pod.getSpec().getRestartPolicy();
    return "Always".equals(policy) || ("OnFailure".equals(policy) && exitCode != 0);
  }

  private static PodStatus running(Pod pod, Instant now, int restartCount, ContainerState lastState) {
    String time = format(now);
    ContainerState state = new ContainerStateBuilder().withNewRunning().withStartedAt(time).endRunning().build();
    List<ContainerStatus> containers = containers(pod).stream()
        .map(c -> containerStatus(pod, c, state, true, restartCount, lastState)).toList();
    return podStatus(pod, "Running", time, true, containers);
  }

  private static PodStatus finished(Pod pod, int exitCode, Instant now) {
    String time = format(now);
    ContainerState state = terminated(pod, exitCode, now);
    List<ContainerStatus> containers = containers(pod).stream()
        .map(c -> containerStatus(pod, c, state, false, restartCount(pod), lastState(pod, c.getName())))
        .toList();
    return podStatus(pod, exitCode == 0 ? "Succeeded" : "Failed", time, false, containers);
  }

  /** A scheduled, initialized pod on the one simulated node, ready or not, with these container statuses. */
  private static PodStatus podStatus(Pod pod, String phase, String time, boolean ready,
                                     List<ContainerStatus> containers) {
    return new PodStatusBuilder()
        .withPhase(phase)
        .withStartTime(startTime(pod, time))
        .withHostIP("10.0.0.1")
        .withPodIP(podIp(pod))
        .withConditions(condition("PodScheduled", true, time), condition("Initialized", true, time),
            condition("ContainersReady", ready, time), condition("Ready", ready, time))
        .withContainerStatuses(containers)
        .build();
  }

  private static ContainerState terminated(Pod pod, int exitCode, Instant now) {
    return new ContainerStateBuilder().withNewTerminated()
        .withExitCode(exitCode)
        .withReason(exitCode == 0 ? "Completed" : "Error")
        .withStartedAt(runningSince(pod))
        .withFinishedAt(format(now))
        .endTerminated().build();
  }

  private static ContainerStatus containerStatus(Pod pod, Container container, ContainerState state, boolean ready,
                                                 int restartCount, ContainerState lastState) {
    return new ContainerStatusBuilder()
        .withName(container.getName())
        .withImage(container.getImage())
        .withImageID("simulated://" + container.getImage())
        .withContainerID("simulated://" + pod.getMetadata().getName() + "/" + container.getName())
        .withReady(ready)
        .withStarted(ready)
        .withRestartCount(restartCount)
        .withState(state)
        .withLastState(lastState)
        .build();
  }

  private static PodCondition condition(String type, boolean status, String time) {
    return new PodConditionBuilder().withType(type).withStatus(status ? "True" : "False")
        .withLastTransitionTime(time).build();
  }

  private static List<Container> containers(Pod pod) {
    return pod.getSpec() == null || pod.getSpec().getContainers() == null ? List.of() : pod.getSpec().getContainers();
  }

  /** The restart count of the pod's containers (they restart together). */
  static int restartCount(Pod pod) {
    List<ContainerStatus> statuses = pod.getStatus() == null ? null : pod.getStatus().getContainerStatuses();
    return statuses == null || statuses.isEmpty() || statuses.get(0).getRestartCount() == null ? 0
        : statuses.get(0).getRestartCount();
  }

  private static ContainerState lastState(Pod pod, String container) {
    List<ContainerStatus> statuses = pod.getStatus() == null ? null : pod.getStatus().getContainerStatuses();
    return statuses == null ? null : statuses.stream().filter(s -> container.equals(s.getName())).findFirst()
        .map(ContainerStatus::getLastState).orElse(null);
  }

  private static String runningSince(Pod pod) {
    List<ContainerStatus> statuses = pod.getStatus() == null ? null : pod.getStatus().getContainerStatuses();
    if (statuses == null || statuses.isEmpty() || statuses.get(0).getState() == null
        || statuses.get(0).getState().getRunning() == null) {
      return null;
    }
    return statuses.get(0).getState().getRunning().getStartedAt();
  }

  private static String startTime(Pod pod, String now) {
    String existing = pod.getStatus() == null ? null : pod.getStatus().getStartTime();
    return existing != null ? existing : now;
  }

  /** A stable made-up address, so that tools that read podIP see one. */
  private static String podIp(Pod pod) {
    int hash = Math.floorMod(pod.getMetadata().getName().hashCode(), 250 * 250);
    return "10.244." + (hash / 250) + "." + (hash % 250 + 2);
  }

  private static String annotation(Pod pod, String key) {
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(key);
  }

  /** Kubernetes writes times in seconds. */
  private static String format(Instant instant) {
    return instant.truncatedTo(ChronoUnit.SECONDS).toString();
  }
}
