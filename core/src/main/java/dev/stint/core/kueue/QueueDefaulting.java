package dev.stint.core.kueue;

import dev.stint.spi.TrainingJob;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@link QueueDefaults} to a job: the labels Kueue's webhook would have given it at creation are written to
 * the job (a JSON merge patch of its labels, so that a label someone set meanwhile is not taken back), before the
 * pass that queues it. The labels are the durable record of the choice: they show in {@code kubectl get -L}, survive
 * a restart of Stint, and a later pass reads them as any user's labels.
 */
final class QueueDefaulting {
  private static final Logger LOG = LoggerFactory.getLogger(QueueDefaulting.class);
  private final KueueObjects objects;

  QueueDefaulting(KueueObjects objects) {
    this.objects = objects;
  }

  /** The job with the defaults written to its labels, or the job as it is when none applies. */
  <J extends TrainingJob<?>> J apply(J job, Class<J> jobType) {
    String namespace = job.getMetadata().getNamespace();
    boolean ownedByKueue = objects.owners().controllerManagedByKueue(job.getMetadata().getOwnerReferences());
    Map<String, String> add = QueueDefaults.labelsToAdd(new QueueDefaults.Facts(job.getMetadata().getLabels(),
        firstPass(job), ownedByKueue, objects.defaultQueueIn(namespace), objects.defaultPriorityClass()));
    if (add.isEmpty()) {
      return job;
    }
    String patch = Serialization.asJson(Map.of("metadata", Map.of("labels", add)));
    J labelled = objects.client().resources(jobType).inNamespace(namespace).withName(job.getMetadata().getName())
        .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    LOG.info("Labelled {} as Kueue would at its creation: {}", job.getMetadata().getName(), add);
    return labelled;
  }

  /** No condition yet: Stint has not made a pass over the job, which stands for the moment of its creation. */
  private static boolean firstPass(TrainingJob<?> job) {
    return job.getStatus() == null || job.getStatus().getConditions() == null
        || job.getStatus().getConditions().isEmpty();
  }

}
