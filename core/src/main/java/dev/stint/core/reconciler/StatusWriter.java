package dev.stint.core.reconciler;

import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes job status through the {@code /status} subresource and keeps reads after it consistent.
 *
 * <p>The informer cache lags behind our own writes; a reconcile that runs in between would decide on the status before
 * the write (emitting events twice, losing counters). So the job as written, with the resource version the API server
 * gave it, goes into JOSDK's cache of recent updates ({@code ControllerEventSource#handleRecentResourceUpdate}, what
 * its {@code PrimaryUpdateAndCacheUtils} do after their write), which JOSDK serves to the next reconcile until the
 * watch shows that version or a later one. The operator has JOSDK compare resource versions as numbers, as
 * etcd-backed API servers issue them. The write itself is not the utility's: that one locks on the resource version
 * (a user's concurrent {@code kubectl patch} would cost a retry and a GET), serializes the object (so it cannot state
 * the zero counts that take a field back, see {@link #withExplicitZeros}) and parses the whole job from the answer.
 *
 * <p>Production uses server-side apply (lists are replaced whole, fields we stop writing, such as a count that dropped
 * to zero, are removed). The fabric8 mock server has no server-side apply, so there the status is replaced whole by a
 * PUT without resource version, which the mock accepts unconditionally.
 */
final class StatusWriter {
  private final KubernetesClient client;
  private final boolean serverSideApply;
  private final StatusApply apply;
  /** The last status written per job, to tell our own writes from another client's in the job's watch events. */
  private final Map<String, JobStatus> lastWritten = new ConcurrentHashMap<>();

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

  /**
   * Writes the status of a job and hands the job as written to JOSDK's cache of recent updates, so that the next
   * reconcile decides on it even before the watch delivers it.
   */
  <J extends TrainingJob<?>> void write(J job, JobStatus status, Class<J> type, Context<J> context) {
    J patch = newInstance(type);
    ObjectMeta meta = new ObjectMeta();
    meta.setName(job.getMetadata().getName());
    meta.setNamespace(job.getMetadata().getNamespace());
    patch.setMetadata(meta);
    setStatus(patch, status);
    String version = serverSideApply
        ? apply.apply(type, meta.getNamespace(), meta.getName(), withExplicitZeros(patch))
        : client.resource(patch).updateStatus().getMetadata().getResourceVersion();
    JobStatus copy = status.copy();
    lastWritten.put(job.getMetadata().getUid(), copy);
    if (version != null) {
      J written = withStatus(job, copy);
      written.setMetadata(new ObjectMetaBuilder(job.getMetadata()).withResourceVersion(version).build());
      context.eventSourceRetriever().getControllerEventSource()
          .handleRecentResourceUpdate(ResourceID.fromResource(job), written, job);
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

  /** Whether this status is the last one written for the job, as opposed to one another client wrote since. */
  boolean isOwn(String uid, JobStatus status) {
    return status != null && status.equals(lastWritten.get(uid));
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
