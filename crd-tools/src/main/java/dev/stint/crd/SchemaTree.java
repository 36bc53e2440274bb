package dev.stint.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.util.List;
import java.util.Map;

/**
 * Visits every node of an OpenAPI v3 schema tree, depth first and in document order, with the node's path. Paths read
 * like field paths: {@code .spec.pytorchReplicaSpecs[*].template} ({@code [*]} stands for a map value or an array
 * item, {@code |anyOf[0]} for a junctor branch).
 */
final class SchemaTree {

  /** Receives one node: its path, the node, and its parent (null for the root). */
  @FunctionalInterface
  interface Visitor {
    void visit(String path, JSONSchemaProps node, JSONSchemaProps parent);
  }

  private SchemaTree() { }

  static void walk(JSONSchemaProps root, Visitor visitor) {
    walk("", root, null, visitor);
  }

  private static void walk(String path, JSONSchemaProps node, JSONSchemaProps parent, Visitor visitor) {
    if (node == null) return;
    visitor.visit(path, node, parent);
    if (node.getProperties() != null) {
      for (Map.Entry<String, JSONSchemaProps> e : node.getProperties().entrySet()) {
        walk(path + "." + e.getKey(), e.getValue(), node, visitor);
      }
    }
    if (node.getAdditionalProperties() != null) {
      walk(path + "[*]", node.getAdditionalProperties().getSchema(), node, visitor);
    }
    if (node.getItems() != null) {
      walk(path + "[*]", node.getItems().getSchema(), node, visitor);
      walkAll(path + "|items", node.getItems().getJSONSchemas(), node, visitor);
    }
    walkAll(path + "|anyOf", node.getAnyOf(), node, visitor);
    walkAll(path + "|allOf", node.getAllOf(), node, visitor);
    walkAll(path + "|oneOf", node.getOneOf(), node, visitor);
    walk(path + "|not", node.getNot(), node, visitor);
  }

  private static void walkAll(String path, List<JSONSchemaProps> nodes, JSONSchemaProps parent, Visitor visitor) {
    if (nodes == null) return;
    for (int i = 0; i < nodes.size(); i++) {
      walk(path + "[" + i + "]", nodes.get(i), parent, visitor);
    }
  }

  /** A path for messages: field paths start with a dot, anything else is relative to {@code <root>}. */
  static String display(String path) {
    return path.startsWith(".") ? path : "<root>" + path;
  }

  /** The schema of a map's values, or null when the node is not a map. */
  static JSONSchemaProps mapValues(JSONSchemaProps node) {
    return node.getAdditionalProperties() == null ? null : node.getAdditionalProperties().getSchema();
  }

  /** The schema of an array's items, or null when the node is not an array with a single item schema. */
  static JSONSchemaProps arrayItems(JSONSchemaProps node) {
    return node.getItems() == null ? null : node.getItems().getSchema();
  }
}
