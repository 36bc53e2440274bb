package dev.stint.kubeclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.GraphLayout;

/**
 * What the informer caches hold per child, measured on a pod and a service as the API server sent them to the
 * operator in a benchmark run (their managed fields included): the store's work must keep every value the engine
 * reads while taking a good part of the memory away. Prints the sizes (the figures docs/benchmarks.md quotes).
 */
class CachedFootprintTest {
  private static final KubernetesSerialization JSON = ClientSerialization.create();
  /** Distinct copies measured together, so that what they share (interned strings) counts once, as in the cache. */
  private static final int COPIES = 200;

  @Test
  void compactedPodsAndServicesEqualTheSlimOnesAndTakeFarLessHeap() throws IOException {
    for (String name : List.of("pod", "service")) {
      Class<? extends HasMetadata> type = name.equals("pod") ? Pod.class : Service.class;
      long decoded = perCopy(name, type, null);
      long slim = perCopy(name, type, new SlimItemStore<>());
      long compact = perCopy(name, type, SlimItemStore.forChildren(removed -> { }));
      System.out.printf(Locale.ROOT, "cached %s: %d bytes as decoded, %d slim, %d compacted (%.0f%% of slim)%n",
          name, decoded, slim, compact, 100.0 * compact / slim);
      assertThat(slim).as(name).isLessThan(decoded);
      assertThat(compact).as(name).isLessThan(slim * 6 / 10);
    }
  }

  @Test
  void compactionChangesNoValue() throws IOException {
    SlimItemStore<Pod> slim = new SlimItemStore<>();
    SlimItemStore<Pod> compact = SlimItemStore.forChildren(removed -> { });
    Pod a = read("pod", Pod.class, 0);
    Pod b = read("pod", Pod.class, 0);
    slim.put(slim.getKey(a), a);
    compact.put(compact.getKey(b), b);

    assertThat(b).isEqualTo(a);
    assertThat(b.getStatus().getConditions()).extracting(c -> c.getType()).contains("Ready", "PodScheduled");
    assertThat(b.getMetadata().getLabels()).containsEntry("training.kubeflow.org/replica-type", "worker");
    assertThat(b.getMetadata().getOwnerReferences().get(0).getController()).isTrue();
    assertThat(b.getStatus().getContainerStatuses().get(0).getName()).isEqualTo("pytorch");
    // shared, not copied: the namespace of every pod is the same string
    assertThat(b.getMetadata().getNamespace()).isSameAs(read("pod", Pod.class, 1).getMetadata().getNamespace()
        .intern());
  }

  @Test
  void aCompactedChildIsReadOnly() throws IOException {
    SlimItemStore<Pod> compact = SlimItemStore.forChildren(removed -> { });
    Pod pod = read("pod", Pod.class, 0);
    compact.put(compact.getKey(pod), pod);

    assertThatThrownBy(() -> pod.getMetadata().getLabels().put("x", "y"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> pod.getStatus().getConditions().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  /** Heap bytes per cached copy of the sample {@code name}, put through {@code store} (none: as decoded). */
  private static <R extends HasMetadata> long perCopy(String name, Class<R> type, SlimItemStore<R> store)
      throws IOException {
    List<R> cached = new ArrayList<>();
    for (int i = 0; i < COPIES; i++) {
      R object = read(name, type, i);
      if (store == null) {
        cached.add(object); // as fabric8 decodes it, before any store
        continue;
      }
      store.put(store.getKey(object), object);
      cached.add(store.get(store.getKey(object)));
    }
    return GraphLayout.parseInstance(cached.toArray()).totalSize() / COPIES;
  }

  /** The sample, made the {@code i}th distinct object: its own name, uid and address, as another job's child. */
  private static <R extends HasMetadata> R read(String name, Class<R> type, int i) throws IOException {
    try (InputStream in = CachedFootprintTest.class.getResourceAsStream("/cached/" + name + ".json")) {
      String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      String job = String.format(Locale.ROOT, "job-%05d", i);
      R object = JSON.unmarshal(json.replace("job-00000", job), type);
      object.getMetadata().setUid(UUID.nameUUIDFromBytes((name + i).getBytes(StandardCharsets.UTF_8)).toString());
      object.getMetadata().setResourceVersion(Integer.toString(100_000 + i));
      object.getMetadata().getOwnerReferences().get(0)
          .setUid(UUID.nameUUIDFromBytes(job.getBytes(StandardCharsets.UTF_8)).toString());
      if (object instanceof Pod pod) {
        pod.getStatus().setPodIP("10.0." + i / 250 + "." + i % 250);
      }
      return object;
    }
  }
}
