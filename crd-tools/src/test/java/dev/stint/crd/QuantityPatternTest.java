package dev.stint.crd;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QuantityPatternTest {

  private static final String INT_OR_STRING =
      "{anyOf: [{type: integer}, {type: string}], x-kubernetes-int-or-string: true}";

  /** A pod spec with quantities in a map (limits) and a field (sizeLimit), and an int-or-string that is no quantity. */
  private static final String POD_SPEC = TestCrds.podSpecAsSpec("""
      resources:
        type: object
        properties:
          limits: {type: object, additionalProperties: %1$s}
      livenessProbe:
        type: object
        properties:
          tcpSocket:
            type: object
            properties:
              port: %1$s
      """.formatted(INT_OR_STRING), """
      volumes:
        type: array
        items:
          type: object
          properties:
            emptyDir:
              type: object
              properties:
                sizeLimit: %1$s
      """.formatted(INT_OR_STRING));

  @Test
  void everyQuantityOfThePodSpecGetsTheSyntaxAndNothingElse() {
    CustomResourceDefinition crd = TestCrds.crd(POD_SPEC);

    assertThat(QuantityPattern.apply(TestCrds.rootOf(crd))).isEqualTo(2);
    assertThat(QuantityPattern.apply(TestCrds.rootOf(crd))).as("idempotent").isZero();

    JSONSchemaProps pod = TestCrds.rootOf(crd).getProperties().get("spec");
    JSONSchemaProps container = pod.getProperties().get("containers").getItems().getSchema();
    JSONSchemaProps limits = container.getProperties().get("resources").getProperties().get("limits");
    assertThat(limits.getAdditionalProperties().getSchema().getPattern()).isEqualTo(QuantityPattern.PATTERN);
    JSONSchemaProps volume = pod.getProperties().get("volumes").getItems().getSchema();
    assertThat(volume.getProperties().get("emptyDir").getProperties().get("sizeLimit").getPattern())
        .isEqualTo(QuantityPattern.PATTERN);
    JSONSchemaProps port = container.getProperties().get("livenessProbe").getProperties().get("tcpSocket")
        .getProperties().get("port");
    assertThat(port.getPattern()).isNull();
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({"1, true", "500m, true", "1.5Gi, true", "2e3, true", "+4k, true", ".5, true", "lots, false",
      "1GB, false", "'', false", "1 Gi, false"})
  void thePatternIsKubernetesQuantitySyntax(String value, boolean valid) {
    assertThat(Pattern.matches(QuantityPattern.PATTERN, value)).isEqualTo(valid);
  }
}
