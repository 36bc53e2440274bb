package dev.stint.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.util.Map;

/**
 * Bounds the container lists of every pod spec in a schema with {@code maxItems}. The API server estimates the cost
 * of a CEL rule from the largest input the schema allows, and refuses a CRD whose rules could iterate an unbounded
 * list; fabric8's {@code PodSpec} cannot be annotated, so the bound is added to the generated schema instead.
 *
 * <p>A pod spec is recognised by shape, not by path: an object whose {@code containers} property is an array of
 * objects with {@code name} and {@code image}. That covers every pod template of every kind, wherever it sits.
 */
final class PodTemplateBounds {

  /** The container lists of a pod spec that get a bound. */
  static final String[] CONTAINER_LISTS = {"containers", "initContainers", "ephemeralContainers"};

  /**
   * Far above what a pod runs (the kubelet handles a handful of containers per pod), and low enough that a rule
   * scanning every container of every replica type stays a small fraction of the per-rule cost budget.
   */
  static final long MAX_CONTAINERS = 64;

  private PodTemplateBounds() { }

  /** Adds the bound to every container list that has none; returns how many lists were bounded. */
  static int apply(JSONSchemaProps root) {
    int[] bounded = {0};
    SchemaTree.walk(root, (path, node, parent) -> {
      if (!isPodSpec(node)) return;
      for (String list : CONTAINER_LISTS) {
        JSONSchemaProps array = node.getProperties().get(list);
        if (array != null && "array".equals(array.getType()) && array.getMaxItems() == null) {
          array.setMaxItems(MAX_CONTAINERS);
          bounded[0]++;
        }
      }
    });
    return bounded[0];
  }

  static boolean isPodSpec(JSONSchemaProps node) {
    Map<String, JSONSchemaProps> properties = node.getProperties();
    if (properties == null || properties.get("containers") == null) return false;
    JSONSchemaProps containers = properties.get("containers");
    JSONSchemaProps container = SchemaTree.arrayItems(containers);
    return "array".equals(containers.getType()) && container != null && container.getProperties() != null
        && container.getProperties().containsKey("name") && container.getProperties().containsKey("image");
  }
}
