package dev.stint.tensorflow;

import static dev.stint.spi.testing.LimitCases.name;
import static dev.stint.spi.testing.LimitCases.replicas;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.stint.spi.api.ReplicaLimits;
import dev.stint.spi.crd.CelRuleCheck;
import dev.stint.spi.crd.StructuralSchemaCheck;
import dev.stint.spi.testing.CrdRules;
import dev.stint.spi.testing.LimitCases;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The generated TFJob CRD: upstream's names and columns and no scale subresource; a structural schema the API server
 * accepts; CEL rules that iterate only bounded lists and maps; and the validation the upstream webhook did.
 */
class TFCrdTest {

  private static String yaml;
  private static CustomResourceDefinition crd;
  private static CustomResourceDefinitionVersion v1;
  private static JSONSchemaProps root;
  private static CrdRules rules;

  static final String NAME_TOO_LONG = "metadata.name: too long for its replica names: pod and service names "
      + "(<name>-<type>-<index>) must be no more than 63 characters";
  static final String TOO_MANY_IN_ALL = "spec.tfReplicaSpecs: at most 5000 replicas in all";

  @BeforeAll
  static void load() throws IOException {
    yaml = CrdUpToDateTest.generatedCrd();
    rules = CrdRules.of(yaml);
    crd = new KubernetesSerialization().unmarshal(yaml, CustomResourceDefinition.class);
    v1 = crd.getSpec().getVersions().get(0);
    root = v1.getSchema().getOpenAPIV3Schema();
  }

  @Test
  void namesAndVersionAreUpstreams() {
    assertThat(crd.getMetadata().getName()).isEqualTo("tfjobs.kubeflow.org");
    assertThat(crd.getMetadata().getAnnotations()).as("finisher hints are removed").isNullOrEmpty();
    assertThat(crd.getSpec().getGroup()).isEqualTo("kubeflow.org");
    assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
    assertThat(crd.getSpec().getNames().getKind()).isEqualTo("TFJob");
    assertThat(crd.getSpec().getNames().getPlural()).isEqualTo("tfjobs");
    assertThat(crd.getSpec().getNames().getSingular()).isEqualTo("tfjob");
    assertThat(crd.getSpec().getVersions()).singleElement()
        .satisfies(v -> assertThat(v.getName()).isEqualTo("v1"))
        .satisfies(v -> assertThat(v.getServed()).isTrue())
        .satisfies(v -> assertThat(v.getStorage()).isTrue());
  }

  @Test
  void statusSubresourceAndNoScale() {
    assertThat(v1.getSubresources().getStatus()).isNotNull();
    assertThat(v1.getSubresources().getScale()).isNull();
  }

  @Test
  void printerColumnsInUpstreamOrder() {
    assertThat(v1.getAdditionalPrinterColumns())
        .extracting(CustomResourceColumnDefinition::getName, CustomResourceColumnDefinition::getJsonPath,
            CustomResourceColumnDefinition::getType)
        .containsExactly(
            tuple("State", ".status.conditions[-1:].type", "string"),
            tuple("Outcome", ".status.outcome", "string"),
            tuple("Age", ".metadata.creationTimestamp", "date"));
  }

  @Test
  void schemaIsStructural() {
    assertThat(StructuralSchemaCheck.violations(root)).isEmpty();
    assertThat(yaml).doesNotContain("x-kubernetes-preserve-unknown-fields");
  }

  @Test
  void celRulesIterateOnlyBoundedListsAndMaps() {
    assertThat(CelRuleCheck.violations(root)).isEmpty();
  }

  @Test
  void everyPodTemplateBoundsItsContainers() {
    List<JSONSchemaProps> podSpecs = new ArrayList<>();
    collectPodSpecs(root, podSpecs);

    // the replica template (one schema for every replica type: the map's value schema)
    assertThat(podSpecs).hasSize(1);
    JSONSchemaProps podSpec = node(".spec.tfReplicaSpecs[*].template.spec");
    assertThat(podSpec.getProperties().get("containers").getMaxItems()).isEqualTo(64L);
    assertThat(podSpec.getProperties().get("initContainers").getMaxItems()).isEqualTo(64L);
    assertThat(podSpec.getProperties().get("ephemeralContainers").getMaxItems()).isEqualTo(64L);
  }

  @Test
  void specHasUpstreamFields() {
    JSONSchemaProps spec = node(".spec");
    assertThat(spec.getProperties().keySet())
        .containsExactlyInAnyOrder("runPolicy", "successPolicy", "tfReplicaSpecs", "enableDynamicWorker");
    assertThat(spec.getRequired()).containsExactly("tfReplicaSpecs");
    assertThat(node(".spec.successPolicy").getType()).isEqualTo("string");
    assertThat(node(".spec.enableDynamicWorker").getType()).isEqualTo("boolean");
    JSONSchemaProps replicaSpecs = node(".spec.tfReplicaSpecs");
    assertThat(replicaSpecs.getMinProperties()).isEqualTo(1L);
    assertThat(replicaSpecs.getMaxProperties()).isEqualTo(5L);
    assertThat(node(".spec.tfReplicaSpecs[*]").getProperties().keySet())
        .containsExactlyInAnyOrder("replicas", "template", "restartPolicy");
  }

  @Test
  void upstreamWebhookChecksAreCelRules() {
    assertThat(messages(root)).containsExactly(
        "metadata.name: must be a DNS-1035 label (lower case letters, digits and '-', starting with a letter and "
            + "ending with a letter or digit)",
        "metadata.name: must be no more than 63 characters",
        NAME_TOO_LONG,
        TOO_MANY_IN_ALL,
        "spec.tfReplicaSpecs: must be set",
        "spec.runPolicy.managedBy is immutable",
        "spec.runPolicy.managedBy is immutable");
    assertThat(messages(node(".spec"))).containsExactly(
        "spec.runPolicy.successPolicy.rules: a rule names a replica type the job does not have",
        "spec.runPolicy.successPolicy.rules: each count must be at least 1 and at most the replicas of its type");
    assertThat(messages(node(".spec.successPolicy"))).containsExactly("spec.successPolicy: must be \"\" or AllWorkers");
    assertThat(messages(node(".spec.tfReplicaSpecs"))).containsExactly(
        "spec.tfReplicaSpecs: replica types must be Chief, Master, PS, Worker or Evaluator",
        "spec.tfReplicaSpecs: must not have more than 1 Chief or Master role",
        "spec.tfReplicaSpecs: every replica type needs template.spec.containers with at least one container",
        "spec.tfReplicaSpecs: every container in template.spec.containers needs a non-empty image",
        "spec.tfReplicaSpecs: every replica type needs a container named tensorflow in template.spec.containers",
        "spec.tfReplicaSpecs.Chief.replicas: must be 1",
        "spec.tfReplicaSpecs.Master.replicas: must be 1");
  }

  @Test
  void replicaTypeRuleNamesExactlyTheFrameworkTypes() {
    String rule = node(".spec.tfReplicaSpecs").getXKubernetesValidations().get(0).getRule();
    for (String type : new TensorFlowFramework("").replicaTypes()) {
      assertThat(rule).contains("'" + type + "'");
    }
  }

  @Test
  void replicasPerTypeAreBounded() {
    assertThat(node(".spec.tfReplicaSpecs[*].replicas").getMaximum()).isEqualTo((double) ReplicaLimits.MAX_PER_TYPE);
  }

  /**
   * The longest child name is {@code <name>-<type>-<last index>}, for every type present: {@code -chief-0} adds 8
   * characters, {@code -evaluator-0} 12, {@code -ps-9} 5, {@code -worker-99} 10. Replicas default to 1.
   */
  static Stream<Arguments> limits() {
    return Stream.of(
        Arguments.of("Chief and PS, name of 55 (chief-0 at 63)", name(55), replicas("Chief", 1, "PS", 1), List.of()),
        Arguments.of("Chief and PS, name of 56", name(56), replicas("Chief", 1, "PS", 1), List.of(NAME_TOO_LONG)),
        Arguments.of("Chief and a Worker, name of 55: worker-0 is 64", name(55), replicas("Chief", 1, "Worker", 1),
            List.of(NAME_TOO_LONG)),
        Arguments.of("Evaluator unset replicas, name of 51", name(51), replicas("Evaluator", null, "Worker", 1),
            List.of()),
        Arguments.of("Evaluator unset replicas, name of 52", name(52), replicas("Evaluator", null, "Worker", 1),
            List.of(NAME_TOO_LONG)),
        Arguments.of("10 PS, 100 Workers, name of 53", name(53), replicas("PS", 10, "Worker", 100), List.of()),
        Arguments.of("10 PS, 100 Workers, name of 54: worker-99 is 64", name(54), replicas("PS", 10, "Worker", 100),
            List.of(NAME_TOO_LONG)),
        Arguments.of("10 PS only, name of 58 (ps-9 at 63)", name(58), replicas("PS", 10), List.of()),
        Arguments.of("10 PS only, name of 59", name(59), replicas("PS", 10), List.of(NAME_TOO_LONG)),
        Arguments.of("5000 Workers", "big", replicas("Worker", 5000), List.of()),
        Arguments.of("5001 Workers", "big", replicas("Worker", 5001),
            List.of("spec.tfReplicaSpecs.Worker.replicas: should be less than or equal to 5000", TOO_MANY_IN_ALL)),
        Arguments.of("2500 PS + 2500 Workers: 5000 in all", "sum", replicas("PS", 2500, "Worker", 2500), List.of()),
        Arguments.of("Chief + 2500 PS + 2500 Workers: 5001 in all", "sum",
            replicas("Chief", 1, "PS", 2500, "Worker", 2500), List.of(TOO_MANY_IN_ALL)),
        Arguments.of("Evaluator unset counts as 1 in the sum", "sum", replicas("Evaluator", null, "Worker", 5000),
            List.of(TOO_MANY_IN_ALL)),
        Arguments.of("negative PS", "neg", replicas("PS", -1, "Worker", 1),
            List.of("spec.tfReplicaSpecs.PS.replicas: should be greater than or equal to 0")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("limits")
  void knownLimitsAreRefusedUpFront(String title, String name, Map<String, Integer> replicas, List<String> errors) {
    assertThat(rules.errors(job(name, replicas))).containsExactlyInAnyOrderElementsOf(errors);
  }

  /** A TFJob that is valid apart from its name and replicas. */
  static String job(String name, Map<String, Integer> replicas) {
    return LimitCases.job("kubeflow.org/v1", "TFJob", "tfReplicaSpecs", "tensorflow", name, replicas);
  }

  @Test
  void runPolicyRulesComeFromTheSpi() {
    assertThat(messages(node(".spec.runPolicy")))
        .containsExactly("spec.runPolicy.managedBy is immutable", "spec.runPolicy.managedBy is immutable");
    assertThat(messages(node(".spec.runPolicy.schedulingPolicy")))
        .containsExactly("spec.runPolicy.schedulingPolicy.queue is immutable");
    assertThat(node(".spec.runPolicy.suspend").getDefault().asBoolean(true)).isFalse();
  }

  @Test
  void smallEnoughForAnyApply() throws IOException {
    byte[] json = new KubernetesSerialization().asJson(crd).getBytes(StandardCharsets.UTF_8);
    // kubectl's client-side apply keeps the object in a 256 KiB annotation; server-side apply has no such limit
    assertThat(json.length).isLessThan(256 * 1024);
  }

  /** The schema node at a path such as {@code .spec.tfReplicaSpecs[*].template}. */
  private static JSONSchemaProps node(String path) {
    JSONSchemaProps node = root;
    for (String part : path.substring(1).split("\\.")) {
      boolean each = part.endsWith("[*]");
      String name = each ? part.substring(0, part.length() - 3) : part;
      node = node.getProperties().get(name);
      assertThat(node).as("schema node %s of %s", name, path).isNotNull();
      if (each) node = node.getItems() != null ? node.getItems().getSchema() : node.getAdditionalProperties().getSchema();
    }
    return node;
  }

  private static List<String> messages(JSONSchemaProps node) {
    return node.getXKubernetesValidations().stream().map(ValidationRule::getMessage).toList();
  }

  private static void collectPodSpecs(JSONSchemaProps node, List<JSONSchemaProps> found) {
    if (node == null) return;
    if (node.getProperties() != null && node.getProperties().containsKey("containers")) found.add(node);
    if (node.getProperties() != null) node.getProperties().values().forEach(child -> collectPodSpecs(child, found));
    if (node.getAdditionalProperties() != null) collectPodSpecs(node.getAdditionalProperties().getSchema(), found);
    if (node.getItems() != null) collectPodSpecs(node.getItems().getSchema(), found);
  }
}
