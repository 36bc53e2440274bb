package dev.stint.core.reconciler;

import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes job status through the {@code /status} subresource and keeps reads after it consistent.
 *
 * <p>The informer cache lags behind our own writes, by seconds when the API server is busy; a reconcile that runs in
 * between would decide on the status before the write: it would emit the same transition's event again, write the
 * status again, and could lose counters. So the writer remembers, per job, the last status it wrote and the resource
 * version the API server gave that write, and {@link #current} hands the reconcile that status whenever the cached job
 * is older than it. JOSDK's cache of recent updates ({@code handleRecentResourceUpdate}) is not used for this: on the
 * primary resource it ignores resource versions ({@code ControllerEventSource} builds it with version parsing off,
 * whatever the configuration says), so the late watch event of any earlier write drops the newer entry, and a busy
 * N = 500 completion decided {@code Succeeded} up to four times per job, each time writing it again
 * (docs/benchmarks.md). Resource versions are compared as numbers, as etcd issues them (the operator already has
 * JOSDK do so for its other caches); one that is not a number leaves the cached job as it is.
 *
 * <p>The write itself is not JOSDK's {@code PrimaryUpdateAndCacheUtils}: that one locks on the resource version (a
 * user's concurrent {@code kubectl patch} would cost a retry and a GET), serializes the object (so it cannot state the
 * zero counts that take a field back, see {@link #withExplicitZeros}) and parses the whole job from the answer.
 *
 * <p>Production uses server-side apply (lists are replaced whole, fields we stop writing, such as a count that dropped
 * to zero, are removed). The fabric8 mock server has no server-side apply, so there the status is replaced whole by a
 * PUT without resource version, which the mock accepts unconditionally.
 */
final class StatusWriter {
  private final KubernetesClient client;
  private final boolean serverSideApply;
  private final StatusApply apply;
  /**
   * The last status written per job and the resource version of that write: what a reconcile decides on while the
   * cache is older, and what tells our own writes from another client's in the job's watch events.
   */
  private final Map<String, Written> lastWritten = new ConcurrentHashMap<>();

  /** A status as written, and the resource version the API server gave the job with it (null when unknown). */
  record Written(String resourceVersion, JobStatus status) { }

  StatusWriter(KubernetesClient client, boolean serverSideApply, String fieldManager) {
    this.client = client;
    this.serverSideApply = serverSideApply;
    this.apply = new StatusApply(client, fieldManager);
  }

  /**
   * The job with another status: a new object sharing the job's metadata and spec, which nothing in a reconcile
   * changes (a deep copy, through JSON, was the reconciler's costliest step after deserialization).
   */
  @SuppressWarnings("unchecked")
  static <J extends TrainingJob<?>> J withStatus(J job, JobStatus status) {
    J copy = newInstance((Class<J>) job.getClass());
    copy.setMetadata(job.getMetadata());
    ((CustomResource<Object, JobStatus>) copy).setSpec(job.getSpec());
    setStatus(copy, status);
    return copy;
  }

  /** Writes the status of a job; until the cache shows this write, {@link #current} hands it to the reconciles. */
  <J extends TrainingJob<?>> void write(J job, JobStatus status, Class<J> type) {
    J patch = newInstance(type);
    ObjectMeta meta = new ObjectMeta();
    meta.setName(job.getMetadata().getName());
    meta.setNamespace(job.getMetadata().getNamespace());
    patch.setMetadata(meta);
    setStatus(patch, status);
    String version = serverSideApply
        ? apply.apply(type, meta.getNamespace(), meta.getName(), withExplicitZeros(patch))
        : client.resource(patch).updateStatus().getMetadata().getResourceVersion();
    lastWritten.put(job.getMetadata().getUid(), new Written(version, status.copy()));
  }

  /**
   * The job to decide on: the cached one, with the status last written instead of its own when the cache has not yet
   * seen that write. Metadata and spec stay the cache's: they are what users change, and no status write changes
   * them.
   */
  <J extends TrainingJob<?>> J current(J cached) {
    Written written = lastWritten.get(cached.getMetadata().getUid());
    if (written == null || !olderThan(cached.getMetadata().getResourceVersion(), written.resourceVersion())) {
      return cached;
    }
    try {
      return withStatus(cached, written.status());
    } catch (RuntimeException | LinkageError e) {
      return cached; // a plugin's job class that cannot be copied: decided as cached, as before this check
    }
  }

  /** Whether resource version {@code version} is older than {@code than}; false when either is not a number. */
  static boolean olderThan(String version, String than) {
    if (version == null || than == null) {
      return false;
    }
    try {
      return Long.parseLong(version) < Long.parseLong(than);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** The replica counts a status leaves out when they are zero, as upstream's {@code omitempty} does. */
  private static final List<String> COUNTS = List.of("active", "succeeded", "failed", "terminating", "restarts");

  /**
   * The apply body with every replica count present, zeros included. Server-side apply removes a field the operator
   * stops sending only when the operator owns it; a count another client wrote (a clobbered {@code active: 2}) would
   * stay when the operator's zero is left out, so the apply states the zero and, forced, takes the field back.
   */
  @SuppressWarnings("unchecked")
  private String withExplicitZeros(TrainingJob<?> patch) {
    var serialization = client.getKubernetesSerialization();
    Map<String, Object> body = serialization.convertValue(patch, Map.class);
    Object status = body.get("status");
    Object replicas = status instanceof Map<?, ?> st ? st.get("replicaStatuses") : null;
    if (replicas instanceof Map<?, ?> byType) {
      byType.values().forEach(r -> {
        if (r instanceof Map<?, ?> counts) {
          COUNTS.forEach(c -> ((Map<String, Object>) counts).putIfAbsent(c, 0));
        }
      });
    }
    return serialization.asJson(body);
  }

  /**
   * Whether a job as its watch shows it carries our own status: the last one written, or one from before that write
   * (the late event of an earlier write, or of another client's write that ours has since replaced), as opposed to
   * one another client wrote since.
   */
  boolean isOwn(String uid, String resourceVersion, JobStatus status) {
    Written written = lastWritten.get(uid);
    return written != null && status != null
        && (status.equals(written.status()) || olderThan(resourceVersion, written.resourceVersion()));
  }

  /** Drops what was written for a job that is gone. */
  void forget(String uid) {
    lastWritten.remove(uid);
  }

  int remembered() {
    return lastWritten.size();
  }

  @SuppressWarnings("unchecked")
  private static void setStatus(TrainingJob<?> job, JobStatus status) {
    ((CustomResource<?, JobStatus>) job).setStatus(status);
  }

  private static <J> J newInstance(Class<J> type) {
    try {
      return type.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(type + " needs a public no-argument constructor", e);
    }
  }
}
