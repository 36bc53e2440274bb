package dev.stint.crd;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;

/**
 * Gives every quantity of a schema whose Java class is known ({@link EmbeddedModelFields}: a pod spec's
 * {@code resources.limits}, {@code requests}, an {@code emptyDir}'s {@code sizeLimit}, a metric's
 * {@code averageValue}, the run policy's {@code minResources}) the syntax of a Kubernetes quantity, as the schemas
 * controller-gen writes for {@code resource.Quantity} do (the Kubeflow training operator's CRDs among them). Without it a job asking for
 * {@code cpu: lots} was stored, and only its pods were refused, one by one, later.
 */
final class QuantityPattern {

  /** The pattern of {@code resource.Quantity} in Kubernetes' own OpenAPI schemas. */
  static final String PATTERN = "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]"
      + "|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";

  private QuantityPattern() { }

  /** Adds the pattern to every such quantity that has none; returns how many got it. */
  static int apply(JSONSchemaProps root) {
    int[] added = {0};
    EmbeddedModelFields.walk(root, (node, type) -> {
      boolean quantity = type == Quantity.class && Boolean.TRUE.equals(node.getXKubernetesIntOrString());
      if (quantity && node.getPattern() == null) {
        node.setPattern(PATTERN);
        added[0]++;
      }
    });
    return added[0];
  }
}
