package dev.stint.core.kube;

import dev.stint.core.decision.Action;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out a decision's actions against the API server. Creating what exists (409) and deleting what is gone
 * (404) count as done, so a pass that runs on a stale cache, or again after an operator restart, is harmless. Any
 * other error is thrown: the reconcile is retried with backoff.
 */
public final class ActionApplier {
  private static final Logger LOG = LoggerFactory.getLogger(ActionApplier.class);

  private final KubernetesClient client;

  public ActionApplier(KubernetesClient client) {
    this.client = client;
  }

  public KubernetesClient client() {
    return client;
  }

  /** Applies the actions in order, recording an event for each child created or deleted. */
  public void apply(HasMetadata job, List<Action> actions, EventRecorder events) {
    String ns = job.getMetadata().getNamespace();
    for (Action action : actions) {
      applyOne(job, ns, action, events);
    }
  }

  private void applyOne(HasMetadata job, String ns, Action action, EventRecorder events) {
    if (action instanceof Action.CreatePod a) {
      if (create(() -> client.pods().inNamespace(ns).resource(a.pod()).create())) {
        events.normal(job, "SuccessfulCreatePod", "Created pod: " + a.pod().getMetadata().getName());
      }
    } else if (action instanceof Action.DeletePod a) {
      if (delete(() -> client.pods().inNamespace(ns).withName(a.name()).delete())) {
        LOG.info("Deleted pod {} ({})", a.name(), a.why());
        events.normal(job, "SuccessfulDeletePod", "Deleted pod: " + a.name());
      }
    } else if (action instanceof Action.CreateService a) {
      if (create(() -> client.services().inNamespace(ns).resource(a.service()).create())) {
        events.normal(job, "SuccessfulCreateService", "Created service: " + a.service().getMetadata().getName());
      }
    } else if (action instanceof Action.DeleteService a) {
      delete(() -> client.services().inNamespace(ns).withName(a.name()).delete());
    } else if (action instanceof Action.ApplyResource a) {
      applyResource(ns, a.resource(), a.replacing());
    } else if (action instanceof Action.DeleteResource a) {
      delete(() -> client.resource(a.resource()).inNamespace(ns).delete());
    } else if (action instanceof Action.DeleteJob) {
      LOG.info("Deleting job: ttlSecondsAfterFinished has passed");
      delete(() -> client.resource(job).inNamespace(ns).delete());
    }
  }

  private void applyResource(String ns, HasMetadata desired, String replacing) {
    if (replacing == null) {
      create(() -> client.resource(desired).inNamespace(ns).create());
    } else {
      desired.getMetadata().setResourceVersion(replacing);
      client.resource(desired).inNamespace(ns).update();
    }
  }

  private static boolean create(Runnable call) {
    try {
      call.run();
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        return false;
      }
      throw e;
    }
  }

  private static boolean delete(java.util.function.Supplier<List<?>> call) {
    try {
      return !call.get().isEmpty();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return false;
      }
      throw e;
    }
  }
}
