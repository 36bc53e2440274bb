package dev.stint.core.kueue;

import dev.stint.core.kube.EventRecorder;
import dev.stint.core.model.JobEvent;
import dev.stint.spi.TrainingJob;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a job's user, as a Warning event and a log line, what {@link QueueMembership} noticed: once per distinct
 * notice, again only after the job was clear of it (a label put back, then changed once more).
 */
final class QueueNotices {
  private static final Logger LOG = LoggerFactory.getLogger(QueueNotices.class);
  private final String kind;
  private final EventRecorder events;
  /** The last notice told, by job uid (dropped when the job is clear of it, or gone). */
  private final Map<String, QueueMembership.Notice> told = new ConcurrentHashMap<>();

  QueueNotices(String kind, EventRecorder events) {
    this.kind = kind;
    this.events = events;
  }

  void tell(TrainingJob<?> job, QueueMembership.Notice notice) {
    String uid = job.getMetadata().getUid();
    if (notice == null) {
      told.remove(uid);
      return;
    }
    if (notice.equals(told.put(uid, notice)) || events == null) {
      return;
    }
    LOG.warn(notice.message());
    events.record(job, JobEvent.warning(kind + notice.reason(), notice.message()));
  }

  void forget(String uid) {
    told.remove(uid);
  }
}
