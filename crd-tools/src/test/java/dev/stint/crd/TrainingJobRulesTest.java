package dev.stint.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TrainingJobRulesTest {

  /** A job whose spec has a replica map and one rule of its own, and one root rule of its own. */
  private static final String JOB = """
      type: object
      properties:
        spec:
          type: object
          properties:
            widgetReplicaSpecs: {type: object, maxProperties: 2, additionalProperties: {type: object, properties: {replicas: {type: integer}}}}
            runPolicy:
              type: object
              properties:
                managedBy: {type: string}
                successPolicy:
                  type: object
                  properties:
                    rules:
                      type: array
                      maxItems: 8
                      items: {type: object, properties: {succeeded: {type: object, maxProperties: 2, additionalProperties: {type: integer}}}}
                failurePolicy:
                  type: object
                  properties:
                    rules:
                      type: array
                      maxItems: 16
                      items: {type: object, properties: {targetReplicaTypes: {type: array, maxItems: 8, items: {type: string}}}}
          x-kubernetes-validations:
          - {rule: "true", message: "spec: own"}
      x-kubernetes-validations:
      - {rule: "true", message: "root: own"}
      """;

  private static CustomResourceDefinition job(String hints) {
    return TestCrds.crd("annotations: {" + hints + "}", JOB);
  }

  private static List<String> messages(JSONSchemaProps node) {
    return node.getXKubernetesValidations().stream().map(ValidationRule::getMessage).toList();
  }

  private static JSONSchemaProps spec(CustomResourceDefinition crd) {
    return TestCrds.rootOf(crd).getProperties().get("spec");
  }

  @Test
  void theStandardRulesStandAroundTheKindsOwn() {
    CustomResourceDefinition crd = job("stint.dev/replica-specs: widgetReplicaSpecs, "
        + "stint.dev/replica-types: 'Master,Worker'");

    assertThat(TrainingJobRules.apply(crd)).isEmpty();

    assertThat(messages(TestCrds.rootOf(crd))).containsExactly(
        "metadata.name: must be a DNS-1035 label (lower case letters, digits and '-', starting with a letter and "
            + "ending with a letter or digit)",
        "metadata.name: must be no more than 63 characters",
        "root: own",
        "metadata.name: too long for its replica names: pod and service names (<name>-<type>-<index>) must be no "
            + "more than 63 characters",
        "spec.widgetReplicaSpecs: at most 5000 replicas in all",
        "spec.widgetReplicaSpecs: must be set",
        "spec.runPolicy.managedBy is immutable",
        "spec.runPolicy.managedBy is immutable");
    assertThat(messages(spec(crd))).containsExactly(
        "spec: own",
        "spec.runPolicy.successPolicy.rules: a rule names a replica type the job does not have",
        "spec.runPolicy.successPolicy.rules: each count must be at least 1 and at most the replicas of its type",
        "spec.runPolicy.failurePolicy.rules: a rule's targetReplicaTypes names a replica type the job does not have");
    assertThat(TestCrds.rootOf(crd).getXKubernetesValidations().get(4).getRule()).isEqualTo(
        "!has(self.spec) || !has(self.spec.widgetReplicaSpecs) || (has(self.spec.widgetReplicaSpecs.Master) ? "
            + "(has(self.spec.widgetReplicaSpecs.Master.replicas) ? self.spec.widgetReplicaSpecs.Master.replicas : 1) "
            + ": 0) + (has(self.spec.widgetReplicaSpecs.Worker) ? (has(self.spec.widgetReplicaSpecs.Worker.replicas) "
            + "? self.spec.widgetReplicaSpecs.Worker.replicas : 1) : 0) <= 5000");
    assertThat(crd.getMetadata().getAnnotations()).isEmpty();
    assertThat(CrdFinisher.finish(crd)).as("bounded, at declared field paths, once metadata.name is declared").isEmpty();
  }

  @Test
  void customPodNamesLeaveTheNameLengthToTheKind() {
    CustomResourceDefinition crd = job("stint.dev/replica-specs: widgetReplicaSpecs, "
        + "stint.dev/replica-types: 'Launcher,Worker:0', stint.dev/custom-pod-names: 'true'");

    assertThat(TrainingJobRules.apply(crd)).isEmpty();

    assertThat(messages(TestCrds.rootOf(crd))).doesNotContain("metadata.name: must be no more than 63 characters")
        .noneMatch(m -> m.contains("too long")).startsWith(
            "metadata.name: must be a DNS-1035 label (lower case letters, digits and '-', starting with a letter and "
                + "ending with a letter or digit)",
            "root: own");
    // Workers default to 0: a type that is there without replicas counts as none, in the sum and the success rules
    assertThat(TestCrds.rootOf(crd).getXKubernetesValidations().get(2).getRule()).endsWith(
        "(has(self.spec.widgetReplicaSpecs.Worker) && has(self.spec.widgetReplicaSpecs.Worker.replicas) ? "
            + "self.spec.widgetReplicaSpecs.Worker.replicas : 0) <= 5000");
    assertThat(spec(crd).getXKubernetesValidations().get(2).getRule())
        .endsWith("? self.widgetReplicaSpecs[t].replicas : (t == 'Launcher' ? 1 : 0)))))");
  }

  @Test
  void theEnginesColumnsComeFirstOnce() {
    CustomResourceDefinition crd = job("stint.dev/replica-specs: widgetReplicaSpecs, stint.dev/replica-types: Worker");

    TrainingJobRules.apply(crd);

    // the test CRD declares Age (the generator's) and a State of its own: those stay, the missing ones come
    assertThat(crd.getSpec().getVersions().get(0).getAdditionalPrinterColumns())
        .extracting(CustomResourceColumnDefinition::getName, CustomResourceColumnDefinition::getJsonPath,
            CustomResourceColumnDefinition::getPriority)
        .containsExactly(
            tuple("Outcome", ".status.outcome", 0),
            tuple("Restarts", ".status.restarts", 0),
            tuple("Suspensions", ".status.suspensions", 0),
            tuple("Message", ".status.conditions[-1:].message", 1),
            tuple("Age", ".metadata.creationTimestamp", null),
            tuple("State", ".status.state", null));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      "replica-specs: widgetReplicaSpecs          | go together",
      "replica-types: Worker                      | go together",
      "replica-specs: gadgetReplicaSpecs, stint.dev/replica-types: Worker | names spec.gadgetReplicaSpecs, which the "
          + "schema does not have",
      "replica-specs: widgetReplicaSpecs, stint.dev/replica-types: 'Worker:many' | the default replicas of Worker "
          + "are not a number",
      "replica-specs: widgetReplicaSpecs, stint.dev/replica-types: 'Worker,,Master' | a replica type is empty",
      "replica-specs: widgetReplicaSpecs, stint.dev/replica-types: 'Worker,Wor-ker' | Wor-ker is not an identifier",
      "replica-specs: widgetReplicaSpecs, stint.dev/replica-types: 'Worker, Worker:0' | Worker is given twice",
      "custom-pod-names: 'true'                   | custom-pod-names means nothing without",
      "replica-specs: widgetReplicaSpecs, stint.dev/replica-types: Worker, stint.dev/custom-pod-names: 'yes' | is "
          + "true or false, not 'yes'"})
  void aHintThatCannotBeAppliedIsAProblem(String hints, String problem) {
    CustomResourceDefinition crd = job("stint.dev/" + hints);

    assertThat(TrainingJobRules.apply(crd)).singleElement().asString().contains(problem);
    assertThat(crd.getMetadata().getAnnotations()).as("the hints are removed all the same").isEmpty();
  }

  @Test
  void aRuleTheKindStillWritesItselfIsAProblem() {
    CustomResourceDefinition crd = TestCrds.crd("annotations: {stint.dev/replica-specs: widgetReplicaSpecs, "
        + "stint.dev/replica-types: Worker}", JOB.replace("{rule: \"true\", message: \"root: own\"}",
            "{rule: \"has(self.spec)\", message: \"spec.widgetReplicaSpecs: must be set\"}"));

    assertThat(TrainingJobRules.apply(crd)).singleElement().asString()
        .contains("'spec.widgetReplicaSpecs: must be set' comes from stint.dev/replica-specs");
  }

  @Test
  void withoutTheHintsNothingChanges() {
    CustomResourceDefinition crd = job("example.com/other: x");

    assertThat(TrainingJobRules.apply(crd)).isEmpty();

    assertThat(messages(TestCrds.rootOf(crd))).containsExactly("root: own");
    assertThat(crd.getSpec().getVersions().get(0).getAdditionalPrinterColumns()).hasSize(2);
    assertThat(crd.getMetadata().getAnnotations()).isEqualTo(Map.of("example.com/other", "x"));
  }

  @Test
  void typesKeepTheirOrderAndDefaults() {
    assertThat(TrainingJobRules.parseTypes("Launcher, Worker :0")).containsExactly(
        Map.entry("Launcher", 1), Map.entry("Worker", 0));
    assertThatThrownBy(() -> TrainingJobRules.parseTypes(":2")).hasMessageContaining("empty");
  }
}
