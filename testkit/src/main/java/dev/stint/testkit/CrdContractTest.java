package dev.stint.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.crd.CelRuleCheck;
import dev.stint.crd.StructuralSchemaCheck;
import dev.stint.spi.api.JobRules;
import dev.stint.spi.api.ReplicaLimits;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * What every kind's CRD must be, built-in or plugin: extend it with the kind's names and add the kind's own checks
 * (its fields, its rules) using {@link #crd()}.
 *
 * <pre>{@code
 * class JAXJobCrdTest extends CrdContractTest {
 *   JAXJobCrdTest() { super("kubeflow.org", "JAXJob", "jaxjobs", "v1"); }
 * }
 * }</pre>
 *
 * <ul>
 *   <li>the names: {@code <plural>.<group>}, the kind, its plural and singular (the kind in lower case), namespaced,
 *       the one version served and stored;</li>
 *   <li>the copy checked in (what users {@code kubectl apply}) equals the one this build generated and finished from
 *       the classes; {@code -Dstint.crds.update=true} refreshes it;</li>
 *   <li>the schema is structural and keeps no unknown fields; every CEL rule iterates only bounded lists and maps;
 *       every pod template bounds its container lists (what keeps the rules within the API server's cost budget);</li>
 *   <li>a status subresource; the engine's columns State, Outcome, Age; the run policy's rules from the SPI; the
 *       rules every training job has ({@code CrdHints.REPLICA_SPECS}: a DNS-1035 name, the replicas in all, spec
 *       required, managedBy immutable, success rules over the kind's types); small enough for any kind of apply.</li>
 * </ul>
 */
public abstract class CrdContractTest {
  private static final String REFRESH = "mvn -B verify -Dstint.crds.update=true";

  /** The message of the rule that fits the engine's pod names in a DNS label, for a kind's table of limits. */
  protected static final String NAME_TOO_LONG = "metadata.name: too long for its replica names: pod and service names "
      + "(<name>-<type>-<index>) must be no more than " + ReplicaLimits.MAX_NAME + " characters";

  private final String group;
  private final String kind;
  private final String plural;
  private final String version;

  /**
   * @param group the API group, {@code kubeflow.org}
   * @param kind the kind, {@code JAXJob}
   * @param plural the plural resource name, {@code jaxjobs}
   * @param version the one version the CRD serves, {@code v1}
   */
  protected CrdContractTest(String group, String kind, String plural, String version) {
    this.group = group;
    this.kind = kind;
    this.plural = plural;
    this.version = version;
  }

  /**
   * The generator's file name under {@code META-INF/fabric8/}: {@code <plural>.<group>-v1.yml}, after the
   * {@code apiextensions.k8s.io/v1} CRD it holds, whatever version the kind serves.
   */
  protected String generatedFile() {
    return plural + "." + group + "-v1.yml";
  }

  /** The checked-in copy's file name: {@code <plural>.<group>-<version>.yml}, after the version the kind serves. */
  protected String checkedInFile() {
    return plural + "." + group + "-" + version + ".yml";
  }

  /**
   * Where the checked-in copy lives: {@link #checkedInFile()} in the directory named by the system property
   * {@code stint.crds.dir}, else in {@code crds/} under the working directory (a plugin project's root, where surefire
   * runs).
   */
  protected Path checkedInCrd() {
    String dir = System.getProperty("stint.crds.dir");
    return (dir == null ? Path.of("crds") : Path.of(dir)).resolve(checkedInFile());
  }

  /** The generated CRD, with schema lookups. */
  protected GeneratedCrd crd() {
    return GeneratedCrd.load(generatedFile());
  }

  @Test
  void namesAndVersionAreTheKinds() {
    var spec = crd().crd().getSpec();
    assertThat(crd().crd().getMetadata().getName()).isEqualTo(plural + "." + group);
    assertThat(spec.getGroup()).isEqualTo(group);
    assertThat(spec.getScope()).isEqualTo("Namespaced");
    assertThat(spec.getNames().getKind()).isEqualTo(kind);
    assertThat(spec.getNames().getPlural()).isEqualTo(plural);
    assertThat(spec.getNames().getSingular()).isEqualTo(kind.toLowerCase(Locale.ROOT));
    assertThat(spec.getVersions()).singleElement()
        .satisfies(v -> assertThat(v.getName()).isEqualTo(version))
        .satisfies(v -> assertThat(v.getServed()).isTrue())
        .satisfies(v -> assertThat(v.getStorage()).isTrue());
  }

  @Test
  void checkedInCrdEqualsTheGeneratedOne() throws IOException {
    String generated = crd().yaml();
    Path checkedIn = checkedInCrd();
    if (Boolean.getBoolean("stint.crds.update")) {
      Files.createDirectories(checkedIn.toAbsolutePath().getParent());
      Files.writeString(checkedIn, generated, StandardCharsets.UTF_8);
    }
    assertThat(checkedIn).withFailMessage("%s is missing; create it with: %s", checkedIn, REFRESH).exists();
    String current = Files.readString(checkedIn, StandardCharsets.UTF_8);
    assertThat(current.equals(generated))
        .withFailMessage("%s differs from the generated CRD (first difference at line %d); refresh it with: %s",
            checkedIn, firstDifferentLine(current, generated), REFRESH)
        .isTrue();
  }

  @Test
  void schemaIsStructural() {
    assertThat(StructuralSchemaCheck.violations(crd().root())).isEmpty();
    assertThat(crd().yaml()).doesNotContain("x-kubernetes-preserve-unknown-fields");
  }

  @Test
  void celRulesIterateOnlyBoundedListsAndMaps() {
    assertThat(CelRuleCheck.violations(crd().root())).isEmpty();
  }

  @Test
  void everyPodTemplateBoundsItsContainers() {
    assertThat(crd().podSpecs()).isNotEmpty().allSatisfy(podSpec -> {
      for (String list : List.of("containers", "initContainers", "ephemeralContainers")) {
        assertThat(podSpec.getProperties().get(list).getMaxItems()).as(list).isEqualTo(64L);
      }
    });
  }

  @Test
  void oneReplicaTemplateServesEveryType() {
    // the replica template: one schema for every replica type (the map's value schema), bounded like every template
    assertThat(crd().podSpecs()).singleElement()
        .isSameAs(crd().node(".spec." + replicaSpecsField() + "[*].template.spec"));
  }

  @Test
  void finisherHintsAreRemovedAndStatusIsASubresource() {
    assertThat(crd().crd().getMetadata().getAnnotations()).as("finisher hints are removed").isNullOrEmpty();
    assertThat(crd().crd().getSpec().getScope()).isEqualTo("Namespaced");
    assertThat(crd().version().getServed()).isTrue();
    assertThat(crd().version().getStorage()).isTrue();
    assertThat(crd().version().getSubresources().getStatus()).isNotNull();
  }

  @Test
  void printerColumnsStateOutcomeRestartsSuspensionsAgeAndTheMessageWhenWide() {
    assertThat(crd().version().getAdditionalPrinterColumns())
        .extracting(CustomResourceColumnDefinition::getName, CustomResourceColumnDefinition::getJsonPath,
            CustomResourceColumnDefinition::getType, CustomResourceColumnDefinition::getPriority)
        .containsExactly(
            Tuple.tuple("State", ".status.conditions[-1:].type", "string", 0),
            Tuple.tuple("Outcome", ".status.outcome", "string", 0),
            Tuple.tuple("Restarts", ".status.restarts", "integer", 0),
            Tuple.tuple("Suspensions", ".status.suspensions", "integer", 0),
            Tuple.tuple("Age", ".metadata.creationTimestamp", "date", 0),
            Tuple.tuple("Message", ".status.conditions[-1:].message", "string", 1));
  }

  @Test
  void runPolicyRulesComeFromTheSpi() {
    assertThat(GeneratedCrd.messages(crd().node(".spec.runPolicy")))
        .containsExactly("spec.runPolicy.managedBy is immutable", "spec.runPolicy.managedBy is immutable");
    // serviceMode's is a root rule, which also sees runPolicy added or removed (everyTrainingJobsRules)
    assertThat(GeneratedCrd.messages(crd().node(".spec.runPolicy.schedulingPolicy")))
        .containsExactly("spec.runPolicy.schedulingPolicy.queue is immutable");
    JSONSchemaProps suspend = crd().node(".spec.runPolicy.suspend");
    assertThat(suspend.getDefault().asBoolean(true)).isFalse();
  }

  @Test
  void everyTrainingJobsRules() {
    // what CrdHints.REPLICA_SPECS gives: a kind without them lets a bad name or managedBy change reach the engine
    String field = replicaSpecsField();
    assertThat(GeneratedCrd.messages(crd().root())).contains(JobRules.NAME_IS_DNS_LABEL_MESSAGE,
        tooManyInAll(), "spec." + field + ": must be set")
        .filteredOn(JobRules.MANAGED_BY_IMMUTABLE::equals).hasSize(2);
    if (crd().node(".spec.runPolicy.serviceMode").getXKubernetesValidations() == null) { // else one value only
      assertThat(GeneratedCrd.messages(crd().root())).as("serviceMode kept, also when runPolicy comes or goes")
          .contains(JobRules.SERVICE_MODE_IMMUTABLE);
    }
    // the hints' rule for the engine's pod names, or the kind's own when it names its pods itself
    assertThat(GeneratedCrd.messages(crd().root())).as("a rule that fits the pod names in a DNS label")
        .anyMatch(m -> m.startsWith("metadata.name: too long"));
    assertThat(GeneratedCrd.messages(crd().node(".spec"))).contains(
        "spec.runPolicy.successPolicy.rules: a rule names a replica type the job does not have",
        "spec.runPolicy.successPolicy.rules: each count must be at least 1 and at most the replicas of its type",
        "spec.runPolicy.failurePolicy.rules: a rule's targetReplicaTypes names a replica type the job does not have");
    assertThat(crd().node(".spec." + field + "[*].replicas").getMaximum())
        .as("replicas of one type, from the SPI's ReplicaSpec").isEqualTo((double) ReplicaLimits.MAX_PER_TYPE);
  }

  /** One row of a kind's table of known limits: a job's name and replica counts, and the errors it gets (none: valid). */
  public record Limit(String title, String name, Map<String, Integer> replicas, List<String> errors) { }

  /**
   * The kind's table of known limits, each checked by {@link #knownLimitsAreRefusedUpFront()} on a job valid apart
   * from its name and replica counts ({@link LimitCases#job}): the longest name that fits its pod names and the next
   * one, the most replicas of a type and in all and one more, unset replicas counted as their default. None unless
   * the kind lists them.
   */
  protected List<Limit> limits() {
    return List.of();
  }

  /** The container every replica of a limit row's job gets, named as the kind's rules require ({@code pytorch}). */
  protected String limitContainer() {
    return "main";
  }

  /** Every row of {@link #limits()} gets exactly its errors from the CRD's rules and schema, as the API server would. */
  @TestFactory
  Stream<DynamicTest> knownLimitsAreRefusedUpFront() {
    String apiVersion = group + "/" + version;
    return limits().stream().map(limit -> DynamicTest.dynamicTest(limit.title(), () -> assertThat(crd().rules()
            .errors(LimitCases.job(apiVersion, kind, replicaSpecsField(), limitContainer(), limit.name(),
                limit.replicas())))
        .containsExactlyInAnyOrderElementsOf(limit.errors())));
  }

  /**
   * A failure policy is checked before the job exists, naming the field: a rule's target types are the kind's, the
   * limit is not negative, the rule list is not empty, actions, strategies and exit codes are ones that can work. On
   * the replica types of the first valid row of {@link #limits()}; none when the kind lists no limits.
   */
  @TestFactory
  Stream<DynamicTest> failurePoliciesAreCheckedUpFront() {
    Limit valid = limits().stream().filter(l -> l.errors().isEmpty()).findFirst().orElse(null);
    if (valid == null) {
      return Stream.empty();
    }
    String type = valid.replicas().keySet().iterator().next();
    String rules = "spec.runPolicy.failurePolicy.rules";
    return Stream.of(
        failurePolicy(valid, "a full policy is valid", "{maxRestarts: 3, restartStrategy: BlockingRecreate, rules: "
            + "[{name: oom, action: RestartJobAndIgnoreMaxRestarts, targetReplicaTypes: [" + type + "], "
            + "onExitCodes: [137], onPodFailureReasons: [OOMKilled, DisruptionTarget]}]}"),
        failurePolicy(valid, "an empty policy is valid", "{}"),
        failurePolicy(valid, "a target type the job does not have", "{rules: [{action: FailJob, targetReplicaTypes: "
            + "[" + type + ", Nope]}]}", rules + ": a rule's targetReplicaTypes names a replica type the job does not "
            + "have"),
        failurePolicy(valid, "a negative limit", "{maxRestarts: -1}",
            "spec.runPolicy.failurePolicy.maxRestarts: should be greater than or equal to 0"),
        failurePolicy(valid, "an empty rule list", "{rules: []}", rules + ": should have at least 1 items"),
        failurePolicy(valid, "an unknown action", "{rules: [{action: Ignore}]}",
            rules + "[0].action: Unsupported value: \"Ignore\": supported values: \"FailJob\", \"RestartJob\", "
                + "\"RestartJobAndIgnoreMaxRestarts\""),
        failurePolicy(valid, "an unknown strategy", "{restartStrategy: InPlace}",
            "spec.runPolicy.failurePolicy.restartStrategy: Unsupported value: \"InPlace\": supported values: "
                + "\"Recreate\", \"BlockingRecreate\""),
        failurePolicy(valid, "exit code 0 is no failure", "{rules: [{action: FailJob, onExitCodes: [0]}]}",
            rules + ".onExitCodes: a failed container exits with 1 or more"));
  }

  private DynamicTest failurePolicy(Limit valid, String title, String policy, String... errors) {
    String job = LimitCases.job(group + "/" + version, kind, replicaSpecsField(), limitContainer(), valid.name(),
        valid.replicas()).replace("\nspec:\n", "\nspec:\n  runPolicy: {failurePolicy: " + policy + "}\n");
    return DynamicTest.dynamicTest(title, () -> assertThat(crd().rules().errors(job))
        .containsExactlyInAnyOrder(errors));
  }

  /**
   * The messages of the root rules, in order, of a kind that names its pods as the engine does and declares no root
   * rule of its own: all of them those the finisher adds ({@code CrdHints.REPLICA_SPECS}). A kind's test pins its root
   * rules with it: {@code assertThat(GeneratedCrd.messages(crd().root())).containsExactlyElementsOf(...)}.
   */
  protected List<String> enginePodNamesRootMessages() {
    return List.of(
        "metadata.name: must be a DNS-1035 label (lower case letters, digits and '-', starting with a letter and "
            + "ending with a letter or digit)",
        "metadata.name: must be no more than 63 characters",
        NAME_TOO_LONG,
        tooManyInAll(),
        "spec." + replicaSpecsField() + ": must be set",
        "spec.runPolicy.managedBy is immutable",
        "spec.runPolicy.managedBy is immutable",
        JobRules.SERVICE_MODE_IMMUTABLE);
  }

  /**
   * The messages of the {@code spec} rules, in order: the kind's own (its {@code @ValidationRule}s on the spec class),
   * then the finisher's over the run policy's success and failure rules.
   */
  protected static List<String> specMessages(String... own) {
    List<String> messages = new ArrayList<>(List.of(own));
    messages.add("spec.runPolicy.successPolicy.rules: a rule names a replica type the job does not have");
    messages.add("spec.runPolicy.successPolicy.rules: each count must be at least 1 and at most the replicas of its "
        + "type");
    messages.add("spec.runPolicy.failurePolicy.rules: a rule's targetReplicaTypes names a replica type the job does "
        + "not have");
    return messages;
  }

  /** The message of the rule that caps the replicas summed over the kind's types, {@code spec.<field>: at most ...}. */
  protected String tooManyInAll() {
    return "spec." + replicaSpecsField() + ": at most " + ReplicaLimits.MAX_PER_JOB + " replicas in all";
  }

  private String replicaSpecsField() {
    return crd().node(".spec").getRequired().stream().filter(f -> f.endsWith("ReplicaSpecs")).findFirst()
        .orElseThrow(() -> new AssertionError("spec requires no <kind>ReplicaSpecs field"));
  }

  @Test
  void smallEnoughForAnyApply() {
    byte[] json = new KubernetesSerialization().asJson(crd().crd()).getBytes(StandardCharsets.UTF_8);
    // kubectl's client-side apply keeps the object in a 256 KiB annotation; server-side apply has no such limit
    assertThat(json.length).isLessThan(256 * 1024);
  }

  private static int firstDifferentLine(String a, String b) {
    List<String> left = a.lines().toList();
    List<String> right = b.lines().toList();
    int line = 0;
    while (line < left.size() && line < right.size() && left.get(line).equals(right.get(line))) {
      line++;
    }
    return line + 1;
  }
}
