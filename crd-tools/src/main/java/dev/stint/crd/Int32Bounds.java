package dev.stint.crd;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;

/**
 * Bounds every 32-bit integer of a schema whose Java class is known (every pod spec and autoscaler metric, the run
 * policy, the status: {@link EmbeddedModelFields}) with {@code minimum} and {@code maximum}. The generated schema says
 * only {@code type: integer} for them, which the API server takes up to 64 bits; a job with
 * {@code containerPort: 3000000000} was then stored, but the operator could not read it into fabric8's
 * {@code Integer}, and one such job made the list of its whole kind fail. With the bounds the API server refuses it
 * at once, naming the field. A kind's own int32 fields carry fabric8's {@code @Min} and {@code @Max}.
 *
 * <p>Which integers are 32-bit is read from the Java model: an {@code Integer} field is bounded, and an
 * {@code IntOrString} one (a probe's {@code port}, whose number is an int32 too; the bounds do not apply to its
 * string), while a {@code Long} one (for example {@code activeDeadlineSeconds}) is not: the API server refuses a
 * number beyond 64 bits by itself.
 */
final class Int32Bounds {

  static final long MIN = Integer.MIN_VALUE;
  static final long MAX = Integer.MAX_VALUE;

  private Int32Bounds() { }

  /** Adds the bounds to every such int32 field that has none; returns how many fields were bounded. */
  static int apply(JSONSchemaProps root) {
    int[] bounded = {0};
    EmbeddedModelFields.walk(root, (node, type) -> {
      boolean int32 = (type == Integer.class || type == int.class) && "integer".equals(node.getType());
      boolean intOrString = type == IntOrString.class && Boolean.TRUE.equals(node.getXKubernetesIntOrString());
      if (int32 || intOrString) bounded[0] += addBounds(node);
    });
    return bounded[0];
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
}
