package dev.stint.core.reconciler;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Since when each job's carrier Jobs have counted a pod that is gone ({@link
 * dev.stint.core.decision.CarrierJobs#countingAGonePod}), as this process saw it: those past {@link #BOUND} have lost
 * track of their pod and are replaced. The bound leaves the Job controller time to see a deletion on a loaded
 * cluster (it usually does within a second); one that missed the deletion may wait out its expectations (five
 * minutes) first. A Job leaves when it has a pod again or ends; a job leaves when it is deleted. A restarted operator
 * starts the count anew, so a replacement waits at most one bound more.
 */
final class PodlessCarriers {
  private static final Logger LOG = LoggerFactory.getLogger(PodlessCarriers.class);
  static final Duration BOUND = Duration.ofSeconds(30);

  /** Per job uid: per carrier Job uid, the first pass that saw it count a gone pod. */
  private final Map<String, Map<String, Instant>> byUid = new ConcurrentHashMap<>();

  /** The names of the job's carrier Jobs that have counted a gone pod for {@link #BOUND} or longer. */
  Set<String> lostTrack(String uid, List<Job> counting, Instant now) {
    if (counting.isEmpty() && !byUid.containsKey(uid)) {
      return Set.of(); // the common case: one lookup
    }
    Set<String> lost = new HashSet<>();
    byUid.compute(uid, (k, seen) -> {
      Map<String, Instant> next = new HashMap<>();
      for (Job job : counting) {
        Instant since = seen == null ? null : seen.get(job.getMetadata().getUid());
        if (since == null) {
          since = now;
          LOG.info("The Job {} counts a pod that none of the caches shows; it is replaced if that lasts {} s",
              job.getMetadata().getName(), BOUND.toSeconds());
        } else if (!now.isBefore(since.plus(BOUND))) {
          lost.add(job.getMetadata().getName());
        }
        next.put(job.getMetadata().getUid(), since);
      }
      return next.isEmpty() ? null : next;
    });
    return lost;
  }

  /** How long until the next of the job's carrier Jobs reaches the bound, if one is counted. */
  Optional<Duration> untilNext(String uid, Instant now) {
    Map<String, Instant> seen = byUid.get(uid);
    if (seen == null) {
      return Optional.empty();
    }
    return seen.values().stream().map(since -> Duration.between(now, since.plus(BOUND)))
        .filter(d -> !d.isNegative()).min(Duration::compareTo);
  }

  void forget(String uid) {
    byUid.remove(uid);
  }

  int size() {
    return byUid.size();
  }
}
