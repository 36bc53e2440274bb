package dev.stint.crd;

import dev.stint.spi.api.CrdHints;
import dev.stint.spi.api.JobRules;
import dev.stint.spi.api.ReplicaLimits;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRuleBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Adds what every training job's CRD has, from the hints {@link CrdHints#REPLICA_SPECS},
 * {@link CrdHints#REPLICA_TYPES} and {@link CrdHints#CUSTOM_POD_NAMES}, and removes the hints. Each kind used to write
 * these as its own {@code @ValidationRule}s; Java annotations take only constants, so a rule that names the kind's
 * field had to be spelled out once per kind. The rules and messages are the same as those were, in the same places:
 *
 * <ul>
 *   <li>the engine's printer columns State, Outcome and Age, first (a column the kind declares under one of these
 *       names is kept instead, after them);</li>
 *   <li>root rules, before the kind's own: the name is a DNS-1035 label and, with the engine's pod names
 *       ({@code <name>-<type>-<index>}), at most 63 characters;</li>
 *   <li>root rules, after the kind's own: with the engine's pod names, the longest of them fits a DNS label; the
 *       replicas summed over the types are at most {@link ReplicaLimits#MAX_PER_JOB}; {@code spec} is set;
 *       {@code runPolicy.managedBy} is neither added nor dropped; {@code runPolicy.serviceMode} (where the run policy
 *       has it) keeps its value, also when {@code runPolicy} is added or removed;</li>
 *   <li>{@code spec} rules, after the kind's own: success rules name only the kind's replica types, with counts from 1
 *       to the type's replicas; failure rules target only the kind's replica types;</li>
 *   <li>the kind's container rules on the replica-spec map, made native schema checks or moved to the containers
 *       list ({@link ReplicaContainerSchema}).</li>
 * </ul>
 * Unset replicas count as each type's default from {@link CrdHints#REPLICA_TYPES}, as the engine counts them.
 */
public final class TrainingJobRules {
  private static final String NAME_FIELD = ".metadata.name";
  private static final String INVALID = "FieldValueInvalid";
  /** A replica type is a key of the map that CEL reads as a field ({@code self.spec.x.Worker}): an identifier. */
  private static final Pattern TYPE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final String SUCCESS_RULES_FIELD = ".runPolicy.successPolicy.rules";
  private static final String FAILURE_RULES_FIELD = ".runPolicy.failurePolicy.rules";

  private final String field;
  private final Map<String, Integer> defaults;
  private final boolean enginePodNames;

  private TrainingJobRules(String field, Map<String, Integer> defaults, boolean enginePodNames) {
    this.field = field;
    this.defaults = defaults;
    this.enginePodNames = enginePodNames;
  }

  /** Applies the hints to every version, and takes them off the CRD; returns the problems of hints not applied. */
  static List<String> apply(CustomResourceDefinition crd) {
    Map<String, String> hints =
        HintAnnotations.take(crd, CrdHints.REPLICA_SPECS, CrdHints.REPLICA_TYPES, CrdHints.CUSTOM_POD_NAMES);
    String field = hints.get(CrdHints.REPLICA_SPECS);
    String types = hints.get(CrdHints.REPLICA_TYPES);
    String customPodNames = hints.get(CrdHints.CUSTOM_POD_NAMES);
    String name = crd.getMetadata().getName();
    if (field == null && types == null) {
      return customPodNames == null ? List.of()
          : List.of(name + ": " + CrdHints.CUSTOM_POD_NAMES + " means nothing without " + CrdHints.REPLICA_SPECS);
    }
    if (field == null || types == null) {
      return List.of(name + ": " + CrdHints.REPLICA_SPECS + " and " + CrdHints.REPLICA_TYPES + " go together");
    }
    if (customPodNames != null && !customPodNames.equals("true") && !customPodNames.equals("false")) {
      return List.of(name + ": " + CrdHints.CUSTOM_POD_NAMES + " is true or false, not '" + customPodNames + "'");
    }
    Map<String, Integer> defaults;
    try {
      defaults = parseTypes(types);
    } catch (IllegalArgumentException e) {
      return List.of(name + ": " + CrdHints.REPLICA_TYPES + "=" + types + ": " + e.getMessage());
    }
    TrainingJobRules rules = new TrainingJobRules(field, defaults, !"true".equals(customPodNames));
    List<ValidationRule> rootFirst = rules.rootFirst();
    List<ValidationRule> rootLast = rules.rootLast();
    List<ValidationRule> specLast = rules.specLast();
    List<String> problems = new ArrayList<>();
    for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
      rules.addColumns(version);
      JSONSchemaProps root = version.getSchema() == null ? null : version.getSchema().getOpenAPIV3Schema();
      JSONSchemaProps spec = root == null || root.getProperties() == null ? null : root.getProperties().get("spec");
      if (spec == null || spec.getProperties() == null || !spec.getProperties().containsKey(field)) {
        problems.add(name + " " + version.getName() + ": " + CrdHints.REPLICA_SPECS + " names spec." + field
            + ", which the schema does not have");
        continue;
      }
      List<ValidationRule> last = withServiceMode(rootLast, spec);
      problems.addAll(twice(name, root.getXKubernetesValidations(), rootFirst, last));
      problems.addAll(twice(name, spec.getXKubernetesValidations(), specLast));
      root.setXKubernetesValidations(around(root.getXKubernetesValidations(), rootFirst, last));
      spec.setXKubernetesValidations(around(spec.getXKubernetesValidations(), List.of(), specLast));
      ReplicaContainerSchema.apply(spec.getProperties().get(field));
    }
    return problems;
  }

  /**
   * The value of {@link CrdHints#REPLICA_TYPES}, {@code Master,Worker:0}: the types in order, each with its default
   * replicas (1 unless given).
   *
   * @throws IllegalArgumentException when a type is empty, not an identifier or given twice, or a default is not a
   *     number
   */
  public static Map<String, Integer> parseTypes(String hint) {
    Map<String, Integer> defaults = new LinkedHashMap<>();
    for (String entry : hint.split(",")) {
      String[] parts = entry.split(":", 2);
      String type = parts[0].trim();
      if (type.isEmpty()) throw new IllegalArgumentException("a replica type is empty");
      if (!TYPE.matcher(type).matches()) throw new IllegalArgumentException(type + " is not an identifier");
      int byDefault;
      try {
        byDefault = parts.length == 1 ? 1 : Integer.parseInt(parts[1].trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("the default replicas of " + type + " are not a number");
      }
      if (defaults.put(type, byDefault) != null) throw new IllegalArgumentException(type + " is given twice");
    }
    return defaults;
  }

  /** A rule the kind wrote itself that the hints add as well: the kind still carries what the hints now give. */
  @SafeVarargs
  private static List<String> twice(String crd, List<ValidationRule> own, List<ValidationRule>... added) {
    if (own == null) return List.of();
    List<String> problems = new ArrayList<>();
    for (List<ValidationRule> rules : added) {
      for (ValidationRule rule : rules) {
        if (own.stream().anyMatch(o -> rule.getRule().equals(o.getRule()))) {
          problems.add(crd + ": the rule '" + rule.getMessage() + "' comes from " + CrdHints.REPLICA_SPECS
              + "; remove the kind's own @ValidationRule");
        }
      }
    }
    return problems;
  }

  private void addColumns(CustomResourceDefinitionVersion version) {
    List<CustomResourceColumnDefinition> columns = new ArrayList<>();
    columns.add(column("State", ".status.conditions[-1:].type", "string", 0));
    columns.add(column("Outcome", ".status.outcome", "string", 0));
    // what a user asks first of a job that is not simply running: how often it restarted its gang or was suspended
    columns.add(column("Restarts", ".status.restarts", "integer", 0));
    columns.add(column("Suspensions", ".status.suspensions", "integer", 0));
    columns.add(column("Age", ".metadata.creationTimestamp", "date", 0));
    // -o wide: why it waits, failed or is restarting (the message of the condition that changed last)
    columns.add(column("Message", ".status.conditions[-1:].message", "string", 1));
    List<CustomResourceColumnDefinition> declared = version.getAdditionalPrinterColumns();
    if (declared != null) {
      columns.removeIf(c -> declared.stream().anyMatch(d -> d.getName().equals(c.getName())));
      columns.addAll(declared);
    }
    version.setAdditionalPrinterColumns(columns);
  }

  private List<ValidationRule> rootFirst() {
    List<ValidationRule> rules = new ArrayList<>();
    // reported at the name, not at the object (kubectl would print "<nil>: Invalid value")
    rules.add(rule(JobRules.NAME_IS_DNS_LABEL, JobRules.NAME_IS_DNS_LABEL_MESSAGE, NAME_FIELD, null));
    if (enginePodNames) rules.add(rule(JobRules.NAME_FITS, JobRules.NAME_FITS_MESSAGE, NAME_FIELD, null));
    return rules;
  }

  private List<ValidationRule> rootLast() {
    String specs = "self.spec." + field;
    String present = "!has(self.spec) || !has(" + specs + ") || ";
    List<ValidationRule> rules = new ArrayList<>();
    if (enginePodNames) {
      String replicasOfT = "(has(" + specs + "[t].replicas) ? " + specs + "[t].replicas : " + defaultOfT() + ")";
      rules.add(rule(present + specs + ".all(t, size(self.metadata.name) + 1 + size(t) + 1 + size(string("
              + replicasOfT + " > 1 ? " + replicasOfT + " - 1 : 0)) <= " + ReplicaLimits.MAX_NAME + ")",
          "metadata.name: too long for its replica names: pod and service names (<name>-<type>-<index>) must be no "
              + "more than " + ReplicaLimits.MAX_NAME + " characters", ".metadata.name", INVALID));
    }
    String sum = defaults.entrySet().stream().map(e -> replicasOf(specs + "." + e.getKey(), e.getValue()))
        .collect(Collectors.joining(" + "));
    rules.add(rule(present + sum + " <= " + ReplicaLimits.MAX_PER_JOB,
        "spec." + field + ": at most " + ReplicaLimits.MAX_PER_JOB + " replicas in all", ".spec." + field, INVALID));
    rules.add(rule("has(self.spec)", "spec." + field + ": must be set", ".spec", "FieldValueRequired"));
    rules.add(rule(JobRules.MANAGED_BY_NOT_ADDED, JobRules.MANAGED_BY_IMMUTABLE, JobRules.MANAGED_BY_FIELD, INVALID));
    rules.add(rule(JobRules.MANAGED_BY_NOT_DROPPED, JobRules.MANAGED_BY_IMMUTABLE, JobRules.MANAGED_BY_FIELD, INVALID));
    return rules;
  }

  /**
   * With the rule that keeps {@code runPolicy.serviceMode}, when the kind's run policy has it (the SPI's has) and it
   * can take more than one value: an MPIJob's may only be {@code PerJob}, the same as unset, so nothing can change.
   */
  private static List<ValidationRule> withServiceMode(List<ValidationRule> rules, JSONSchemaProps spec) {
    JSONSchemaProps runPolicy = spec.getProperties().get("runPolicy");
    JSONSchemaProps mode = runPolicy == null || runPolicy.getProperties() == null ? null
        : runPolicy.getProperties().get("serviceMode");
    if (mode == null || oneValue(mode)) {
      return rules;
    }
    List<ValidationRule> with = new ArrayList<>(rules);
    with.add(rule(JobRules.SERVICE_MODE_KEPT, JobRules.SERVICE_MODE_IMMUTABLE, JobRules.SERVICE_MODE_FIELD, INVALID));
    return with;
  }

  /** Whether a string field may hold one value only: an enum of one, or a rule {@code self == '<value>'}. */
  private static boolean oneValue(JSONSchemaProps field) {
    if (field.getEnum() != null && field.getEnum().size() == 1) {
      return true;
    }
    List<ValidationRule> own = field.getXKubernetesValidations();
    return own != null && own.stream().anyMatch(r -> r.getRule() != null && r.getRule().matches("self == '[^']*'"));
  }

  private List<ValidationRule> specLast() {
    String specs = "self." + field;
    return List.of(
        rule(JobRules.SUCCESS_RULES + ".all(r, r.succeeded.all(t, has(" + specs + ") && t in " + specs + "))",
            "spec.runPolicy.successPolicy.rules: a rule names a replica type the job does not have",
            SUCCESS_RULES_FIELD, null),
        rule(JobRules.SUCCESS_RULES + ".all(r, r.succeeded.all(t, r.succeeded[t] >= 1 && (!has(" + specs + ") || !(t in "
                + specs + ") || r.succeeded[t] <= (has(" + specs + "[t].replicas) ? " + specs + "[t].replicas : "
                + defaultOfT() + "))))",
            "spec.runPolicy.successPolicy.rules: each count must be at least 1 and at most the replicas of its type",
            SUCCESS_RULES_FIELD, null),
        rule(JobRules.FAILURE_RULES + ".all(r, !has(r.targetReplicaTypes) || r.targetReplicaTypes.all(t, has("
                + specs + ") && t in " + specs + "))",
            "spec.runPolicy.failurePolicy.rules: a rule's targetReplicaTypes names a replica type the job does not "
                + "have", FAILURE_RULES_FIELD, null));
  }

  /** CEL: the replicas of one type, its default when unset, 0 without the type. */
  private static String replicasOf(String type, int byDefault) {
    if (byDefault == 0) return "(has(" + type + ") && has(" + type + ".replicas) ? " + type + ".replicas : 0)";
    return "(has(" + type + ") ? (has(" + type + ".replicas) ? " + type + ".replicas : " + byDefault + ") : 0)";
  }

  /** CEL, for a type {@code t}: its default replicas; the last type's default stands for every type not named. */
  private String defaultOfT() {
    List<Map.Entry<String, Integer>> entries = List.copyOf(defaults.entrySet());
    int fallback = entries.get(entries.size() - 1).getValue();
    StringBuilder open = new StringBuilder();
    StringBuilder close = new StringBuilder();
    for (Map.Entry<String, Integer> e : entries) {
      if (e.getValue() == fallback) continue;
      open.append("(t == '").append(e.getKey()).append("' ? ").append(e.getValue()).append(" : ");
      close.append(')');
    }
    return open + String.valueOf(fallback) + close;
  }

  private static List<ValidationRule> around(List<ValidationRule> own, List<ValidationRule> first,
      List<ValidationRule> last) {
    List<ValidationRule> rules = new ArrayList<>(first);
    if (own != null) rules.addAll(own);
    rules.addAll(last);
    return rules;
  }

  private static ValidationRule rule(String cel, String message, String fieldPath, String reason) {
    return new ValidationRuleBuilder().withRule(cel).withMessage(message).withFieldPath(fieldPath).withReason(reason)
        .build();
  }

  private static CustomResourceColumnDefinition column(String name, String jsonPath, String type, int priority) {
    return new CustomResourceColumnDefinitionBuilder().withName(name).withJsonPath(jsonPath).withType(type)
        .withPriority(priority).build();
  }
}
