package dev.stint.crd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class EnumRulesTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      self in ['Always', 'OnFailure', 'Never', 'ExitCode'] | Always;OnFailure;Never;ExitCode
      self in ['', 'None', 'Running', 'All']                | ;None;Running;All
      self in ['kubeflow.org/mpi-operator']                 | kubeflow.org/mpi-operator
      self in ['a','b']                                     | a;b
      self in [ 'a' , 'b' ]                                 | a;b
      """)
  void aRuleListingValuesGivesThemInItsOrder(String rule, String values) {
    assertThat(EnumRules.valuesListed(rule)).containsExactly(values.split(";", -1));
  }

  @ParameterizedTest(name = "{0}")
  @NullSource
  @ValueSource(strings = {
      "self in []",
      "self in ['a'] || self == 'b'",
      "self in ['a', b]",
      "self == 'a'",
      "self.x in ['a']",
      "!(self in ['a'])",
      "self in ['it\\'s']",
      "self in [\"a\"]"})
  void anyOtherRuleListsNothing(String rule) {
    assertThat(EnumRules.valuesListed(rule)).isNull();
  }

  /** A string with a value list and another rule, and a nested string with a value list only. */
  private static JSONSchemaProps twoValueLists() {
    return TestCrds.schema("""
        type: object
        properties:
          policy:
            type: string
            x-kubernetes-validations:
            - {rule: "self in ['', 'None', 'All']", message: "policy must be None or All"}
            - {rule: "self != 'All' || true", message: "kept"}
          nested:
            type: object
            properties:
              mode:
                type: string
                x-kubernetes-validations:
                - {rule: "self in ['Fast', 'Slow']", message: "mode"}
        """);
  }

  @Test
  void aStringsValueListBecomesItsEnumAndItsOtherRulesStay() {
    JSONSchemaProps root = twoValueLists();

    assertThat(EnumRules.apply(root)).isEqualTo(2);

    JSONSchemaProps policy = root.getProperties().get("policy");
    assertThat(policy.getEnum()).extracting(JsonNode::asText).containsExactly("", "None", "All");
    assertThat(policy.getXKubernetesValidations()).extracting(ValidationRule::getMessage).containsExactly("kept");
    JSONSchemaProps mode = root.getProperties().get("nested").getProperties().get("mode");
    assertThat(mode.getEnum()).extracting(JsonNode::asText).containsExactly("Fast", "Slow");
    assertThat(mode.getXKubernetesValidations()).isNull();
  }

  @Test
  void aNodeThatIsNoStringOrHasAnEnumKeepsItsRule() {
    JSONSchemaProps root = TestCrds.schema("""
        type: object
        properties:
          count:
            type: integer
            x-kubernetes-validations:
            - {rule: "self in [1, 2]", message: "count"}
          list:
            type: array
            items: {type: string}
            x-kubernetes-validations:
            - {rule: "self in ['a']", message: "list"}
          fixed:
            type: string
            enum: [x, y]
            x-kubernetes-validations:
            - {rule: "self in ['x']", message: "fixed"}
        """);

    assertThat(EnumRules.apply(root)).isZero();

    assertThat(List.of("count", "list", "fixed")).allSatisfy(name ->
        assertThat(root.getProperties().get(name).getXKubernetesValidations()).hasSize(1));
    assertThat(root.getProperties().get("fixed").getEnum()).extracting(JsonNode::asText).containsExactly("x", "y");
  }

  @Test
  void finishingTwiceChangesNothingMore() {
    JSONSchemaProps root = twoValueLists();
    EnumRules.apply(root);

    assertThat(EnumRules.apply(root)).isZero();
    assertThat(root.getProperties().get("nested").getProperties().get("mode").getEnum()).extracting(JsonNode::asText)
        .containsExactly("Fast", "Slow");
  }
}
