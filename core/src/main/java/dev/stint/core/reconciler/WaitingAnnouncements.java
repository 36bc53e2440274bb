package dev.stint.core.reconciler;

import dev.stint.core.decision.ConditionType;
import dev.stint.core.decision.WaitingCause;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
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
 *
 * <p>What an earlier process announced is not in memory after a restart, an upgrade or a leader's handover; the job's
 * {@code PodsWaiting} condition is, and its message names each cause after its replicas ({@code "3 of 8 Workers:
 * ImagePullBackOff: ..."}). So on a job's first pass here, a cause that the stored condition names counts as announced:
 * a restart does not repeat a Warning for every waiting job (upgrade tests saw each such job warn again).
 */
final class WaitingAnnouncements {
  private static final Logger LOG = LoggerFactory.getLogger(WaitingAnnouncements.class);
  static final Duration FORGET_AFTER = Duration.ofMinutes(10);

  /** A cause announced for a job: {@code goneSince} is null while the job's pods still wait for it. */
  private record Announced(Instant goneSince) { }

  private final Map<String, Map<String, Announced>> byUid = new ConcurrentHashMap<>();

  /** The causes of this pass that are new for the job: to announce. */
  List<WaitingCause> fresh(String uid, List<WaitingCause> causes, Instant now) {
    return fresh(uid, causes, now, (JobStatus) null);
  }

  /**
   * As {@link #fresh(String, List, Instant)}, with the job's status as stored (null when none): the causes its true
   * {@code PodsWaiting} condition names were announced already, should this process not know the job yet.
   */
  List<WaitingCause> fresh(String uid, List<WaitingCause> causes, Instant now, JobStatus stored) {
    String shownBefore = stored == null ? null : stored.condition(ConditionType.PodsWaiting.name())
        .filter(JobCondition::isTrue).map(JobCondition::getMessage).orElse(null);
    if (causes.isEmpty() && !byUid.containsKey(uid)) {
      return List.of(); // the common case, a job none of whose pods ever waited: one lookup
    }
    List<WaitingCause> fresh = new ArrayList<>();
    byUid.compute(uid, (k, announced) -> {
      Map<String, Announced> next = announced == null ? shown(shownBefore, causes) : announced;
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

  /** The causes a stored condition's message names (each after its replicas and a colon), as announced. */
  private static Map<String, Announced> shown(String message, List<WaitingCause> causes) {
    Map<String, Announced> shown = new HashMap<>();
    if (message != null) {
      causes.stream().filter(c -> message.contains(": " + c.cause()))
          .forEach(c -> shown.put(c.cause(), new Announced(null)));
    }
    return shown;
  }

  void forget(String uid) {
    byUid.remove(uid);
  }

  int size() {
    return byUid.size();
  }
}
