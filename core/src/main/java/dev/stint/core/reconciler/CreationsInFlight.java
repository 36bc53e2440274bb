package dev.stint.core.reconciler;

import dev.stint.core.decision.Observed;
import dev.stint.core.model.Action;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.utils.KubernetesResourceUtil;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Pods and services created that the caches do not show yet, as the creation expectations of Kubernetes' controllers
 * (and of the Kubeflow operator).
 *
 * <p>Each pod created wakes its job again, and a pass that runs before the cache shows the job's last pods decides to
 * create them again: the API server answers 409 and the engine reads the pod back to check its owner, two wasted
 * requests. Measured in a burst of 100 jobs, that was about one per job (docs/benchmarks.md). A child created is
 * remembered by kind and name until the cache shows an object of that name, and its creation is not sent again in
 * the meantime. A child that leaves the cache ends its entry too ({@link #removed}): created and deleted again before
 * a pass saw it, it is created anew at once. An entry lapses after {@link #EXPIRY}, in case the cache never shows the
 * child at all (the reconciler comes back after {@link #EXPIRY} when it held a creation back); a lapsed entry costs
 * no more than what this saves, a 409 and a read.
 */
final class CreationsInFlight {
  /** Far above the time a cache takes to show a created child on a loaded API server (a second or two). */
  static final Duration EXPIRY = Duration.ofSeconds(30);

  private final Clock clock;
  /** Per job uid: "Pod/name" or "Service/name" to the moment its creation went through. */
  private final Map<String, Map<String, Instant>> byJob = new ConcurrentHashMap<>();

  CreationsInFlight(Clock clock) {
    this.clock = clock;
  }

  /**
   * The actions less the creations in flight; forgets the creations the caches show and those that lapsed.
   */
  List<Action> unsent(String jobUid, List<Action> actions, Observed observed) {
    Map<String, Instant> sent = byJob.get(jobUid);
    if (sent == null) {
      return actions;
    }
    Set<String> shown = new HashSet<>();
    observed.pods().forEach(p -> shown.add(key("Pod", p)));
    observed.services().forEach(s -> shown.add(key("Service", s)));
    observed.carriers().forEach(j -> shown.add(key("Job", j)));
    Instant lapsed = clock.instant().minus(EXPIRY);
    // in place, not a copy: the informer's store may end an entry at the same time (removed)
    sent.entrySet().removeIf(e -> shown.contains(e.getKey()) || !e.getValue().isAfter(lapsed));
    if (sent.isEmpty()) {
      byJob.remove(jobUid, sent);
      return actions;
    }
    return actions.stream().filter(a -> {
      String child = key(a);
      return child == null || !sent.containsKey(child);
    }).toList();
  }

  /** Remembers the creations of pods and services among {@code applied}, which went through. */
  void sent(String jobUid, List<Action> applied) {
    Instant now = clock.instant();
    for (Action a : applied) {
      String child = key(a);
      if (child != null) {
        // atomic with removed(), which drops a job's map once it is empty
        byJob.compute(jobUid, (uid, sent) -> {
          Map<String, Instant> entries = sent == null ? new ConcurrentHashMap<>() : sent;
          entries.put(child, now);
          return entries;
        });
      }
    }
  }

  /**
   * A child left the cache (deleted, or gone when the informer listed again): a creation of that name in flight for
   * its job is over, whether or not a pass saw the child. Called from the informer's store, by any thread.
   */
  void removed(HasMetadata child) {
    // the library's lookup walks the list unguarded
    OwnerReference job = child.getMetadata().getOwnerReferences() == null ? null
        : KubernetesResourceUtil.getControllerUid(child);
    if (job == null) {
      return;
    }
    String key = key(HasMetadata.getKind(child.getClass()), child);
    byJob.computeIfPresent(job.getUid(), (uid, sent) -> {
      sent.remove(key);
      return sent.isEmpty() ? null : sent;
    });
  }

  void forget(String jobUid) {
    byJob.remove(jobUid);
  }

  int size() {
    return byJob.size();
  }

  private static String key(Action action) {
    if (action instanceof Action.CreatePod p) {
      return (p.carriedByJob() ? "Job/" : "Pod/") + p.name(); // a carried pod is created as its batch Job
    }
    return action instanceof Action.CreateService s ? "Service/" + s.name() : null;
  }

  private static String key(String kind, HasMetadata child) {
    return kind + "/" + child.getMetadata().getName();
  }
}
