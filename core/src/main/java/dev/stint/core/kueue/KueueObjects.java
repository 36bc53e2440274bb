package dev.stint.core.kueue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Kueue objects Stint reads while it runs in native mode, each watched by one informer for every kind: the
 * ResourceFlavors (an admitted job's pods take their {@code nodeLabels} and {@code tolerations}), and the LocalQueues
 * and the WorkloadPriorityClass named {@code default} ({@link QueueDefaults}), only those, by a field selector.
 */
public final class KueueObjects implements AutoCloseable {
  private final KubernetesClient client;
  private SharedIndexInformer<GenericKubernetesResource> flavors;
  private SharedIndexInformer<GenericKubernetesResource> defaultQueues;
  private SharedIndexInformer<GenericKubernetesResource> defaultPriorityClass;

  public KueueObjects(KubernetesClient client) {
    this.client = client;
  }

  /** Starts watching (the first lists are awaited, so that a job's first pass finds them at once). */
  public synchronized void start() {
    if (flavors == null) {
      flavors = client.genericKubernetesResources(KueueApi.RESOURCE_FLAVORS).inform();
      defaultQueues = client.genericKubernetesResources(KueueApi.LOCAL_QUEUES).inAnyNamespace()
          .withField("metadata.name", QueueDefaults.DEFAULT_NAME).inform();
      defaultPriorityClass = client.genericKubernetesResources(KueueApi.WORKLOAD_PRIORITY_CLASSES)
          .withField("metadata.name", QueueDefaults.DEFAULT_NAME).inform();
    }
  }

  /** The client the objects are watched with, for the writes that follow from them ({@link QueueDefaulting}). */
  KubernetesClient client() {
    return client;
  }

  /** The flavors known now, by name. */
  public Map<String, Flavor> flavors() {
    Map<String, Flavor> known = new TreeMap<>();
    SharedIndexInformer<GenericKubernetesResource> current = flavors;
    if (current != null) {
      current.getStore().list().forEach(f -> known.put(f.getMetadata().getName(), Flavor.of(f)));
    }
    return known;
  }

  /** Whether the namespace has a LocalQueue named {@code default}. */
  public boolean defaultQueueIn(String namespace) {
    SharedIndexInformer<GenericKubernetesResource> current = defaultQueues;
    return current != null
        && current.getStore().getByKey(namespace + "/" + QueueDefaults.DEFAULT_NAME) != null;
  }

  /** Whether the WorkloadPriorityClass named {@code default} exists. */
  public boolean defaultPriorityClass() {
    SharedIndexInformer<GenericKubernetesResource> current = defaultPriorityClass;
    return current != null && current.getStore().getByKey(QueueDefaults.DEFAULT_NAME) != null;
  }

  @Override
  public synchronized void close() {
    for (SharedIndexInformer<GenericKubernetesResource> informer : new SharedIndexInformer[] {flavors,
        defaultQueues, defaultPriorityClass}) {
      if (informer != null) {
        informer.close();
      }
    }
    flavors = null;
    defaultQueues = null;
    defaultPriorityClass = null;
  }
}
