package dev.stint.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Declares {@code metadata.name} (and {@code metadata.generateName}) in a root schema whose rules point at them with
 * {@code fieldPath}. The API server checks a rule's {@code fieldPath} against the schema and refuses the CRD when it
 * names a field the schema does not declare ("must be a valid path"); the generator leaves the root {@code metadata}
 * out, since the API server types it itself. Declaring the two strings restricts nothing (they are the only root
 * metadata fields a CRD may restrict) and lets a root rule about the job's name be reported at
 * {@code metadata.name}.
 */
final class RootMetadataFields {

  /** The root metadata fields a CRD schema may declare. */
  static final Set<String> DECLARABLE = Set.of("name", "generateName");
  private static final String PREFIX = ".metadata.";

  private RootMetadataFields() { }

  /** Declares every root metadata field a root rule's {@code fieldPath} names; returns how many were added. */
  static int apply(JSONSchemaProps root) {
    if (root.getXKubernetesValidations() == null) return 0;
    int added = 0;
    for (ValidationRule rule : root.getXKubernetesValidations()) {
      String path = rule.getFieldPath();
      if (path == null || !path.startsWith(PREFIX)) continue;
      String field = path.substring(PREFIX.length());
      if (!DECLARABLE.contains(field)) continue;
      if (root.getProperties() == null) root.setProperties(new LinkedHashMap<>());
      JSONSchemaProps metadata = root.getProperties().computeIfAbsent("metadata", k -> object());
      if (metadata.getProperties() == null) metadata.setProperties(new LinkedHashMap<>());
      if (!metadata.getProperties().containsKey(field)) {
        metadata.getProperties().put(field, string());
        added++;
      }
    }
    if (added > 0) sortRootProperties(root);
    return added;
  }

  private static JSONSchemaProps object() {
    JSONSchemaProps object = new JSONSchemaProps();
    object.setType("object");
    return object;
  }

  private static JSONSchemaProps string() {
    JSONSchemaProps string = new JSONSchemaProps();
    string.setType("string");
    return string;
  }

  /** The generator writes properties in name order; keep it so, so the output stays deterministic. */
  private static void sortRootProperties(JSONSchemaProps root) {
    Map<String, JSONSchemaProps> sorted = new LinkedHashMap<>();
    root.getProperties().keySet().stream().sorted().forEach(k -> sorted.put(k, root.getProperties().get(k)));
    root.setProperties(sorted);
    JSONSchemaProps metadata = root.getProperties().get("metadata");
    Map<String, JSONSchemaProps> fields = new LinkedHashMap<>();
    metadata.getProperties().keySet().stream().sorted().forEach(k -> fields.put(k, metadata.getProperties().get(k)));
    metadata.setProperties(fields);
  }
}
