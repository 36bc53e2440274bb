package dev.stint.crd;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;

/**
 * Bounds every 32-bit integer of every pod spec in a schema with {@code minimum} and {@code maximum}. The generated
 * schema says only {@code type: integer} for them, which the API server takes up to 64 bits; a job with
 * {@code containerPort: 3000000000} was then stored, but the operator could not read it into fabric8's
 * {@code Integer}, and one such job made the list of its whole kind fail. With the bounds the API server refuses it
 * at once, naming the field, as it does for the engine's own int32 fields (annotated {@code @Max} in the SPI).
 *
 * <p>Which integers are 32-bit is read from fabric8's {@link PodSpec} by reflection, in step with the schema: an
 * {@code Integer} field is bounded, and an {@code IntOrString} one (a probe's {@code port}, whose number is an int32
 * too; the bounds do not apply to its string), while a {@code Long} one (for example {@code activeDeadlineSeconds})
 * is not: the API server refuses a number beyond 64 bits by itself.
 */
final class Int32Bounds {

  static final long MIN = Integer.MIN_VALUE;
  static final long MAX = Integer.MAX_VALUE;

  private Int32Bounds() { }

  /** Adds the bounds to every int32 field of every pod spec that has none; returns how many fields were bounded. */
  static int apply(JSONSchemaProps root) {
    int[] bounded = {0};
    SchemaTree.walk(root, (path, node, parent) -> {
      if (PodTemplateBounds.isPodSpec(node)) bounded[0] += bound(node, PodSpec.class);
    });
    return bounded[0];
  }

  private static int bound(JSONSchemaProps node, Type type) {
    if (node == null) return 0;
    Class<?> raw = rawClass(type);
    if (raw == Integer.class || raw == int.class) return boundInteger(node);
    if (raw == IntOrString.class) return boundIntOrString(node);
    if (List.class.isAssignableFrom(raw)) return bound(SchemaTree.arrayItems(node), typeArgument(type, 0));
    if (Map.class.isAssignableFrom(raw)) return bound(SchemaTree.mapValues(node), typeArgument(type, 1));
    if (node.getProperties() == null || !raw.getName().startsWith("io.fabric8.kubernetes.api.model")) return 0;
    int bounded = 0;
    for (Map.Entry<String, JSONSchemaProps> property : node.getProperties().entrySet()) {
      Field field = field(raw, property.getKey());
      if (field != null) bounded += bound(property.getValue(), field.getGenericType());
    }
    return bounded;
  }

  private static int boundInteger(JSONSchemaProps node) {
    return "integer".equals(node.getType()) ? addBounds(node) : 0;
  }

  /** An int-or-string's number is an int32 too; the bounds do not apply to a string (JSON Schema's rule). */
  private static int boundIntOrString(JSONSchemaProps node) {
    return Boolean.TRUE.equals(node.getXKubernetesIntOrString()) ? addBounds(node) : 0;
  }

  private static int addBounds(JSONSchemaProps node) {
    int bounded = 0;
    if (node.getMinimum() == null) {
      node.setMinimum((double) MIN);
      bounded = 1;
    }
    if (node.getMaximum() == null) {
      node.setMaximum((double) MAX);
      bounded = 1;
    }
    return bounded;
  }

  /** The field of a fabric8 model class that carries this JSON property, or null. */
  private static Field field(Class<?> type, String property) {
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field field : c.getDeclaredFields()) {
        JsonProperty json = field.getAnnotation(JsonProperty.class);
        if (json != null && property.equals(json.value())) return field;
      }
    }
    return null;
  }

  private static Class<?> rawClass(Type type) {
    if (type instanceof Class<?> c) return c;
    if (type instanceof ParameterizedType p) return (Class<?>) p.getRawType();
    return Object.class;
  }

  private static Type typeArgument(Type type, int index) {
    if (type instanceof ParameterizedType p && p.getActualTypeArguments().length > index) {
      return p.getActualTypeArguments()[index];
    }
    return Object.class;
  }
}
