package dev.stint.core.kube;

import dev.stint.core.decision.JobEvent;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records core/v1 Events on a job, so that {@code kubectl describe} shows them. Losing an event is not worth failing a
 * reconcile for, so errors are logged, not thrown.
 */
public final class EventRecorder {
  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
  private final KubernetesClient client;
  private final Clock clock;
  private final String component;

  public EventRecorder(KubernetesClient client, Clock clock, String component) {
    this.client = client;
    this.clock = clock;
    this.component = component;
  }

  public void record(HasMetadata job, JobEvent event) {
    if (event.type() == JobEvent.Type.Warning) {
      LOG.warn("{}: {}", event.reason(), event.message());
    } else {
      LOG.info("{}: {}", event.reason(), event.message());
    }
    write(job, event.type().name(), event.reason(), event.message());
  }

  public void normal(HasMetadata job, String reason, String message) {
    LOG.debug("{}: {}", reason, message);
    write(job, "Normal", reason, message);
  }

  private void write(HasMetadata job, String type, String reason, String message) {
    String now = Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString();
    Event event = new EventBuilder()
        .withNewMetadata()
          .withGenerateName(job.getMetadata().getName() + ".")
          .withNamespace(job.getMetadata().getNamespace())
        .endMetadata()
        .withNewInvolvedObject()
          .withApiVersion(job.getApiVersion())
          .withKind(job.getKind())
          .withName(job.getMetadata().getName())
          .withNamespace(job.getMetadata().getNamespace())
          .withUid(job.getMetadata().getUid())
        .endInvolvedObject()
        .withType(type)
        .withReason(reason)
        .withMessage(message)
        .withFirstTimestamp(now)
        .withLastTimestamp(now)
        .withCount(1)
        .withNewSource(component, null)
        .withReportingComponent(component)
        .build();
    try {
      client.v1().events().inNamespace(job.getMetadata().getNamespace()).resource(event).create();
    } catch (KubernetesClientException e) {
      LOG.warn("Could not record event {} on {}: {}", reason, job.getMetadata().getName(), e.getMessage());
    }
  }
}
