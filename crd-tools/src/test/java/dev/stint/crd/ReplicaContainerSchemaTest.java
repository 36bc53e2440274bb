package dev.stint.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.spi.api.JobRules;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplicaContainerSchemaTest {
  private static final String NAME_RULE = "self.all(t, !(" + JobRules.HAS_CONTAINERS + ") || "
      + "self[t].template.spec.containers.exists(c, has(c.name) && c.name == 'pytorch'))";

  /** A replica-spec map as the generator emits it: each value a replica spec with a pod template. */
  private static JSONSchemaProps replicaSpecs(ValidationRule... rules) {
    String podSpec = TestCrds.podSpec().indent(10);
    JSONSchemaProps map = TestCrds.schema("""
        type: object
        additionalProperties:
          type: object
          properties:
            replicas: {type: integer}
            template:
              type: object
              properties:
                spec:
        %s""".formatted(podSpec));
    map.setXKubernetesValidations(new ArrayList<>(List.of(rules)));
    return map;
  }

  private static ValidationRule rule(String rule, String message) {
    return new ValidationRule(null, message, null, null, null, rule);
  }

  private static JSONSchemaProps template(JSONSchemaProps map) {
    return map.getAdditionalProperties().getSchema().getProperties().get("template");
  }

  private static JSONSchemaProps containers(JSONSchemaProps map) {
    return template(map).getProperties().get("spec").getProperties().get("containers");
  }

  @Test
  void theContainerRulesBecomeNativeChecksAndTheNameRuleMovesToTheList() {
    JSONSchemaProps map = replicaSpecs(
        rule("self.all(t, t == 'Master' || t == 'Worker')", "types"),
        rule(JobRules.EVERY_TYPE_HAS_CONTAINERS, "containers"),
        rule(JobRules.EVERY_CONTAINER_HAS_IMAGE, "images"),
        rule(NAME_RULE, "named pytorch"));

    assertThat(ReplicaContainerSchema.apply(map)).isEqualTo(3);

    assertThat(map.getXKubernetesValidations()).extracting(ValidationRule::getMessage).containsExactly("types");
    assertThat(map.getAdditionalProperties().getSchema().getRequired()).containsExactly("template");
    assertThat(template(map).getRequired()).containsExactly("spec");
    assertThat(template(map).getProperties().get("spec").getRequired()).containsExactly("containers");
    JSONSchemaProps containers = containers(map);
    assertThat(containers.getMinItems()).isEqualTo(1L);
    assertThat(containers.getItems().getSchema().getRequired()).containsExactly("image");
    assertThat(containers.getItems().getSchema().getProperties().get("image").getMinLength()).isEqualTo(1L);
    assertThat(containers.getXKubernetesValidations()).singleElement().satisfies(r -> {
      assertThat(r.getRule()).isEqualTo("self.exists(c, has(c.name) && c.name == 'pytorch')");
      assertThat(r.getMessage()).isEqualTo("named pytorch");
    });
    assertThat(containers.getItems().getSchema().getProperties().get("name").getMinLength()).isNull();
  }

  @Test
  void withoutTheContainersRuleTheGuardedRuleStaysOnTheMap() {
    // nothing makes containers required then, and the rule's guard still matters
    JSONSchemaProps map = replicaSpecs(rule(NAME_RULE, "named pytorch"));
    assertThat(ReplicaContainerSchema.apply(map)).isZero();
    assertThat(map.getXKubernetesValidations()).extracting(ValidationRule::getRule).containsExactly(NAME_RULE);
    assertThat(containers(map).getXKubernetesValidations()).isNullOrEmpty();
    assertThat(containers(map).getMinItems()).isNull();
  }

  @Test
  void applyingTwiceChangesNothingMore() {
    JSONSchemaProps map = replicaSpecs(rule(JobRules.EVERY_TYPE_HAS_CONTAINERS, "containers"),
        rule(NAME_RULE, "named pytorch"));
    ReplicaContainerSchema.apply(map);
    String once = map.toString();
    assertThat(ReplicaContainerSchema.apply(map)).isZero();
    assertThat(map.toString()).isEqualTo(once);
    assertThat(map.getXKubernetesValidations()).isNull();
  }

  @Test
  void aMapWithoutAPodTemplateIsLeftAlone() {
    JSONSchemaProps map = TestCrds.schema("{type: object, additionalProperties: {type: integer}}");
    map.setXKubernetesValidations(new ArrayList<>(List.of(rule(JobRules.EVERY_TYPE_HAS_CONTAINERS, "containers"))));
    assertThat(ReplicaContainerSchema.apply(map)).isZero();
    assertThat(map.getXKubernetesValidations()).hasSize(1);
  }
}
