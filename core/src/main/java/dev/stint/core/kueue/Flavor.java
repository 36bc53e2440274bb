package dev.stint.core.kueue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.Map;

/** What an admitted job's pods take from a ResourceFlavor: its {@code nodeLabels} and {@code tolerations}. */
public record Flavor(String name, Map<String, String> nodeLabels, List<Toleration> tolerations) {

  public static Flavor of(GenericKubernetesResource flavor) {
    Map<String, Object> spec = WorkloadView.map(flavor.getAdditionalProperties().get("spec"));
    return new Flavor(flavor.getMetadata().getName(), Map.copyOf(WorkloadView.strings(spec.get("nodeLabels"))),
        WorkloadView.tolerations(spec.get("tolerations")));
  }
}
