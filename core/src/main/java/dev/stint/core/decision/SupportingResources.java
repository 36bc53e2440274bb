package dev.stint.core.decision;

import dev.stint.core.model.Action;
import dev.stint.core.model.JobLabels;
import dev.stint.spi.ReplicaOutcomes;
import dev.stint.spi.SupportingResource;
import dev.stint.spi.TrainingJob;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A job's supporting objects (those its framework asks for: an autoscaler, a hostfile): kept present, owned by the
 * job and labelled like its pods while it runs; on suspension and at the end only those that live
 * {@link SupportingResource.Lifetime#WITH_JOB} stay. The lifetime is written as a label, so that an observed object
 * tells it without asking the framework.
 */
final class SupportingResources {
  static final String LIFETIME = "stint.dev/lifetime";
  /** Annotation holding a hash of the desired content, so that an object is replaced only when that changed. */
  static final String DESIRED_HASH = "stint.dev/desired-hash";
  static final String WITH_JOB = "with-job";

  private SupportingResources() { }

  /** A running job: apply what the framework asks for, delete what it no longer asks for. */
  static <J extends TrainingJob<?>> void sync(DecisionBuilder<J> out, Observed observed, ReplicaOutcomes outcomes) {
    List<SupportingResource> desired = new java.util.ArrayList<>(
        out.ctx().framework().supportingResources(out.ctx().job(), outcomes));
    if (out.ctx().settings().gangScheduling()) {
      desired.add(SupportingResource.whileRunning(GangScheduling.podGroup(out.ctx())));
    }
    apply(out, desired, observed);
    Set<String> wanted = desired.stream().map(r -> key(r.resource())).collect(Collectors.toSet());
    observed.supporting().stream().filter(r -> !wanted.contains(key(r)))
        .forEach(r -> out.act(new Action.DeleteResource(r)));
  }

  /** A suspended job: objects that live with the job are applied (created even while suspended), others deleted. */
  static <J extends TrainingJob<?>> void suspended(DecisionBuilder<J> out, Observed observed) {
    List<SupportingResource> desired = out.ctx().framework()
        .supportingResources(out.ctx().job(), new ReplicaOutcomes(Map.of())).stream()
        .filter(r -> r.lifetime() == SupportingResource.Lifetime.WITH_JOB).toList();
    apply(out, desired, observed);
    deleteRunningOnly(out, observed);
  }

  /** Deletes the observed objects that live only while the job runs. */
  static <J extends TrainingJob<?>> void deleteRunningOnly(DecisionBuilder<J> out, Observed observed) {
    observed.supporting().stream().filter(r -> !WITH_JOB.equals(Observed.label(r, LIFETIME)))
        .forEach(r -> out.act(new Action.DeleteResource(r)));
  }

  private static <J extends TrainingJob<?>> void apply(DecisionBuilder<J> out, List<SupportingResource> desired,
                                                       Observed observed) {
    JobContext<J> ctx = out.ctx();
    for (SupportingResource supporting : desired) {
      HasMetadata current = observed.supporting().stream().filter(r -> key(r).equals(key(supporting.resource())))
          .findFirst().orElse(null);
      if (current != null && supporting.createOnly()) {
        continue; // created once: its content (a generated key) is made only when it is missing
      }
      HasMetadata resource = current == null ? supporting.toCreate() : supporting.resource();
      resource.getMetadata().setNamespace(ctx.namespace());
      resource.getMetadata().setOwnerReferences(List.of(ctx.ownerReference()));
      Map<String, String> labels = new HashMap<>(resource.getMetadata().getLabels() == null ? Map.of()
          : resource.getMetadata().getLabels());
      labels.putAll(JobLabels.ofJob(ctx.controllerName(), ctx.name()));
      if (supporting.lifetime() == SupportingResource.Lifetime.WITH_JOB) {
        labels.put(LIFETIME, WITH_JOB);
      }
      resource.getMetadata().setLabels(labels);
      String hash = ModelJson.hash(resource);
      Map<String, String> annotations = new HashMap<>(resource.getMetadata().getAnnotations() == null ? Map.of()
          : resource.getMetadata().getAnnotations());
      annotations.put(DESIRED_HASH, hash);
      resource.getMetadata().setAnnotations(annotations);
      if (current == null) {
        out.act(new Action.ApplyResource(resource, null));
      } else if (!hash.equals(annotation(current, DESIRED_HASH))) {
        out.act(new Action.ApplyResource(resource, current.getMetadata().getResourceVersion()));
      }
    }
  }

  private static String annotation(HasMetadata object, String key) {
    Map<String, String> annotations = object.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(key);
  }

  private static String key(HasMetadata resource) {
    String kind = resource.getKind() != null ? resource.getKind() : HasMetadata.getKind(resource.getClass());
    return kind + "/" + resource.getMetadata().getName();
  }
}
