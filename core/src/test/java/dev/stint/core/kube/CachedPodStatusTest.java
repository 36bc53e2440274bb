package dev.stint.core.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.kubeclient.SlimItemStore;
import dev.stint.testdoubles.KubeletStatuses;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the {@code PodsWaiting} condition reads of a pod survives the cache's store, which slims pods: the status
 * whole, with the scheduler's condition, the containers' and init containers' waiting reasons, messages and last
 * terminations, and the creation time.
 */
class CachedPodStatusTest {

  private static Pod cached(PodStatus status) {
    Pod pod = new PodBuilder().withNewMetadata().withName("p").withNamespace("ns")
        .withCreationTimestamp("2026-01-01T00:00:00Z").endMetadata()
        .withNewSpec().addNewInitContainer().withName("init").withImage("busybox").endInitContainer()
        .addNewContainer().withName("main").withImage("busybox").endContainer().endSpec()
        .withStatus(status).build();
    SlimItemStore<Pod> store = new SlimItemStore<>();
    store.put(store.getKey(pod), pod);
    return store.get("ns/p");
  }

  @Test
  void keepsTheStatusTheWaitingPodsAreReadFrom() {
    PodStatus unschedulable = KubeletStatuses.unschedulable(KubeletStatuses.NO_GPU);
    assertThat(cached(unschedulable).getStatus()).isEqualTo(KubeletStatuses.unschedulable(KubeletStatuses.NO_GPU));

    PodStatus waiting = KubeletStatuses.waiting(List.of("main"), "CreateContainerConfigError", "secret \"x\" not found");
    assertThat(cached(waiting).getStatus().getContainerStatuses().get(0).getState().getWaiting().getMessage())
        .isEqualTo("secret \"x\" not found");

    Pod looping = cached(KubeletStatuses.crashLooping("p", List.of("main"), 137));
    assertThat(looping.getStatus().getContainerStatuses().get(0).getLastState().getTerminated().getExitCode())
        .isEqualTo(137);

    Pod initializing = cached(KubeletStatuses.initializing("init", List.of("main"), "2026-01-01T00:00:01Z"));
    assertThat(initializing.getStatus().getInitContainerStatuses().get(0).getState().getRunning().getStartedAt())
        .isEqualTo("2026-01-01T00:00:01Z");
    assertThat(initializing.getMetadata().getCreationTimestamp()).isEqualTo("2026-01-01T00:00:00Z");
  }
}
