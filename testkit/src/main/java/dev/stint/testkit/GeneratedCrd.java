package dev.stint.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The CRD this build generated and finished (fabric8's generator and {@code dev.stint.crd.CrdFinisher} write it into
 * {@code target/classes/META-INF/fabric8/}), read once per test run, with the lookups CRD tests need.
 */
public final class GeneratedCrd {
  private static final Map<String, GeneratedCrd> LOADED = new ConcurrentHashMap<>();

  private final String yaml;
  private final CustomResourceDefinition crd;
  private CrdRules rules;

  private GeneratedCrd(String yaml) {
    this.yaml = yaml;
    this.crd = new KubernetesSerialization().unmarshal(yaml, CustomResourceDefinition.class);
  }

  /** The generated CRD of that file name ({@code pytorchjobs.kubeflow.org-v1.yml}), from the class path. */
  public static GeneratedCrd load(String file) {
    return LOADED.computeIfAbsent(file, f -> new GeneratedCrd(read(f)));
  }

  private static String read(String file) {
    try (InputStream in = GeneratedCrd.class.getResourceAsStream("/META-INF/fabric8/" + file)) {
      assertThat(in).as("generated CRD %s on the class path (run the CRD generator first)", file).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public String yaml() { return yaml; }

  public CustomResourceDefinition crd() { return crd; }

  /** The first (for Stint's kinds: the only) version. */
  public CustomResourceDefinitionVersion version() { return crd.getSpec().getVersions().get(0); }

  /** The root schema of the first version. */
  public JSONSchemaProps root() { return version().getSchema().getOpenAPIV3Schema(); }

  /** The rules of the first version, evaluated offline. */
  public synchronized CrdRules rules() {
    if (rules == null) {
      rules = CrdRules.of(yaml);
    }
    return rules;
  }

  /**
   * The schema node at a path such as {@code .spec.pytorchReplicaSpecs[*].template}: {@code [*]} steps into a list's
   * items or a map's values. Fails the test when a step is missing.
   */
  public JSONSchemaProps node(String path) {
    JSONSchemaProps node = root();
    for (String part : path.substring(1).split("\\.")) {
      boolean each = part.endsWith("[*]");
      String name = each ? part.substring(0, part.length() - 3) : part;
      node = node.getProperties().get(name);
      assertThat(node).as("schema node %s of %s", name, path).isNotNull();
      if (each) {
        node = node.getItems() != null ? node.getItems().getSchema() : node.getAdditionalProperties().getSchema();
      }
    }
    return node;
  }

  /** The messages of a node's CEL rules, in order. */
  public static List<String> messages(JSONSchemaProps node) {
    return node.getXKubernetesValidations().stream().map(ValidationRule::getMessage).toList();
  }

  /** The values a node's {@code enum} allows, in order; empty when it has none. */
  public static List<String> enumValues(JSONSchemaProps node) {
    return node.getEnum() == null ? List.of() : node.getEnum().stream().map(v -> v.asText()).toList();
  }

  /** Every schema node that declares {@code containers}: the pod specs of the kind's templates. */
  public List<JSONSchemaProps> podSpecs() {
    List<JSONSchemaProps> found = new ArrayList<>();
    collectPodSpecs(root(), found);
    return found;
  }

  private static void collectPodSpecs(JSONSchemaProps node, List<JSONSchemaProps> found) {
    if (node == null) {
      return;
    }
    if (node.getProperties() != null) {
      if (node.getProperties().containsKey("containers")) {
        found.add(node);
      }
      node.getProperties().values().forEach(child -> collectPodSpecs(child, found));
    }
    if (node.getAdditionalProperties() != null) {
      collectPodSpecs(node.getAdditionalProperties().getSchema(), found);
    }
    if (node.getItems() != null) {
      collectPodSpecs(node.getItems().getSchema(), found);
    }
  }
}
