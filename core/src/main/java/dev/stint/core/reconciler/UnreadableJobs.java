package dev.stint.core.reconciler;

import dev.stint.core.kube.EventRecorder;
import dev.stint.core.model.JobEvent;
import dev.stint.kubeclient.UnreadableObjects;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jobs the client could read only in part ({@link UnreadableObjects}): the job is left as it is, its pods and services
 * too (nothing about it can be decided without its spec), and why is said once for each reason, as a Warning event
 * {@code <Kind>Unreadable} and a log line naming the field. Every other job of the kind is served. A fix
 * ({@code kubectl edit}) makes the job readable, and its next pass is an ordinary one.
 */
final class UnreadableJobs {
  private static final Logger LOG = LoggerFactory.getLogger(UnreadableJobs.class);

  private final String kind;
  private final EventRecorder events;
  /** The reason last told, by the job's uid. */
  private final Map<String, String> told = new ConcurrentHashMap<>();

  UnreadableJobs(String kind, EventRecorder events) {
    this.kind = kind;
    this.events = events;
  }

  /** Whether the job was read only in part, and so is to be left alone; said when its reason is new. */
  boolean leaveAlone(HasMetadata job) {
    Optional<String> reason = UnreadableObjects.reasonOf(job);
    String uid = job.getMetadata().getUid();
    if (reason.isEmpty()) {
      if (uid != null && told.remove(uid) != null) {
        LOG.info("{} can be read again", kind);
      }
      return false;
    }
    if (uid != null && !Objects.equals(told.put(uid, reason.get()), reason.get())) {
      String message = kind + " cannot be read by this operator: " + reason.get() + ". It and its pods are left as "
          + "they are until it is fixed (kubectl edit) or deleted; the other " + kind + "s are served.";
      LOG.warn(message); // the job's namespace and name are in the log's context
      events.record(job, JobEvent.warning(kind + "Unreadable", message));
    }
    return true;
  }

  void forget(String uid) {
    told.remove(uid);
  }

  int size() {
    return told.size();
  }
}
