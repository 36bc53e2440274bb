package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Every creation and deletion of a pod of a guarded job, as a watch delivers them: a job is guarded from before an
 * operator switch until the test acts on it ({@link UpgradeIT}, through {@link UpgradeFleet}).
 */
final class PodGuard implements AutoCloseable {
  private static final String JOB_LABEL = "training.kubeflow.org/job-name";
  private final Set<String> guarded = ConcurrentHashMap.newKeySet();
  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  /** The pods as the events handled so far tell them: uid to pod. */
  private final Map<String, Pod> current = new ConcurrentHashMap<>();
  private final List<String> violations = java.util.Collections.synchronizedList(new ArrayList<>());
  private final SharedIndexInformer<Pod> informer;
  private final KubernetesClient client;
  private final String ns;
  /** How long the watch may take to catch up with the API server's list. */
  private final Duration wait;

  PodGuard(KubernetesClient client, String ns, Duration wait) {
    this.client = client;
    this.ns = ns;
    this.wait = wait;
    informer = client.pods().inNamespace(ns).inform(new ResourceEventHandler<>() {
      @Override
      public void onAdd(Pod pod) {
        current.put(pod.getMetadata().getUid(), pod);
        if (seen.add(pod.getMetadata().getUid())) {
          check(pod, "created");
        }
      }

      @Override
      public void onUpdate(Pod old, Pod pod) {
        current.put(pod.getMetadata().getUid(), pod);
        if (old.getMetadata().getDeletionTimestamp() == null && pod.getMetadata().getDeletionTimestamp() != null) {
          check(pod, "deleted");
        }
      }

      @Override
      public void onDelete(Pod pod, boolean unknownFinalState) {
        current.remove(pod.getMetadata().getUid());
        check(pod, "removed");
      }
    }, 0);
  }

  private void check(Pod pod, String what) {
    String job = pod.getMetadata().getLabels() == null ? null : pod.getMetadata().getLabels().get(JOB_LABEL);
    if (job != null && guarded.contains(job)) {
      violations.add("pod " + pod.getMetadata().getName() + " (uid " + pod.getMetadata().getUid() + ") of " + job
          + " " + what + " at " + java.time.Instant.now() + " with no action on the job");
    }
  }

  /**
   * Guards every one of {@code jobs} (by name), once the events handled so far tell the pods as the API server lists
   * them now (uid and whether being deleted): an event of what the test did before, still on its way, is not taken
   * for the switch's.
   */
  void guardAll(Collection<String> jobs) {
    await("the pod watch caught up").atMost(wait).untilAsserted(() -> assertThat(view(current.values()))
        .isEqualTo(view(client.pods().inNamespace(ns).list().getItems())));
    guarded.addAll(jobs);
  }

  private static Map<String, Boolean> view(Collection<Pod> pods) {
    return pods.stream().collect(Collectors.toMap(p -> p.getMetadata().getUid(),
        p -> p.getMetadata().getDeletionTimestamp() != null, (a, b) -> a, TreeMap::new));
  }

  /** The test acts on the job: its pods may come and go from now on. */
  void release(String job) {
    guarded.remove(job);
  }

  List<String> violations() {
    return List.copyOf(violations);
  }

  @Override
  public void close() {
    informer.close();
  }
}
