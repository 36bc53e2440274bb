package dev.stint.core.reconciler;

import dev.stint.core.decision.WaitingCause;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which causes of waiting pods each job has announced (a Warning event and a log line), so that a job shows one per
 * distinct cause, not one per pass (and a log line when none is left): a pod's status changes often while it waits (an image pull alternates between
 * {@code ErrImagePull} and {@code ImagePullBackOff}, a crash loop's back-off grows). A cause is announced again only
 * after it has been gone for {@link #FORGET_AFTER}, the window in which the event correlator folds similar events:
 * a crash-looping container that runs for a moment between its restarts is the same cause. A job leaves it when its
 * causes are forgotten, or when it is deleted.
 */
final class WaitingAnnouncements {
  private static final Logger LOG = LoggerFactory.getLogger(WaitingAnnouncements.class);
  static final Duration FORGET_AFTER = Duration.ofMinutes(10);

  /** A cause announced for a job: {@code goneSince} is null while the job's pods still wait for it. */
  private record Announced(Instant goneSince) { }

  private final Map<String, Map<String, Announced>> byUid = new ConcurrentHashMap<>();

  /** The causes of this pass that are new for the job: to announce. */
  List<WaitingCause> fresh(String uid, List<WaitingCause> causes, Instant now) {
    if (causes.isEmpty() && !byUid.containsKey(uid)) {
      return List.of(); // the common case, a job none of whose pods ever waited: one lookup
    }
    List<WaitingCause> fresh = new ArrayList<>();
    byUid.compute(uid, (k, announced) -> {
      Map<String, Announced> next = announced == null ? new HashMap<>() : announced;
      if (causes.isEmpty() && next.values().stream().anyMatch(a -> a.goneSince() == null)) {
        LOG.info("No pod waits any more: every pod runs, or the job ended"); // the job is in the log's context
      }
      next.replaceAll((cause, a) -> a.goneSince() == null && causes.stream().noneMatch(c -> c.cause().equals(cause))
          ? new Announced(now) : a);
      next.values().removeIf(a -> a.goneSince() != null && !now.isBefore(a.goneSince().plus(FORGET_AFTER)));
      for (WaitingCause c : causes) {
        if (next.put(c.cause(), new Announced(null)) == null) {
          fresh.add(c);
        }
      }
      return next.isEmpty() ? null : next;
    });
    return fresh;
  }

  void forget(String uid) {
    byUid.remove(uid);
  }

  int size() {
    return byUid.size();
  }
}
