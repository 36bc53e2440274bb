package dev.stint.core.kueue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Kueue objects Stint reads while it runs in native mode, each watched by one informer for every kind: the
 * ResourceFlavors (an admitted job's pods take their {@code nodeLabels} and {@code tolerations}), and the LocalQueues
 * named {@code default} ({@link QueueDefaults}), only those, by a field selector, the WorkloadPriorityClasses
 * (the one named {@code default}, and whether the class a job's label names exists) and the pods' PriorityClasses
 * (whether the one a job's pods ask for exists).
 */
public final class KueueObjects implements AutoCloseable {
  private final KubernetesClient client;
  private final KueueOwners owners;
  private SharedIndexInformer<GenericKubernetesResource> flavors;
  private SharedIndexInformer<GenericKubernetesResource> defaultQueues;
  private SharedIndexInformer<GenericKubernetesResource> priorityClasses;
  private SharedIndexInformer<PriorityClass> podPriorityClasses;

  /** @param owners the controller owners that Kueue manages, whose jobs are not defaulted into a queue */
  public KueueObjects(KubernetesClient client, KueueOwners owners) {
    this.client = client;
    this.owners = owners;
  }

  /** Starts watching (the first lists are awaited, so that a job's first pass finds them at once). */
  public synchronized void start() {
    if (flavors == null) {
      flavors = client.genericKubernetesResources(KueueApi.RESOURCE_FLAVORS).inform();
      defaultQueues = client.genericKubernetesResources(KueueApi.LOCAL_QUEUES).inAnyNamespace()
          .withField("metadata.name", QueueDefaults.DEFAULT_NAME).inform();
      // every class (a cluster holds a handful): a job whose label names one that does not exist waits for it
      priorityClasses = client.genericKubernetesResources(KueueApi.WORKLOAD_PRIORITY_CLASSES).inform();
      podPriorityClasses = client.scheduling().v1().priorityClasses().inform();
    }
  }

  /** The client the objects are watched with, for the writes that follow from them ({@link QueueDefaulting}). */
  KubernetesClient client() {
    return client;
  }

  KueueOwners owners() {
    return owners;
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
    SharedIndexInformer<GenericKubernetesResource> current = priorityClasses;
    return current != null && current.getStore().getByKey(QueueDefaults.DEFAULT_NAME) != null;
  }

  /** Whether a WorkloadPriorityClass of that name exists (true before the watch started: nothing is known). */
  private boolean workloadPriorityClassExists(String name) {
    SharedIndexInformer<GenericKubernetesResource> current = priorityClasses;
    return current == null || current.getStore().getByKey(name) != null;
  }

  /** Whether the class exists, a WorkloadPriorityClass or a pod PriorityClass (true before the watch started). */
  boolean priorityClassExists(WorkloadFor.PriorityRef ref) {
    if (ref.workloadClass()) {
      return workloadPriorityClassExists(ref.name());
    }
    SharedIndexInformer<PriorityClass> current = podPriorityClasses;
    return current == null || current.getStore().getByKey(ref.name()) != null;
  }

  @Override
  public synchronized void close() {
    for (SharedIndexInformer<?> informer : new SharedIndexInformer<?>[] {flavors, defaultQueues, priorityClasses,
        podPriorityClasses}) {
      if (informer != null) {
        informer.close();
      }
    }
    flavors = null;
    defaultQueues = null;
    priorityClasses = null;
    podPriorityClasses = null;
  }
}
