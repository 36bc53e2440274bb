package dev.stint.core.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

class SlimItemStoreTest {
  @Test
  void keepsObjectsByNamespaceAndNameWithoutTheirManagedFields() {
    Pod pod = new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").withResourceVersion("7")
        .addToLabels("a", "b")
        .withManagedFields(new ManagedFieldsEntryBuilder().withManager("kube-scheduler").build())
        .endMetadata().build();
    SlimItemStore<Pod> store = new SlimItemStore<>();
    store.put(store.getKey(pod), pod);
    Pod cached = store.get("ns/p");
    assertThat(cached.getMetadata().getManagedFields()).isNullOrEmpty();
    assertThat(cached.getMetadata().getLabels()).containsEntry("a", "b");
    assertThat(cached.getMetadata().getResourceVersion()).isEqualTo("7");
  }
}
