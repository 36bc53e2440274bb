package dev.stint.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CrdFinisherTest {

  /** Two pod templates in different places, and a rule that scans the containers of one of them. */
  private static final String TWO_POD_TEMPLATES = """
      type: object
      properties:
        spec:
          type: object
          properties:
            launcher:
              type: object
              properties:
                template:
                  type: object
                  properties:
                    spec:
      %s
              x-kubernetes-validations:
              - rule: "self.template.spec.containers.all(c, has(c.image))"
                message: "spec.launcher: every container needs an image"
            workers:
              type: array
              maxItems: 4
              items:
                type: object
                properties:
                  podSpec:
      %s
      """.formatted(TestCrds.podSpec().indent(16).stripTrailing(), TestCrds.podSpec().indent(14).stripTrailing());

  private static final String SCALE_HINTS = """
      annotations:
        stint.dev/scale-spec-replicas-path: .spec.replicaSpecs.Worker.replicas
        stint.dev/scale-status-replicas-path: .status.replicaStatuses.Worker.active
        stint.dev/scale-label-selector-path: .status.replicaStatuses.Worker.selector
        stint.dev/printer-column-order: State,Age
        example.com/kept: "yes"
      """;

  @Test
  void boundsTheContainersOfEveryPodTemplate() {
    CustomResourceDefinition crd = TestCrds.crd(TWO_POD_TEMPLATES);
    assertThat(CrdFinisher.problems(crd)).singleElement().asString()
        .contains("self.template.spec.containers", "is a list without maxItems");

    assertThat(CrdFinisher.finish(crd)).isEmpty();

    JSONSchemaProps spec = TestCrds.rootOf(crd).getProperties().get("spec");
    JSONSchemaProps launcherPod = spec.getProperties().get("launcher").getProperties().get("template")
        .getProperties().get("spec");
    JSONSchemaProps workerPod = spec.getProperties().get("workers").getItems().getSchema().getProperties()
        .get("podSpec");
    for (JSONSchemaProps pod : new JSONSchemaProps[] {launcherPod, workerPod}) {
      assertThat(pod.getProperties().get("containers").getMaxItems()).isEqualTo(PodTemplateBounds.MAX_CONTAINERS);
      assertThat(pod.getProperties().get("initContainers").getMaxItems()).isEqualTo(PodTemplateBounds.MAX_CONTAINERS);
    }
  }

  @Test
  void keepsABoundThatIsAlreadySet() {
    CustomResourceDefinition crd = TestCrds.crd(TWO_POD_TEMPLATES);
    JSONSchemaProps launcherContainers = TestCrds.rootOf(crd).getProperties().get("spec").getProperties()
        .get("launcher").getProperties().get("template").getProperties().get("spec").getProperties().get("containers");
    launcherContainers.setMaxItems(3L);

    CrdFinisher.finish(crd);

    assertThat(launcherContainers.getMaxItems()).isEqualTo(3L);
  }

  @Test
  void scaleAndColumnHintsBecomeTheCrdAndDisappear() {
    CustomResourceDefinition crd = TestCrds.crd(SCALE_HINTS, "type: object");

    assertThat(CrdFinisher.finish(crd)).isEmpty();

    var version = crd.getSpec().getVersions().get(0);
    assertThat(version.getSubresources().getStatus()).isNotNull();
    assertThat(version.getSubresources().getScale().getSpecReplicasPath())
        .isEqualTo(".spec.replicaSpecs.Worker.replicas");
    assertThat(version.getSubresources().getScale().getStatusReplicasPath())
        .isEqualTo(".status.replicaStatuses.Worker.active");
    assertThat(version.getSubresources().getScale().getLabelSelectorPath())
        .isEqualTo(".status.replicaStatuses.Worker.selector");
    assertThat(version.getAdditionalPrinterColumns()).extracting(CustomResourceColumnDefinition::getName)
        .containsExactly("State", "Age");
    assertThat(crd.getMetadata().getAnnotations()).containsOnlyKeys("example.com/kept");
  }

  @Test
  void aScalePathWithoutItsPartnerIsAProblem() {
    CustomResourceDefinition crd = TestCrds.crd(
        "annotations: {stint.dev/scale-spec-replicas-path: .spec.replicas}", "type: object");

    assertThat(CrdFinisher.finish(crd)).singleElement().asString().contains("needs both");
    assertThat(crd.getMetadata().getAnnotations()).isNull();
  }

  @Test
  void finishingIsDeterministicAndIdempotent() {
    CustomResourceDefinition once = TestCrds.crd(SCALE_HINTS, TWO_POD_TEMPLATES);
    CrdFinisher.finish(once);
    String yaml = CrdFinisher.toYaml(once);

    CustomResourceDefinition twice = new KubernetesSerialization().unmarshal(yaml, CustomResourceDefinition.class);
    CrdFinisher.finish(twice);

    assertThat(CrdFinisher.toYaml(twice)).isEqualTo(yaml);
    assertThat(yaml).startsWith("# Generated by the fabric8 CRD generator").doesNotContain("\n---");
  }

  @Test
  void aRootRuleAboutTheNameGetsMetadataNameDeclared() {
    CustomResourceDefinition crd = TestCrds.crd("""
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
        x-kubernetes-validations:
        - rule: "size(self.metadata.name) + self.spec.size <= 63"
          message: "metadata.name: too long"
          fieldPath: ".metadata.name"
          reason: FieldValueInvalid
        """);

    assertThat(CrdFinisher.problems(crd)).singleElement().asString()
        .contains("fieldPath .metadata.name is not a field of the schema");
    assertThat(CrdFinisher.finish(crd)).isEmpty();
    JSONSchemaProps root = TestCrds.rootOf(crd);
    assertThat(root.getProperties()).containsOnlyKeys("metadata", "spec");
    assertThat(root.getProperties().get("metadata").getType()).isEqualTo("object");
    assertThat(root.getProperties().get("metadata").getProperties()).containsOnlyKeys("name");
    assertThat(root.getProperties().get("metadata").getProperties().get("name").getType()).isEqualTo("string");
    assertThat(StructuralSchemaCheck.violations(root)).isEmpty();
  }

  @Test
  void mainFinishesTheFilesInPlace(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("widgets.example.com-v1.yml");
    Files.writeString(file, new KubernetesSerialization().asYaml(TestCrds.crd(SCALE_HINTS, TWO_POD_TEMPLATES)));
    Path other = Files.writeString(dir.resolve("notes.txt"), "left alone");

    CrdFinisher.main(new String[] {dir.toString()});

    assertThat(Files.readString(file)).contains("maxItems: 64", "specReplicasPath: \".spec.replicaSpecs.Worker.replicas\"")
        .doesNotContain("stint.dev/");
    assertThat(Files.readString(other)).isEqualTo("left alone");
  }

  @Test
  void mainFailsOnACrdTheApiServerWouldRefuse(@TempDir Path dir) throws IOException {
    String unbounded = """
        type: object
        properties:
          spec:
            type: object
            properties:
              tags:
                type: array
                items: {type: string}
            x-kubernetes-validations:
            - rule: "self.tags.all(t, t != '')"
              message: "spec.tags: no empty tag"
          status: {}
        """;
    Files.writeString(dir.resolve("widgets.example.com-v1.yml"),
        new KubernetesSerialization().asYaml(TestCrds.crd(unbounded)));

    assertThatThrownBy(() -> CrdFinisher.main(new String[] {dir.toString()}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("widgets.example.com-v1.yml: v1 .spec: self.tags.all(t, t != ''): self.tags is a list "
            + "without maxItems")
        .hasMessageContaining("widgets.example.com-v1.yml: v1 .status: type is missing");
  }

  @Test
  void mainNeedsGeneratedCrds(@TempDir Path dir) {
    assertThatThrownBy(() -> CrdFinisher.main(new String[] {dir.toString()}))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("run the CRD generator first");
    assertThatThrownBy(() -> CrdFinisher.main(new String[0])).isInstanceOf(IllegalArgumentException.class);
  }
}
