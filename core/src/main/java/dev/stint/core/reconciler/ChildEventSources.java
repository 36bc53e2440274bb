package dev.stint.core.reconciler;

import dev.stint.core.decision.EngineSettings;
import dev.stint.core.kueue.KueueLink;
import dev.stint.core.model.EngineFramework;
import dev.stint.core.model.JobLabels;
import dev.stint.kubeclient.SlimItemStore;
import dev.stint.spi.TrainingJob;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The informers of one kind's children: its pods and services, the batch Jobs that carry replicas, its supporting
 * resources, PodGroups under gang scheduling and Kueue's Workloads. Each caches only that kind's children, slimmed.
 *
 * @param removed told of each child that leaves the cache, to end its creation in flight
 */
record ChildEventSources<J extends TrainingJob<?>>(EngineFramework<J> framework, EngineSettings settings,
                                                  KueueLink<J> kueue, Consumer<HasMetadata> removed) {

  List<EventSource<?, J>> prepare(EventSourceContext<J> context) {
    Class<J> primary = context.getPrimaryResourceClass();
    List<EventSource<?, J>> sources = new ArrayList<>();
    sources.add(childInformer(context, Pod.class, CarrierJobMapping.podToJob(primary)));
    sources.add(childInformer(context, Service.class, Mappers.fromOwnerReferences(primary)));
    if (framework.carriesReplicasInJobs()) {
      sources.add(CarrierJobMapping.jobInformer(context, framework.name(), removed::accept));
    }
    for (Class<? extends HasMetadata> type : framework.supportingResourceTypes()) {
      // a job-level Service (MPIJob v2) comes through the Service informer above; a second one would clash
      if (type != Pod.class && type != Service.class) {
        sources.add(childInformer(context, type, Mappers.fromOwnerReferences(primary)));
      }
    }
    if (settings.gangScheduling()) {
      sources.add(podGroupInformer(context));
    }
    kueue.eventSource(context).ifPresent(sources::add);
    return sources;
  }

  private <R extends HasMetadata> EventSource<R, J> childInformer(EventSourceContext<J> context, Class<R> type,
                                                                  SecondaryToPrimaryMapper<R> mapper) {
    var config = InformerEventSourceConfiguration.from(type, context.getPrimaryResourceClass())
        .withName(framework.name() + "-" + HasMetadata.getPlural(type))
        // each kind caches only its own children
        .withLabelSelector(JobLabels.OPERATOR_NAME + "=" + framework.controllerName())
        .withSecondaryToPrimaryMapper(mapper)
        // a child leaving the cache ends its creation in flight, also when no pass saw it in between
        .withItemStore(SlimItemStore.<R>forChildren(removed::accept))
        .withInformerListLimit(SlimItemStore.LIST_PAGE)
        .build();
    return new InformerEventSource<>(config, context);
  }

  /** PodGroups of the configured gang scheduler; watched only when gang scheduling is on (their CRD may be absent). */
  private EventSource<GenericKubernetesResource, J> podGroupInformer(EventSourceContext<J> context) {
    String apiVersion = settings.volcano() ? "scheduling.volcano.sh/v1beta1" : "scheduling.x-k8s.io/v1alpha1";
    String[] gv = apiVersion.split("/");
    var config = InformerEventSourceConfiguration.from(new GroupVersionKind(gv[0], gv[1], "PodGroup"),
            context.getPrimaryResourceClass())
        .withName(framework.name() + "-podgroups")
        .withLabelSelector(JobLabels.OPERATOR_NAME + "=" + framework.controllerName())
        .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(context.getPrimaryResourceClass()))
        .build();
    return new InformerEventSource<>(config, context);
  }
}
