package dev.stint.core.reconciler;

import dev.stint.core.decision.Action;
import dev.stint.core.decision.Decision;
import dev.stint.core.decision.JobContext;
import dev.stint.core.decision.JobDecider;
import dev.stint.core.decision.JobLabels;
import dev.stint.core.decision.Observed;
import dev.stint.core.kube.ActionApplier;
import dev.stint.core.kube.EventRecorder;
import dev.stint.core.kube.SlimItemStore;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The JOSDK entry point for one kind: observe (children from the informer caches), decide ({@link JobDecider}, pure),
 * act ({@link ActionApplier}), record (events, then status). One instance is registered per framework, with an
 * explicit controller configuration, because JOSDK cannot infer a generic reconciler's resource class.
 */
public final class TrainingJobReconciler<J extends TrainingJob<?>> implements Reconciler<J> {
  private static final Logger LOG = LoggerFactory.getLogger(TrainingJobReconciler.class);

  private final TrainingFramework<J> framework;
  private final Clock clock;
  private final ActionApplier applier;
  private final EventRecorder events;
  private final StatusWriter statusWriter;

  public TrainingJobReconciler(TrainingFramework<J> framework, Clock clock, ActionApplier applier,
                               EventRecorder events, boolean serverSideApply) {
    this.framework = framework;
    this.clock = clock;
    this.applier = applier;
    this.events = events;
    this.statusWriter = new StatusWriter(applier.client(), serverSideApply, "stint");
  }

  public TrainingFramework<J> framework() {
    return framework;
  }

  @Override
  public List<EventSource<?, J>> prepareEventSources(EventSourceContext<J> context) {
    List<EventSource<?, J>> sources = new ArrayList<>();
    sources.add(childInformer(context, Pod.class));
    sources.add(childInformer(context, Service.class));
    for (Class<? extends HasMetadata> type : framework.supportingResourceTypes()) {
      sources.add(childInformer(context, type));
    }
    return sources;
  }

  private <R extends HasMetadata> EventSource<R, J> childInformer(EventSourceContext<J> context, Class<R> type) {
    var config = InformerEventSourceConfiguration.from(type, context.getPrimaryResourceClass())
        .withName(framework.name() + "-" + HasMetadata.getPlural(type))
        // each kind caches only its own children
        .withLabelSelector(JobLabels.OPERATOR_NAME + "=" + framework.controllerName())
        .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(context.getPrimaryResourceClass()))
        .withItemStore(new SlimItemStore<>())
        .build();
    return new InformerEventSource<>(config, context);
  }

  @Override
  public UpdateControl<J> reconcile(J cached, Context<J> context) {
    J job = statusWriter.freshest(cached);
    MDC.put("stint.framework", framework.name());
    MDC.put("stint.job", job.getMetadata().getNamespace() + "/" + job.getMetadata().getName());
    try {
      Observed observed = observe(job, context);
      Decision decision = JobDecider.decide(new JobContext<>(job, framework, clock.instant()), observed);
      return act(job, decision);
    } finally {
      MDC.remove("stint.framework");
      MDC.remove("stint.job");
    }
  }

  private Observed observe(J job, Context<J> context) {
    String uid = job.getMetadata().getUid();
    List<HasMetadata> supporting = new ArrayList<>();
    for (Class<? extends HasMetadata> type : framework.supportingResourceTypes()) {
      context.getSecondaryResources(type).stream().filter(r -> ownedBy(r, uid)).forEach(supporting::add);
    }
    return new Observed(
        context.getSecondaryResources(Pod.class).stream().filter(p -> ownedBy(p, uid)).toList(),
        context.getSecondaryResources(Service.class).stream().filter(s -> ownedBy(s, uid)).toList(),
        supporting);
  }

  private static boolean ownedBy(HasMetadata child, String uid) {
    return child.getMetadata().getOwnerReferences() != null && child.getMetadata().getOwnerReferences().stream()
        .anyMatch(r -> uid.equals(r.getUid()) && Boolean.TRUE.equals(r.getController()));
  }

  private UpdateControl<J> act(J job, Decision decision) {
    if (decision.status() == null) {
      return UpdateControl.noUpdate();
    }
    applier.apply(job, decision.actions(), events);
    decision.events().forEach(e -> events.record(job, e));
    boolean deleted = decision.actions().stream().anyMatch(a -> a instanceof Action.DeleteJob);
    if (!deleted && !Objects.equals(decision.status(), job.getStatus())) {
      statusWriter.write(job, decision.status(), framework.jobType());
    }
    UpdateControl<J> control = UpdateControl.noUpdate();
    if (decision.requeueAfter().isPresent()) {
      control.rescheduleAfter(decision.requeueAfter().get().plusMillis(500));
    }
    return control;
  }
}
