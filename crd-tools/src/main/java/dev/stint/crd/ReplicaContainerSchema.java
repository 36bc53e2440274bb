package dev.stint.crd;

import dev.stint.spi.api.JobRules;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the CEL rules of a replica-spec map that check every type's containers into checks the API server makes
 * natively, or at the containers list itself.
 *
 * <p>Why: the API server evaluates a CRD's CEL rules on every write of the object, status writes included, and each
 * field a rule reads is looked up through a fresh map of its schema node's properties. A rule on the replica-spec map
 * that reaches {@code self[t].template.spec.containers} goes through the pod spec's forty properties several times
 * per type: with {@link JobRules#EVERY_TYPE_HAS_CONTAINERS}, {@link JobRules#EVERY_CONTAINER_HAS_IMAGE} and a
 * container-name rule, a PyTorchJob's status write cost the API server 6.3 ms of CPU instead of 4.1 ms without them
 * ({@code bench/apicost.sh -mode status}). Native schema checks cost next to nothing, and a rule placed on the
 * containers list reads only the containers.
 *
 * <ul>
 *   <li>{@link JobRules#EVERY_TYPE_HAS_CONTAINERS} becomes {@code required} on {@code template}, its {@code spec} and
 *       {@code containers}, and {@code minItems: 1} on {@code containers};</li>
 *   <li>{@link JobRules#EVERY_CONTAINER_HAS_IMAGE} becomes {@code required} and {@code minLength: 1} on each
 *       container's {@code image};</li>
 *   <li>once containers are required, a rule {@code self.all(t, !(}{@link JobRules#HAS_CONTAINERS}{@code ) ||
 *       self[t].template.spec.containers<rest>)} moves to the containers list as {@code self<rest>}, with its
 *       message.</li>
 * </ul>
 * The API server's refusals then name the very field ({@code spec.pytorchReplicaSpecs.Worker.template.spec
 * .containers[0].image}) where the rules named only the map. Rules written any other way stay where they are.
 */
final class ReplicaContainerSchema {
  private static final String CONTAINERS_OF_T = "self[t].template.spec.containers";
  private static final String GUARDED_PREFIX = "self.all(t, !(" + JobRules.HAS_CONTAINERS + ") || " + CONTAINERS_OF_T;

  private ReplicaContainerSchema() { }

  /**
   * Rewrites the rules of one replica-spec map schema (an object whose {@code additionalProperties} is the replica
   * spec) in place; returns how many rules it took off the map.
   */
  static int apply(JSONSchemaProps replicaSpecs) {
    List<ValidationRule> rules = replicaSpecs.getXKubernetesValidations();
    JSONSchemaProps replica = replicaSpecs.getAdditionalProperties() == null ? null
        : replicaSpecs.getAdditionalProperties().getSchema();
    JSONSchemaProps template = property(replica, "template");
    JSONSchemaProps podSpec = property(template, "spec");
    JSONSchemaProps containers = property(podSpec, "containers");
    JSONSchemaProps container = containers == null ? null : SchemaTree.arrayItems(containers);
    JSONSchemaProps image = property(container, "image");
    if (rules == null || image == null) {
      return 0;
    }
    boolean required = rules.stream().anyMatch(r -> JobRules.EVERY_TYPE_HAS_CONTAINERS.equals(r.getRule()));
    List<ValidationRule> kept = new ArrayList<>();
    List<ValidationRule> onContainers = new ArrayList<>();
    for (ValidationRule rule : rules) {
      String cel = rule.getRule();
      if (JobRules.EVERY_TYPE_HAS_CONTAINERS.equals(cel)) {
        require(replica, "template");
        require(template, "spec");
        require(podSpec, "containers");
        containers.setMinItems(1L);
      } else if (JobRules.EVERY_CONTAINER_HAS_IMAGE.equals(cel)) {
        require(container, "image");
        image.setMinLength(1L);
      } else if (required && cel.startsWith(GUARDED_PREFIX) && cel.endsWith(")")) {
        String rest = cel.substring(GUARDED_PREFIX.length(), cel.length() - 1);
        onContainers.add(new ValidationRule(null, rule.getMessage(), rule.getMessageExpression(), null, null,
            "self" + rest));
      } else {
        kept.add(rule);
      }
    }
    if (!onContainers.isEmpty()) {
      List<ValidationRule> existing = containers.getXKubernetesValidations();
      List<ValidationRule> all = new ArrayList<>(existing == null ? List.of() : existing);
      onContainers.stream().filter(r -> all.stream().noneMatch(e -> e.getRule().equals(r.getRule()))).forEach(all::add);
      containers.setXKubernetesValidations(all);
    }
    replicaSpecs.setXKubernetesValidations(kept.isEmpty() ? null : kept);
    return rules.size() - kept.size();
  }

  private static JSONSchemaProps property(JSONSchemaProps node, String name) {
    return node == null || node.getProperties() == null ? null : node.getProperties().get(name);
  }

  private static void require(JSONSchemaProps node, String property) {
    List<String> required = new ArrayList<>(node.getRequired() == null ? List.of() : node.getRequired());
    if (!required.contains(property)) {
      required.add(property);
    }
    node.setRequired(required);
  }
}
