package dev.stint.crd;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/** Small CRDs written as YAML, for the finisher's tests. */
final class TestCrds {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private TestCrds() { }

  /** A CRD {@code widgets.example.com/v1} whose {@code openAPIV3Schema} is the given YAML (indented by 0). */
  static CustomResourceDefinition crd(String annotations, String schema) {
    String yaml = """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata:
          name: widgets.example.com
        %s
        spec:
          group: example.com
          names: {kind: Widget, plural: widgets, singular: widget}
          scope: Namespaced
          versions:
          - name: v1
            served: true
            storage: true
            additionalPrinterColumns:
            - {name: Age, jsonPath: .metadata.creationTimestamp, type: date}
            - {name: State, jsonPath: .status.state, type: string}
            subresources: {status: {}}
            schema:
              openAPIV3Schema:
        %s
        """.formatted(annotations.indent(2).stripTrailing(), schema.indent(8).stripTrailing());
    return SERIALIZATION.unmarshal(yaml, CustomResourceDefinition.class);
  }

  static CustomResourceDefinition crd(String schema) {
    return crd("", schema);
  }

  /** A schema from YAML; read with a plain YAML mapper, since fabric8 takes a flow mapping ({@code {...}}) for JSON. */
  static JSONSchemaProps schema(String yaml) {
    try {
      return new ObjectMapper(new YAMLFactory()).readValue(yaml, JSONSchemaProps.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
  }

  static JSONSchemaProps rootOf(CustomResourceDefinition crd) {
    return crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
  }

  /**
   * A root schema whose {@code spec} is a pod spec: containers (with a name, an image and these further properties)
   * and these further pod properties, each given as YAML at indentation 0.
   */
  static String podSpecAsSpec(String containerProperties, String podProperties) {
    return """
        type: object
        properties:
          spec:
            type: object
            properties:
              containers:
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string}
                    image: {type: string}
        %s
        %s
        """.formatted(containerProperties.indent(12).stripTrailing(), podProperties.indent(6).stripTrailing());
  }

  /** A pod spec as the generator emits it, cut down to what the finisher looks at. */
  static String podSpec() {
    String containers =
        "{type: array, items: {type: object, properties: {name: {type: string}, image: {type: string}}}}";
    return """
        type: object
        properties:
          containers: %s
          initContainers: %s
          restartPolicy: {type: string}
        """.formatted(containers, containers);
  }
}
