package dev.stint.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks offline that a CRD schema is structural, the way the API server does when the CRD is created: every node
 * has a type (unless it is int-or-string or preserves unknown fields), no node has both {@code properties} and
 * {@code additionalProperties}, arrays have one item schema, junctors ({@code anyOf}, ...) carry no type,
 * description, default, additionalProperties or nullable except in the int-or-string pattern, the root
 * {@code metadata} restricts nothing but {@code name} and {@code generateName}, and no field that
 * {@code apiextensions.k8s.io/v1} forbids ({@code $ref}, {@code uniqueItems}, ...) is set.
 */
public final class StructuralSchemaCheck {

  private static final Set<String> ROOT_METADATA_FIELDS = Set.of("name", "generateName");

  private StructuralSchemaCheck() { }

  /** The violations, each {@code <path>: <problem>}; empty when the schema is structural. */
  public static List<String> violations(JSONSchemaProps root) {
    List<String> violations = new ArrayList<>();
    SchemaTree.walk(root, (path, node, parent) -> {
      String where = SchemaTree.display(path);
      if (path.contains("|")) {
        checkJunctorBranch(where, node, parent, violations);
      } else {
        checkField(where, node, violations);
      }
      checkForbiddenFields(where, node, violations);
    });
    checkRootMetadata(root, violations);
    return violations;
  }

  private static void checkField(String where, JSONSchemaProps node, List<String> violations) {
    boolean untypedAllowed = Boolean.TRUE.equals(node.getXKubernetesIntOrString())
        || Boolean.TRUE.equals(node.getXKubernetesPreserveUnknownFields());
    if (isBlank(node.getType()) && !untypedAllowed) {
      violations.add(where + ": type is missing");
    }
    if (isSet(node.getProperties()) && node.getAdditionalProperties() != null) {
      violations.add(where + ": properties and additionalProperties are both set");
    }
    if (node.getAdditionalProperties() != null && node.getAdditionalProperties().getSchema() == null) {
      violations.add(where + ": additionalProperties must be a schema");
    }
    if ("array".equals(node.getType()) && SchemaTree.arrayItems(node) == null) {
      violations.add(where + ": array without a single items schema");
    }
  }

  /** Junctor branches may only restrict values; int-or-string's {type: integer} / {type: string} is the exception. */
  private static void checkJunctorBranch(String where, JSONSchemaProps node, JSONSchemaProps parent,
                                         List<String> violations) {
    boolean intOrStringBranch = parent != null && Boolean.TRUE.equals(parent.getXKubernetesIntOrString())
        && ("integer".equals(node.getType()) || "string".equals(node.getType()));
    if (!isBlank(node.getType()) && !intOrStringBranch) violations.add(where + ": type inside a junctor");
    if (node.getDescription() != null) violations.add(where + ": description inside a junctor");
    if (node.getDefault() != null) violations.add(where + ": default inside a junctor");
    if (node.getAdditionalProperties() != null) violations.add(where + ": additionalProperties inside a junctor");
    if (node.getNullable() != null) violations.add(where + ": nullable inside a junctor");
  }

  private static void checkForbiddenFields(String where, JSONSchemaProps node, List<String> violations) {
    if (node.get$ref() != null) violations.add(where + ": $ref is not allowed");
    if (node.get$schema() != null) violations.add(where + ": $schema is not allowed");
    if (node.getId() != null) violations.add(where + ": id is not allowed");
    if (isSet(node.getDefinitions())) violations.add(where + ": definitions is not allowed");
    if (isSet(node.getDependencies())) violations.add(where + ": dependencies is not allowed");
    if (isSet(node.getPatternProperties())) violations.add(where + ": patternProperties is not allowed");
    if (node.getAdditionalItems() != null) violations.add(where + ": additionalItems is not allowed");
    if (Boolean.TRUE.equals(node.getUniqueItems())) violations.add(where + ": uniqueItems is not allowed");
    if (node.getItems() != null && node.getItems().getJSONSchemas() != null
        && !node.getItems().getJSONSchemas().isEmpty()) {
      violations.add(where + ": items must be a single schema");
    }
  }

  private static void checkRootMetadata(JSONSchemaProps root, List<String> violations) {
    JSONSchemaProps metadata = root.getProperties() == null ? null : root.getProperties().get("metadata");
    if (metadata == null || metadata.getProperties() == null) return;
    for (String field : metadata.getProperties().keySet()) {
      if (!ROOT_METADATA_FIELDS.contains(field)) {
        violations.add(".metadata." + field + ": only name and generateName may be restricted in the root metadata");
      }
    }
  }

  /** fabric8's model starts maps as empty rather than null, and leaves empty maps out of its JSON. */
  private static boolean isSet(Map<?, ?> map) {
    return map != null && !map.isEmpty();
  }

  private static boolean isBlank(String s) {
    return s == null || s.isBlank();
  }
}
