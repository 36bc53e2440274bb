package dev.stint.testdoubles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class SimulatedKubeletTest {
  private static final Duration START_DELAY = Duration.ofSeconds(1);

  KubernetesClient client;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

  @Test
  void aPodStartsAfterTheDelayThenSucceedsWithExitCodeZero() {
    create("ok", "Never", Map.of(SimulatedKubelet.RUN_SECONDS, "2"));
    SimulatedKubelet kubelet = new SimulatedKubelet(client, clock, START_DELAY, Duration.ofMillis(100));

    kubelet.syncOnce();
    assertThat(pod("ok").getStatus()).isNull();

    clock.advance(START_DELAY);
    kubelet.syncOnce();
    Pod running = pod("ok");
    assertThat(running.getStatus().getPhase()).isEqualTo("Running");
    assertThat(running.getStatus().getContainerStatuses()).singleElement().satisfies(c -> {
      assertThat(c.getName()).isEqualTo("main");
      assertThat(c.getReady()).isTrue();
      assertThat(c.getState().getRunning().getStartedAt()).isEqualTo("2026-01-01T00:00:01Z");
    });

    clock.advance(Duration.ofMillis(1999));
    assertThat(kubelet.syncOnce()).isZero();
    clock.advance(Duration.ofMillis(1));
    kubelet.syncOnce();
    Pod done = pod("ok");
    assertThat(done.getStatus().getPhase()).isEqualTo("Succeeded");
    assertThat(terminated(done).getState().getTerminated().getExitCode()).isZero();
    assertThat(terminated(done).getState().getTerminated().getReason()).isEqualTo("Completed");
    assertThat(terminated(done).getReady()).isFalse();
  }

  @Test
  void aPodFailsWithTheExitCodeOfItsAnnotation() {
    create("bad", "Never", Map.of(SimulatedKubelet.RUN_SECONDS, "0.5", SimulatedKubelet.EXIT_CODE, "3"));
    startedThenSyncedAfter(Duration.ofMillis(500));

    Pod done = pod("bad");
    assertThat(done.getStatus().getPhase()).isEqualTo("Failed");
    assertThat(terminated(done).getState().getTerminated().getExitCode()).isEqualTo(3);
    assertThat(terminated(done).getState().getTerminated().getReason()).isEqualTo("Error");
  }

  @Test
  void withExitCodeIndexesOnlyThoseReplicasExitWithTheCode() {
    Map<String, String> fate = Map.of(SimulatedKubelet.RUN_SECONDS, "0.5", SimulatedKubelet.EXIT_CODE, "1",
        SimulatedKubelet.EXIT_CODE_INDEXES, "1, 3");
    for (int index = 0; index < 4; index++) {
      create("worker-" + index, "Never", fate, Map.of("training.kubeflow.org/replica-index", Integer.toString(index)));
    }
    startedThenSyncedAfter(Duration.ofMillis(500));

    assertThat(phase("worker-0")).isEqualTo("Succeeded");
    assertThat(phase("worker-1")).isEqualTo("Failed");
    assertThat(phase("worker-2")).isEqualTo("Succeeded");
    assertThat(phase("worker-3")).isEqualTo("Failed");
    assertThat(terminated(pod("worker-1")).getState().getTerminated().getExitCode()).isEqualTo(1);
    assertThat(terminated(pod("worker-2")).getState().getTerminated().getExitCode()).isZero();
  }

  @Test
  void exitCodeIndexesThatAreNotIndexesLeaveThePodRunning() {
    create("odd-indexes", "Never", Map.of(SimulatedKubelet.RUN_SECONDS, "0.5", SimulatedKubelet.EXIT_CODE, "1",
        SimulatedKubelet.EXIT_CODE_INDEXES, "one"), Map.of("training.kubeflow.org/replica-index", "1"));
    startedThenSyncedAfter(Duration.ofMinutes(1));

    assertThat(phase("odd-indexes")).isEqualTo("Running");
  }

  @Test
  void underOnFailureAFailedContainerRestartsInPlace() {
    create("retry", "OnFailure", Map.of(SimulatedKubelet.RUN_SECONDS, "1", SimulatedKubelet.EXIT_CODE, "3"));
    SimulatedKubelet kubelet = startedThenSyncedAfter(Duration.ofSeconds(1));

    Pod restarted = pod("retry");
    assertThat(restarted.getStatus().getPhase()).isEqualTo("Running");
    ContainerStatus container = restarted.getStatus().getContainerStatuses().get(0);
    assertThat(container.getRestartCount()).isEqualTo(1);
    assertThat(container.getLastState().getTerminated().getExitCode()).isEqualTo(3);
    assertThat(container.getState().getRunning()).isNotNull();

    clock.advance(Duration.ofSeconds(1));
    kubelet.syncOnce();
    assertThat(pod("retry").getStatus().getContainerStatuses().get(0).getRestartCount()).isEqualTo(2);
  }

  @Test
  void withoutRunSecondsAPodRunsUntilDeleted() {
    create("forever", "Never", Map.of());
    SimulatedKubelet kubelet = new SimulatedKubelet(client, clock, Duration.ZERO, Duration.ofMillis(100));

    kubelet.syncOnce();
    clock.advance(Duration.ofDays(1));
    assertThat(kubelet.syncOnce()).isZero();

    assertThat(pod("forever").getStatus().getPhase()).isEqualTo("Running");
  }

  @Test
  void anInvalidAnnotationLeavesThePodRunning() {
    create("odd", "Never", Map.of(SimulatedKubelet.RUN_SECONDS, "soon"));
    startedThenSyncedAfter(Duration.ofMinutes(1));

    assertThat(pod("odd").getStatus().getPhase()).isEqualTo("Running");
  }

  @Test
  void startedInTheBackgroundItMovesPodsOnItsOwn() {
    create("background", "Never", Map.of(SimulatedKubelet.RUN_SECONDS, "0.3"));

    try (SimulatedKubelet kubelet = new SimulatedKubelet(client, Clock.systemUTC(), Duration.ofMillis(200),
        Duration.ofMillis(50))) {
      kubelet.start();
      await().atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(phase("background")).isEqualTo("Succeeded"));
    }
  }

  /** A kubelet with no start delay that has started the pods it found, then synced again {@code later}. */
  private SimulatedKubelet startedThenSyncedAfter(Duration later) {
    SimulatedKubelet kubelet = new SimulatedKubelet(client, clock, Duration.ZERO, Duration.ofMillis(100));
    kubelet.syncOnce();
    clock.advance(later);
    kubelet.syncOnce();
    return kubelet;
  }

  private void create(String name, String restartPolicy, Map<String, String> annotations) {
    create(name, restartPolicy, annotations, Map.of());
  }

  private void create(String name, String restartPolicy, Map<String, String> annotations,
                      Map<String, String> labels) {
    client.pods().inNamespace("default").resource(new PodBuilder()
        .withNewMetadata().withName(name).withAnnotations(new LinkedHashMap<>(annotations))
          .withLabels(new LinkedHashMap<>(labels)).endMetadata()
        .withNewSpec().withRestartPolicy(restartPolicy)
          .addNewContainer().withName("main").withImage("busybox").endContainer()
        .endSpec()
        .build()).create();
  }

  private Pod pod(String name) {
    return client.pods().inNamespace("default").withName(name).get();
  }

  private String phase(String name) {
    Pod pod = pod(name);
    return pod.getStatus() == null ? null : pod.getStatus().getPhase();
  }

  private static ContainerStatus terminated(Pod pod) {
    return pod.getStatus().getContainerStatuses().get(0);
  }
}
