package dev.stint.core.decision;

import dev.stint.spi.TrainingJob;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Keeps a running job's supporting objects (those its framework asks for, such as an autoscaler) present, owned by the
 * job and labelled like its pods; deletes those it no longer asks for.
 */
final class SupportingResources {

  private SupportingResources() { }

  static <J extends TrainingJob<?>> void sync(DecisionBuilder<J> out, Observed observed) {
    JobContext<J> ctx = out.ctx();
    List<HasMetadata> desired = ctx.framework().supportingResources(ctx.job());
    Set<String> wanted = desired.stream().map(SupportingResources::key).collect(Collectors.toSet());
    for (HasMetadata resource : desired) {
      resource.getMetadata().setNamespace(ctx.namespace());
      resource.getMetadata().setOwnerReferences(List.of(ctx.ownerReference()));
      Map<String, String> labels = new HashMap<>(resource.getMetadata().getLabels() == null ? Map.of()
          : resource.getMetadata().getLabels());
      labels.putAll(JobLabels.ofJob(ctx.controllerName(), ctx.name()));
      resource.getMetadata().setLabels(labels);
      out.act(new Action.ApplyResource(resource));
    }
    observed.supporting().stream().filter(r -> !wanted.contains(key(r)))
        .forEach(r -> out.act(new Action.DeleteResource(r)));
  }

  private static String key(HasMetadata resource) {
    return HasMetadata.getKind(resource.getClass()) + "/" + resource.getMetadata().getName();
  }
}
