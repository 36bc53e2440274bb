package dev.stint.crd;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import org.junit.jupiter.api.Test;

class Int32BoundsTest {

  /** A pod spec with int32 and int64 fields at several depths (list items, nested objects), as fabric8 has them. */
  private static final String POD_SPEC = TestCrds.podSpecAsSpec("""
      ports:
        type: array
        items:
          type: object
          properties:
            containerPort: {type: integer}
            hostPort: {type: integer, maximum: 65535}
      readinessProbe:
        type: object
        properties:
          periodSeconds: {type: integer}
          terminationGracePeriodSeconds: {type: integer}
          httpGet:
            type: object
            properties:
              port:
                anyOf: [{type: integer}, {type: string}]
                x-kubernetes-int-or-string: true
      """, """
      activeDeadlineSeconds: {type: integer}
      priority: {type: integer}
      securityContext:
        type: object
        properties:
          runAsUser: {type: integer}
          supplementalGroups: {type: array, items: {type: integer}}
      volumes:
        type: array
        items:
          type: object
          properties:
            secret:
              type: object
              properties:
                defaultMode: {type: integer}
      """);

  @Test
  void boundsEveryInt32OfThePodSpecAndLeavesInt64Alone() {
    CustomResourceDefinition crd = TestCrds.crd(POD_SPEC);

    assertThat(Int32Bounds.apply(TestCrds.rootOf(crd))).isEqualTo(6);

    JSONSchemaProps pod = at(TestCrds.rootOf(crd), "spec");
    JSONSchemaProps container = pod.getProperties().get("containers").getItems().getSchema();
    JSONSchemaProps port = container.getProperties().get("ports").getItems().getSchema();
    JSONSchemaProps volume = pod.getProperties().get("volumes").getItems().getSchema();
    for (JSONSchemaProps int32 : new JSONSchemaProps[] {pod.getProperties().get("priority"),
        port.getProperties().get("containerPort"), at(container, "readinessProbe", "periodSeconds"),
        at(container, "readinessProbe", "httpGet", "port"),
        at(volume, "secret", "defaultMode")}) {
      assertThat(int32.getMinimum()).isEqualTo(-2147483648.0);
      assertThat(int32.getMaximum()).isEqualTo(2147483647.0);
    }
    for (JSONSchemaProps int64 : new JSONSchemaProps[] {pod.getProperties().get("activeDeadlineSeconds"),
        at(pod, "securityContext", "runAsUser"),
        at(pod, "securityContext", "supplementalGroups").getItems().getSchema(),
        at(container, "readinessProbe", "terminationGracePeriodSeconds")}) {
      assertThat(int64.getMinimum()).isNull();
      assertThat(int64.getMaximum()).isNull();
    }
  }

  @Test
  void keepsABoundThatIsAlreadySetAndIsIdempotent() {
    CustomResourceDefinition crd = TestCrds.crd(POD_SPEC);
    Int32Bounds.apply(TestCrds.rootOf(crd));

    JSONSchemaProps hostPort = at(TestCrds.rootOf(crd), "spec", "containers");
    hostPort = at(at(hostPort.getItems().getSchema(), "ports").getItems().getSchema(), "hostPort");
    assertThat(hostPort.getMaximum()).isEqualTo(65535.0);
    assertThat(hostPort.getMinimum()).isEqualTo(-2147483648.0);
    assertThat(Int32Bounds.apply(TestCrds.rootOf(crd))).isZero();
  }

  @Test
  void theFinisherBoundsThem() {
    CustomResourceDefinition crd = TestCrds.crd(POD_SPEC);

    assertThat(CrdFinisher.finish(crd)).isEmpty();

    assertThat(CrdFinisher.toYaml(crd)).contains("containerPort:\n", "maximum: 2.147483647E9",
        "minimum: -2.147483648E9");
  }

  @Test
  void boundsTheInt32sOfAnAutoscalerMetricAndGivesItsQuantitiesTheirSyntax() {
    String target = """
        {type: object, properties: {type: {type: string}, averageUtilization: {type: integer},
          averageValue: {anyOf: [{type: integer}, {type: string}], x-kubernetes-int-or-string: true}}}""";
    CustomResourceDefinition crd = TestCrds.crd("""
        type: object
        properties:
          metrics:
            type: array
            items:
              type: object
              properties:
                type: {type: string}
                containerResource: {type: object, properties: {name: {type: string}, target: %1$s}}
                external: {type: object, properties: {target: %1$s}}
                object: {type: object, properties: {target: %1$s}}
                pods: {type: object, properties: {target: %1$s}}
                resource: {type: object, properties: {name: {type: string}, target: %1$s}}
          notAMetric:
            type: object
            properties:
              type: {type: string}
              resource: {type: object, properties: {target: %1$s}}
        """.formatted(target));

    assertThat(Int32Bounds.apply(TestCrds.rootOf(crd))).isEqualTo(5);
    assertThat(QuantityPattern.apply(TestCrds.rootOf(crd))).isEqualTo(5);

    JSONSchemaProps metric = at(TestCrds.rootOf(crd), "metrics").getItems().getSchema();
    JSONSchemaProps resourceTarget = at(metric, "resource", "target");
    assertThat(at(resourceTarget, "averageUtilization").getMaximum()).isEqualTo(2147483647.0);
    assertThat(at(resourceTarget, "averageUtilization").getMinimum()).isEqualTo(-2147483648.0);
    assertThat(at(resourceTarget, "averageValue").getPattern()).isEqualTo(QuantityPattern.PATTERN);
    JSONSchemaProps lookalike = at(TestCrds.rootOf(crd), "notAMetric", "resource", "target");
    assertThat(at(lookalike, "averageUtilization").getMaximum()).as("not every object with a type").isNull();
    assertThat(at(lookalike, "averageValue").getPattern()).isNull();
  }

  private static JSONSchemaProps at(JSONSchemaProps node, String... path) {
    for (String name : path) node = node.getProperties().get(name);
    return node;
  }
}
