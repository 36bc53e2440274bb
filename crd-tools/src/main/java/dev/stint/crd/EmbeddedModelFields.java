package dev.stint.crd;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.RunPolicy;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpec;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;

/**
 * Walks the pieces of a schema whose Java class the finisher knows in step with that class, handing each schema node
 * the Java type behind it. The generated schema loses what the type says of a value (an {@code Integer} is 32 bits, a
 * {@code Quantity} has a syntax); the steps that put it back ({@link Int32Bounds}, {@link QuantityPattern}) read it
 * here. The pieces are
 * <ul>
 *   <li>fabric8's Kubernetes model, which cannot be annotated, recognised by shape: every pod spec (as
 *       {@link PodTemplateBounds} does) and every autoscaler metric (its {@code type} beside the five metric sources,
 *       as in PyTorchJob's {@code elasticPolicy.metrics});</li>
 *   <li>the SPI's model where every kind built on it has it: {@code spec.runPolicy} ({@link RunPolicy}: its
 *       {@code minResources} quantities, its exit codes) and {@code status} ({@link JobStatus}).</li>
 * </ul>
 * A type never matches a node of another shape (an {@code Integer} only an {@code integer}), so a kind whose
 * {@code runPolicy} is something else loses nothing. A kind's own fields carry fabric8's {@code @Min} and {@code @Max}.
 */
final class EmbeddedModelFields {

  /** The properties of an autoscaling/v2 {@code MetricSpec}: its type and the five sources it chooses from. */
  private static final List<String> METRIC_SPEC_PROPERTIES =
      List.of("type", "containerResource", "external", "object", "pods", "resource");

  /** Receives one schema node and the raw class of the field it describes. */
  @FunctionalInterface
  interface Visitor {
    void visit(JSONSchemaProps node, Class<?> type);
  }

  private EmbeddedModelFields() { }

  static void walk(JSONSchemaProps root, Visitor visitor) {
    walk(property(property(root, "spec"), "runPolicy"), RunPolicy.class, visitor);
    walk(property(root, "status"), JobStatus.class, visitor);
    SchemaTree.walk(root, (path, node, parent) -> {
      Class<?> model = embeddedModel(node);
      if (model != null) walk(node, model, visitor);
    });
  }

  private static boolean isModel(Class<?> type) {
    return type.getName().startsWith("io.fabric8.kubernetes.api.model")
        || type.getPackageName().equals(RunPolicy.class.getPackageName());
  }

  private static JSONSchemaProps property(JSONSchemaProps node, String name) {
    return node == null || node.getProperties() == null ? null : node.getProperties().get(name);
  }

  /** The fabric8 class this schema node was generated from, when it is one this walk knows; else null. */
  static Class<?> embeddedModel(JSONSchemaProps node) {
    if (PodTemplateBounds.isPodSpec(node)) return PodSpec.class;
    if (isMetricSpec(node)) return MetricSpec.class;
    return null;
  }

  private static boolean isMetricSpec(JSONSchemaProps node) {
    Map<String, JSONSchemaProps> properties = node.getProperties();
    return properties != null && properties.keySet().containsAll(METRIC_SPEC_PROPERTIES);
  }

  private static void walk(JSONSchemaProps node, Type type, Visitor visitor) {
    if (node == null) return;
    Class<?> raw = rawClass(type);
    visitor.visit(node, raw);
    if (List.class.isAssignableFrom(raw)) {
      walk(SchemaTree.arrayItems(node), typeArgument(type, 0), visitor);
    } else if (Map.class.isAssignableFrom(raw)) {
      walk(SchemaTree.mapValues(node), typeArgument(type, 1), visitor);
    } else if (node.getProperties() != null && isModel(raw)) {
      for (Map.Entry<String, JSONSchemaProps> property : node.getProperties().entrySet()) {
        Field field = field(raw, property.getKey());
        if (field != null) walk(property.getValue(), field.getGenericType(), visitor);
      }
    }
  }

  /** The field of a model class that carries this JSON property (named so, or by its own name), or null. */
  private static Field field(Class<?> type, String property) {
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field field : c.getDeclaredFields()) {
        JsonProperty json = field.getAnnotation(JsonProperty.class);
        String name = json != null && !json.value().isEmpty() ? json.value() : field.getName();
        if (property.equals(name) && !Modifier.isStatic(field.getModifiers())) return field;
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
