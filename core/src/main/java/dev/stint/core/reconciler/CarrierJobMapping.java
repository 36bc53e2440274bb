package dev.stint.core.reconciler;

import dev.stint.core.decision.CarrierJobs;
import dev.stint.core.model.JobLabels;
import dev.stint.kubeclient.SlimItemStore;
import dev.stint.spi.TrainingJob;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * How the informers lead a carried replica ({@link dev.stint.spi.WithJobCarriedReplicas}) to its training job: the
 * batch Job through its controller owner reference, as every child; the Job's pod, whose controller is the Job, through
 * its {@code training.kubeflow.org/job-name} label ({@link ChildrenObserved} then checks that its Job is the job's).
 */
final class CarrierJobMapping {

  private CarrierJobMapping() { }

  /** Pods to their job: by owner reference, or for a pod a batch Job controls, by its job-name label. */
  static <J extends HasMetadata> SecondaryToPrimaryMapper<Pod> podToJob(Class<J> primaryType) {
    SecondaryToPrimaryMapper<Pod> owners = Mappers.fromOwnerReferences(primaryType);
    return pod -> {
      Set<ResourceID> found = owners.toPrimaryResourceIDs(pod);
      if (!found.isEmpty() || CarrierJobs.carrierOf(pod) == null) {
        return found;
      }
      Map<String, String> labels = pod.getMetadata().getLabels();
      String jobName = labels == null ? null : labels.get(JobLabels.JOB_NAME);
      return jobName == null ? Set.of() : Set.of(new ResourceID(jobName, pod.getMetadata().getNamespace()));
    };
  }

  /** The informer of the kind's carrier Jobs ({@link SlimItemStore#forCarrierJobs}). */
  static <J extends TrainingJob<?>> EventSource<Job, J> jobInformer(EventSourceContext<J> context, String name,
                                                                  Consumer<Job> onRemove) {
    Class<J> primary = context.getPrimaryResourceClass();
    var config = InformerEventSourceConfiguration.from(Job.class, primary)
        .withName(name + "-jobs")
        .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(primary))
        .withItemStore(SlimItemStore.forCarrierJobs(HasMetadata.getKind(primary), onRemove))
        .withInformerListLimit(SlimItemStore.LIST_PAGE)
        .build();
    return new InformerEventSource<>(config, context);
  }
}
