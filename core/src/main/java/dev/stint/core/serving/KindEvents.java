package dev.stint.core.serving;

import dev.stint.core.kube.EventRecorder;
import dev.stint.core.model.JobEvent;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;

/**
 * A kind going down or coming back, as an event on the operator's own Pod ({@code kubectl describe pod} and
 * {@code kubectl get events} show it beside the Pod's other events): a kind is down for one replica, and each replica
 * says so for itself. Without a Pod (a process run outside a cluster) there is nothing to attach it to, and the log
 * line alone says it.
 */
public final class KindEvents implements ServedKind.Notice {
  static final String NOT_SERVED = "KindNotServed";
  static final String SERVED = "KindServed";
  private final EventRecorder events;
  private final Pod pod;

  /** @param pod the operator's Pod (name and namespace: the API server needs no uid), or null: no events */
  public KindEvents(EventRecorder events, Pod pod) {
    this.events = events;
    this.pod = pod;
  }

  /** The Pod {@code namespace/name}, or null when either is unknown. */
  public static Pod operatorPod(String namespace, String name) {
    if (namespace == null || name == null || namespace.isBlank() || name.isBlank()) {
      return null;
    }
    return new PodBuilder().withNewMetadata().withNamespace(namespace).withName(name).endMetadata().build();
  }

  @Override
  public void down(String kind, String reason) {
    if (pod != null) {
      events.aboutOperator(pod, new JobEvent(JobEvent.Type.Warning, NOT_SERVED,
          kind + " is not served: " + reason + "; the other kinds are"));
    }
  }

  @Override
  public void back(String kind) {
    if (pod != null) {
      events.aboutOperator(pod, new JobEvent(JobEvent.Type.Normal, SERVED, kind + " is served again"));
    }
  }
}
