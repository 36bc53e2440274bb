package dev.stint.core.reconciler;

import dev.stint.core.model.Action;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Pod deletions sent that the pod cache does not show yet, as the deletion expectations of Kubernetes' controllers.
 *
 * <p>Deleting a job's pods changes each of them, and each change wakes the job again; the passes that run before the
 * cache shows a pod's {@code deletionTimestamp} would delete it again. Measured while 100 jobs were suspended at once,
 * that was two deletions (and two {@code SuccessfulDeletePod} events) per pod instead of one (docs/benchmarks.md). A
 * pod whose deletion was sent is remembered with its uid and the resource version it was deleted at; while the cache
 * still shows it at that version, the deletion is in flight and is not sent again. Any other version (the deletion
 * seen, the pod changed since) ends the entry and the decision's word counts again, as does a new pod of the name.
 */
final class DeletionsInFlight {
  /** Per job uid: pod uid to the resource version at which its deletion was sent. */
  private final Map<String, Map<String, String>> byJob = new ConcurrentHashMap<>();

  /**
   * The pods as the decision must see them: one whose deletion was sent and that the cache still shows at the version
   * it was deleted at is terminating, as the cache will show it. Without this, a pass on the lagging cache saw a
   * failed pod it had already replaced as failed again and counted its restart twice (spending {@code backoffLimit}),
   * while only the repeated deletion was held back.
   */
  List<Pod> asTheDecisionSees(String jobUid, List<Pod> observed, String now) {
    Map<String, String> sent = byJob.get(jobUid);
    if (sent == null || sent.isEmpty()) {
      return observed;
    }
    List<Pod> view = new ArrayList<>(observed.size());
    for (Pod pod : observed) {
      String version = sent.get(pod.getMetadata().getUid());
      boolean inFlight = version != null && version.equals(pod.getMetadata().getResourceVersion())
          && pod.getMetadata().getDeletionTimestamp() == null;
      view.add(inFlight ? new PodBuilder(pod).editMetadata().withDeletionTimestamp(now).endMetadata().build() : pod);
    }
    return view;
  }

  /** The actions less the pod deletions already in flight; forgets the deletions the cache has caught up with. */
  List<Action> unsent(String jobUid, List<Action> actions, List<Pod> observed) {
    Map<String, String> sent = byJob.get(jobUid);
    if (sent == null) {
      return actions;
    }
    Map<String, Pod> byName = byName(observed);
    Map<String, String> stillShown = new HashMap<>();
    for (Pod pod : observed) {
      String uid = pod.getMetadata().getUid();
      String version = sent.get(uid);
      if (version != null && version.equals(pod.getMetadata().getResourceVersion())) {
        stillShown.put(uid, version);
      }
    }
    if (stillShown.isEmpty()) {
      byJob.remove(jobUid);
      return actions;
    }
    byJob.put(jobUid, stillShown);
    return actions.stream().filter(a -> !(a instanceof Action.DeletePod d && inFlight(byName.get(d.name()), stillShown)))
        .toList();
  }

  /**
   * Remembers the pod deletions among {@code applied}, which went through. Not one made only for the pod as last seen
   * (a running pod of a job that has ended): the API server refuses it when the pod changed meanwhile (it ended too,
   * and stays), and remembered, it would show a pod that stays as going, its Service deleted with it. Sent again on
   * a lagging cache, it costs one request that is refused or finds the pod gone.
   */
  void sent(String jobUid, List<Action> applied, List<Pod> observed) {
    Map<String, Pod> byName = null;
    for (Action a : applied) {
      if (a instanceof Action.DeletePod d && (d.resourceVersion() == null || d.carrierJob() != null)) {
        byName = byName == null ? byName(observed) : byName;
        Pod pod = byName.get(d.name());
        if (pod != null && pod.getMetadata().getUid() != null && pod.getMetadata().getResourceVersion() != null) {
          byJob.computeIfAbsent(jobUid, k -> new ConcurrentHashMap<>())
              .put(pod.getMetadata().getUid(), pod.getMetadata().getResourceVersion());
        }
      }
    }
  }

  void forget(String jobUid) {
    byJob.remove(jobUid);
  }

  int size() {
    return byJob.size();
  }

  private static boolean inFlight(Pod pod, Map<String, String> stillShown) {
    return pod != null && stillShown.containsKey(pod.getMetadata().getUid());
  }

  private static Map<String, Pod> byName(List<Pod> pods) {
    Map<String, Pod> byName = new HashMap<>();
    pods.forEach(p -> byName.put(p.getMetadata().getName(), p));
    return byName;
  }
}
