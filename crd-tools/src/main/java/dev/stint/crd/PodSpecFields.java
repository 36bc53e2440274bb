package dev.stint.crd;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;

/**
 * Walks every pod spec of a schema in step with fabric8's {@link PodSpec}, handing each schema node the Java type
 * behind it. The generated schema loses what the type says of a value (an {@code Integer} is 32 bits, a
 * {@code Quantity} has a syntax); the steps that put it back ({@link Int32Bounds}, {@link QuantityPattern}) read it
 * here. A pod spec is recognised by shape, as {@link PodTemplateBounds} does.
 */
final class PodSpecFields {

  /** Receives one schema node of a pod spec and the raw class of the field it describes. */
  @FunctionalInterface
  interface Visitor {
    void visit(JSONSchemaProps node, Class<?> type);
  }

  private PodSpecFields() { }

  static void walk(JSONSchemaProps root, Visitor visitor) {
    SchemaTree.walk(root, (path, node, parent) -> {
      if (PodTemplateBounds.isPodSpec(node)) walk(node, PodSpec.class, visitor);
    });
  }

  private static void walk(JSONSchemaProps node, Type type, Visitor visitor) {
    if (node == null) return;
    Class<?> raw = rawClass(type);
    visitor.visit(node, raw);
    if (List.class.isAssignableFrom(raw)) {
      walk(SchemaTree.arrayItems(node), typeArgument(type, 0), visitor);
    } else if (Map.class.isAssignableFrom(raw)) {
      walk(SchemaTree.mapValues(node), typeArgument(type, 1), visitor);
    } else if (node.getProperties() != null && raw.getName().startsWith("io.fabric8.kubernetes.api.model")) {
      for (Map.Entry<String, JSONSchemaProps> property : node.getProperties().entrySet()) {
        Field field = field(raw, property.getKey());
        if (field != null) walk(property.getValue(), field.getGenericType(), visitor);
      }
    }
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
