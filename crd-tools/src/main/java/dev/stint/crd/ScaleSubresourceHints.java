package dev.stint.crd;

import dev.stint.spi.api.CrdHints;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceSubresourceScale;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceSubresources;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns the scale hints a kind declares as CRD annotations ({@link CrdHints#SCALE_SPEC_REPLICAS_PATH} and its
 * siblings) into the {@code scale} subresource of every version, and removes the hints. fabric8's generator only
 * derives a scale subresource from plain fields, while training jobs keep their replicas inside a map
 * ({@code .spec.pytorchReplicaSpecs.Worker.replicas}).
 */
final class ScaleSubresourceHints {

  private ScaleSubresourceHints() { }

  /** Applies the hints; returns problems (a spec or status path without its partner). */
  static List<String> apply(CustomResourceDefinition crd) {
    Map<String, String> hints = HintAnnotations.take(crd, CrdHints.SCALE_SPEC_REPLICAS_PATH,
        CrdHints.SCALE_STATUS_REPLICAS_PATH, CrdHints.SCALE_LABEL_SELECTOR_PATH);
    String specPath = hints.get(CrdHints.SCALE_SPEC_REPLICAS_PATH);
    String statusPath = hints.get(CrdHints.SCALE_STATUS_REPLICAS_PATH);
    String selectorPath = hints.get(CrdHints.SCALE_LABEL_SELECTOR_PATH);
    List<String> problems = new ArrayList<>();
    if (specPath == null && statusPath == null && selectorPath == null) return problems;
    if (specPath == null || statusPath == null) {
      problems.add(crd.getMetadata().getName() + ": a scale subresource needs both "
          + CrdHints.SCALE_SPEC_REPLICAS_PATH + " and " + CrdHints.SCALE_STATUS_REPLICAS_PATH);
      return problems;
    }
    for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
      if (version.getSubresources() == null) version.setSubresources(new CustomResourceSubresources());
      version.getSubresources().setScale(new CustomResourceSubresourceScale(selectorPath, specPath, statusPath));
    }
    return problems;
  }
}
