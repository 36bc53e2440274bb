package dev.stint.core.kueue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kueue's ResourceFlavors, watched while the operator runs in native mode: an admitted job's pods take their
 * {@code nodeLabels} and {@code tolerations}. One informer for every kind; flavors are few and cluster-scoped.
 */
public final class FlavorCache implements AutoCloseable {
  private final KubernetesClient client;
  private SharedIndexInformer<GenericKubernetesResource> informer;

  public FlavorCache(KubernetesClient client) {
    this.client = client;
  }

  /** Starts watching (the first list is awaited, so that admitted jobs find their flavors at once). */
  public synchronized void start() {
    if (informer == null) {
      informer = client.genericKubernetesResources(KueueApi.RESOURCE_FLAVORS).inform();
    }
  }

  /** The flavors known now, by name. */
  public Map<String, Flavor> flavors() {
    Map<String, Flavor> flavors = new TreeMap<>();
    SharedIndexInformer<GenericKubernetesResource> current = informer;
    if (current != null) {
      current.getStore().list().forEach(f -> flavors.put(f.getMetadata().getName(), Flavor.of(f)));
    }
    return flavors;
  }

  @Override
  public synchronized void close() {
    if (informer != null) {
      informer.close();
      informer = null;
    }
  }
}
