package dev.stint.testkit;

import static dev.stint.testkit.ContractJobs.NOW;
import static dev.stint.testkit.ContractJobs.NO_OUTCOMES;
import static dev.stint.testkit.ContractJobs.createdPods;
import static dev.stint.testkit.ContractJobs.decide;
import static dev.stint.testkit.ContractJobs.ended;
import static dev.stint.testkit.ContractJobs.withRunPolicy;
import static dev.stint.testkit.ContractJobs.withStatus;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import dev.stint.core.decision.Decision;
import dev.stint.core.model.Action;
import dev.stint.core.model.EngineFramework;
import dev.stint.core.registry.MovedMethods;
import dev.stint.crd.TrainingJobRules;
import dev.stint.kubeclient.ClientSerialization;
import dev.stint.spi.KubeflowLabels;
import dev.stint.spi.SupportingResource;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.CrdHints;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.ReplicaSpec;
import dev.stint.testdoubles.KubeletStatuses;
import io.fabric8.crd.generator.annotation.Annotations;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The contract every framework passes, built-in or plugin: extend it with the framework's constructor and a canonical
 * sample job (the kind's upstream example), as {@code super(JaxFramework::new, Path.of("example-jaxjob.yaml"))}. It checks what the engine relies on, not what the framework wires: that the kind
 * identifies itself, that each replica gets one pod with the engine's labels, that every name is stable (the engine
 * creates a child only when none of that name exists), that a declared supporting resource is made, that the
 * operator's client reads the kind's watch events as fabric8 does, and that the
 * framework never changes the job it is handed (the operator's cached object, shared by every reconcile).
 */
public abstract class FrameworkContractTest<J extends TrainingJob<?>> {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private final Supplier<? extends TrainingFramework<J>> frameworks;
  private final Path sample;

  /**
   * @param frameworks makes a new instance of the framework, through the constructor the operator uses
   * @param sample the manifest of a valid job of the kind with at least two replicas, usually the kind's example
   */
  protected FrameworkContractTest(Supplier<? extends TrainingFramework<J>> frameworks, Path sample) {
    this.frameworks = frameworks;
    this.sample = sample;
  }

  /** A new instance of the framework: one per check, as each operator process has its own. */
  protected TrainingFramework<J> framework() {
    return frameworks.get();
  }

  /** The sample job, in namespace {@code default}, with a uid, as the API server would store it. */
  protected J sampleJob() {
    return sampleFrom(sample);
  }

  /** The job of a manifest file, in namespace {@code default} and with a uid, as the API server would store it. */
  protected final J sampleFrom(Path manifest) {
    KubernetesSerialization serialization = new KubernetesSerialization();
    serialization.registerKubernetesResource(framework().jobType());
    try {
      J job = serialization.unmarshal(Files.readString(manifest), framework().jobType());
      job.getMetadata().setNamespace("default");
      job.getMetadata().setUid("uid-sample");
      return job;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A valid job for which the framework makes its supporting resources, when it declares any
   * ({@code supportingResourceTypes()}); the sample job unless only some jobs need them (an elastic PyTorchJob's
   * autoscaler).
   */
  protected J jobWithSupportingResources() {
    return sampleJob();
  }

  @Test
  void identifiesItself() {
    EngineFramework<J> f = EngineFramework.of(framework());
    assertThat(f.name()).matches("[a-z][a-z0-9-]*");
    assertThat(HasMetadata.getGroup(f.jobType())).isNotBlank();
    assertThat(HasMetadata.getVersion(f.jobType())).isNotBlank();
    assertThat(f.replicaTypes()).isNotEmpty().doesNotHaveDuplicates();
    assertThat(f.controllerName()).isNotBlank();
    assertThat(f.defaults()).isNotNull();
    assertThat(f.replicaTypes()).allSatisfy(type ->
        assertThat(f.defaultRestartPolicy(type)).isIn("Always", "OnFailure", "Never", "ExitCode"));
  }

  @Test
  void crdCountsReplicasAsTheFrameworkDoes() {
    // the CRD's rules count unset replicas as CrdHints.REPLICA_TYPES says, the engine as defaultReplicas does
    EngineFramework<J> f = EngineFramework.of(framework());
    Annotations hints = f.jobType().getAnnotation(Annotations.class);
    String prefix = CrdHints.REPLICA_TYPES + "=";
    String types = hints == null ? null : Arrays.stream(hints.value()).filter(h -> h.startsWith(prefix))
        .map(h -> h.substring(prefix.length())).findFirst().orElse(null);
    Assumptions.assumeTrue(types != null, "the kind writes its CRD rules itself, without CrdHints.REPLICA_TYPES");
    Map<String, Integer> defaults = new LinkedHashMap<>();
    f.replicaTypes().forEach(type -> defaults.put(type, f.defaultReplicas(type)));
    assertThat(TrainingJobRules.parseTypes(types)).as(CrdHints.REPLICA_TYPES).containsExactlyEntriesOf(defaults);
  }

  @Test
  void hasAPublicNoArgumentConstructorForServiceLoader() throws Exception {
    assertThat(framework().getClass().getConstructor().newInstance().name()).isEqualTo(framework().name());
  }

  @Test
  void acceptsItsSampleJob() {
    assertThat(EngineFramework.of(framework()).validate(sampleJob())).isEmpty();
    assertThat(decide(framework(), sampleJob(), List.of()).status().isTrue("Failed")).isFalse();
  }

  /**
   * The operator's client reads the kind's watch events straight into its class, not through fabric8's tree: what it
   * reads must be what fabric8 reads, managed fields aside.
   */
  @Test
  void theOperatorsClientReadsItsWatchEventsAsFabric8Does() {
    KubernetesSerialization fabric8 = new KubernetesSerialization();
    KubernetesSerialization operators = ClientSerialization.create();
    fabric8.registerKubernetesResource(framework().jobType());
    operators.registerKubernetesResource(framework().jobType());
    J job = sampleJob();
    job.getMetadata().setManagedFields(List.of(new ManagedFieldsEntryBuilder().withManager("kubectl")
        .withOperation("Update").withApiVersion(job.getApiVersion()).build()));
    // compact, apiVersion before kind: as the API server writes a custom resource
    String message = "{\"type\":\"MODIFIED\",\"object\":" + fabric8.asJson(job) + "}";

    HasMetadata theirs = (HasMetadata) fabric8.unmarshal(message, WatchEvent.class).getObject();
    HasMetadata ours = (HasMetadata) operators.unmarshal(message, WatchEvent.class).getObject();

    assertThat(ours).isExactlyInstanceOf(framework().jobType());
    assertThat(ours.getMetadata().getManagedFields()).as("left out by the operator's reading").isEmpty();
    theirs.getMetadata().setManagedFields(null);
    ours.getMetadata().setManagedFields(null);
    assertThat(fabric8.asJson(ours)).isEqualTo(fabric8.asJson(theirs));
  }

  @Test
  void sampleJobGetsOnePodPerReplicaWithTheEngineLabels() {
    J job = sampleJob();
    int replicas = job.getSpec().replicaSpecs().values().stream().mapToInt(ReplicaSpec::replicasOrDefault).sum();
    List<Pod> pods = createdPods(decide(framework(), job, List.of()));
    assertThat(pods).hasSize(replicas);
    assertThat(new HashSet<>(pods.stream().map(p -> p.getMetadata().getName()).toList())).hasSize(replicas);
    assertThat(pods).allSatisfy(p -> assertThat(p.getMetadata().getLabels())
        .containsEntry(KubeflowLabels.OPERATOR_NAME, EngineFramework.of(framework()).controllerName())
        .containsKey(KubeflowLabels.REPLICA_TYPE));
  }

  @Test
  void wiringIsDeterministic() {
    TrainingFramework<J> f = framework();
    String first = JSON.asJson(decide(f, sampleJob(), List.of()).actions());
    String second = JSON.asJson(decide(f, sampleJob(), List.of()).actions());
    assertThat(second).isEqualTo(first);
  }

  /**
   * Two framework instances (two operator replicas, or one after a restart) name every child alike: pods, services
   * and supporting resources. Content made only when absent (a generated key) may differ; names may not.
   */
  @Test
  void namesAreStableAcrossInstances() {
    assertThat(childNames(framework(), sampleJob())).isEqualTo(childNames(framework(), sampleJob()))
        .doesNotHaveDuplicates();
    assertThat(childNames(framework(), jobWithSupportingResources()))
        .isEqualTo(childNames(framework(), jobWithSupportingResources()));
  }

  @Test
  void nothingSucceedsBeforeAnyReplicaDid() {
    assertThat(framework().successPolicy(sampleJob()).holds(NO_OUTCOMES)).isFalse();
  }

  /** A kind that declares supporting resource types makes some, each named, of a declared kind. */
  @Test
  void declaredSupportingResourcesAreMadeAndNamed() {
    EngineFramework<J> f = EngineFramework.of(framework());
    List<SupportingResource> resources = f.supportingResources(jobWithSupportingResources(), NO_OUTCOMES);
    if (!f.supportingResourceTypes().isEmpty()) {
      assertThat(resources).as("supporting resources of a kind that declares %s", f.supportingResourceTypes())
          .isNotEmpty();
    }
    assertThat(resources).allSatisfy(r -> {
      assertThat(r.resource().getMetadata().getName()).isNotBlank();
      assertThat(f.supportingResourceTypes()).contains(r.resource().getClass());
      if (r.content() != null) {
        HasMetadata made = r.toCreate();
        assertThat(made.getClass()).isEqualTo(r.resource().getClass());
        assertThat(made.getMetadata().getName()).isEqualTo(r.resource().getMetadata().getName());
      }
    });
  }

  /** The job a framework is handed is the operator's cached object: reading it must leave it as it was. */
  @Test
  void neverChangesTheJobItIsHanded() {
    for (J job : List.of(sampleJob(), jobWithSupportingResources())) {
      String before = JSON.asJson(job);
      EngineFramework<J> f = EngineFramework.of(framework());
      decide(f, job, List.of());
      f.validate(job);
      f.successPolicy(job).holds(NO_OUTCOMES);
      f.supportingResources(job, NO_OUTCOMES).forEach(SupportingResource::toCreate);
      f.messages(job).running();
      assertThat(JSON.asJson(job)).as("the job after the framework read it").isEqualTo(before);
    }
  }

  /**
   * Pods that exist and cannot run are shown on the job, whatever its kind: condition {@code PodsWaiting} with the
   * cause a user must fix first as its reason ({@code <Kind>ImagePullBackOff}), a message naming the replicas with the
   * scheduler's or the kubelet's own words, {@code Running} not True; gone once every pod runs. The engine does this
   * for every kind; the check proves that the kind's pods carry what it needs (replica labels and indexes).
   */
  @Test
  void podsThatCannotRunAreShownByReplicaAndCause() {
    J job = sampleJob();
    String kind = HasMetadata.getKind(framework().jobType());
    List<Pod> pods = podsThatCannotRun(job);
    JobStatus waiting = decideAgain(job, null, pods).status();
    JobCondition condition = waiting.condition("PodsWaiting").orElseThrow();
    assertThat(condition.getStatus()).isEqualTo("True");
    assertThat(condition.getReason()).isEqualTo(kind + "ImagePullBackOff");
    Pod first = pods.get(0);
    String replica = first.getMetadata().getLabels().get(KubeflowLabels.REPLICA_TYPE) + " "
        + first.getMetadata().getLabels().get(KubeflowLabels.REPLICA_INDEX);
    assertThat(condition.getMessage()).contains(": ImagePullBackOff: Back-off pulling image \"nope:1\"")
        .containsIgnoringCase(replica + ": Unschedulable: " + KubeletStatuses.NO_GPU);
    assertThat(waiting.isTrue("Running")).isFalse();

    pods.forEach(p -> p.setStatus(KubeletStatuses.running(containers(p))));
    assertThat(decideAgain(job, null, pods).status().condition("PodsWaiting")).isEmpty();
  }

  /** With {@code runPolicy.podsWaitingTimeoutSeconds}, pods that waited longer fail the job, naming the cause. */
  @Test
  void podsWaitingPastTheOptInLimitFailTheJob() {
    J job = withRunPolicy(framework(), sampleJob(), "podsWaitingTimeoutSeconds", 60L);
    String kind = HasMetadata.getKind(framework().jobType());
    List<Pod> pods = podsThatCannotRun(job);
    JobCondition failed = decideAgain(job, NOW.minusSeconds(61), pods).status().condition("Failed").orElseThrow();
    assertThat(failed.getReason()).isEqualTo(kind + "ImagePullBackOff");
    assertThat(failed.getMessage()).contains("waited more than 60 s to start (spec.runPolicy.podsWaitingTimeoutSeconds)")
        .endsWith("ImagePullBackOff: Back-off pulling image \"nope:1\"");
  }

  /** The pods of the first decision, the first unschedulable, the others unable to pull their image. */
  private List<Pod> podsThatCannotRun(J job) {
    List<Pod> pods = createdPods(decide(framework(), job, List.of()));
    assertThat(pods).as("pods of the sample job").hasSizeGreaterThanOrEqualTo(2);
    pods.forEach(p -> p.getMetadata().setCreationTimestamp("2026-11-29T11:00:00Z"));
    pods.get(0).setStatus(KubeletStatuses.unschedulable(KubeletStatuses.NO_GPU));
    pods.subList(1, pods.size()).forEach(p -> p.setStatus(KubeletStatuses.waiting(containers(p),
        "ImagePullBackOff", "Back-off pulling image \"nope:1\"")));
    return pods;
  }

  /** The decision after the first, its pods observed; the job started at {@code startedAt} (null: now). */
  @SuppressWarnings("unchecked")
  private Decision decideAgain(J job, Instant startedAt, List<Pod> pods) {
    JobStatus status = decide(framework(), job, List.of()).status();
    status.setStartTime((startedAt == null ? NOW : startedAt).toString());
    ((CustomResource<?, JobStatus>) job).setStatus(status);
    return decide(framework(), job, pods);
  }

  private static List<String> containers(Pod pod) {
    return pod.getSpec().getContainers().stream().map(c -> c.getName()).toList();
  }

  /** SPI 2.0 moved optional methods to capability interfaces; one declared without its interface is never called. */
  @Test
  void declaresNoMethodTheEngineWouldIgnore() {
    assertThat(MovedMethods.missedBy(framework().getClass())).isEmpty();
  }

  /**
   * A framework compiles against the SPI alone (the operator gives a plugin no other Stint class): its package uses no
   * Stint package but {@code dev.stint.spi}.
   */
  @Test
  void seesNoStintModuleButTheSpi() {
    String own = framework().getClass().getPackageName();
    JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages(own);
    ArchRuleDefinition.noClasses().that().resideInAPackage(own + "..")
        .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("dev.stint..")
            .and(DescribedPredicate.not(JavaClass.Predicates.resideInAnyPackage("dev.stint.spi..", own + ".."))))
        .because("the operator loads a framework with the SPI and nothing else of Stint")
        .check(classes);
  }

  /**
   * A kind gets the failure policy with no code of its own: with {@code runPolicy.failurePolicy}, one member of the
   * sample job failing deletes every pod of the gang and says which member, and the next attempt's pods (every
   * replica again) carry the attempt as a label and a variable in every container.
   */
  @Test
  void oneMemberFailingRestartsTheWholeGang() {
    J job = withRunPolicy(framework(), sampleJob(), "failurePolicy", Map.of("maxRestarts", 2));
    TrainingFramework<J> framework = framework();
    Decision first = decide(framework, job, List.of());
    List<Pod> pods = createdPods(first);
    assertThat(pods).allSatisfy(p -> assertAttempt(p, "0"));
    List<Pod> observed = new java.util.ArrayList<>(pods.stream().map(p -> ended(p, "Running", null)).toList());
    Pod member = observed.remove(observed.size() - 1);
    observed.add(ended(member, "Failed", 137));
    job = withStatus(framework, job, first.status());

    Decision restart = decide(framework, job, observed);
    assertThat(restart.actions()).filteredOn(a -> a instanceof Action.DeletePod)
        .extracting(a -> ((Action.DeletePod) a).name())
        .containsExactlyInAnyOrderElementsOf(pods.stream().map(p -> p.getMetadata().getName()).toList());
    assertThat(createdPods(restart)).isEmpty();
    assertThat(restart.status().getRestarts()).isEqualTo(1);
    String type = member.getMetadata().getLabels().get(KubeflowLabels.REPLICA_TYPE);
    assertThat(restart.status().condition("Restarting")).hasValueSatisfying(c -> {
      assertThat(c.getStatus()).isEqualTo("True");
      assertThat(c.getReason()).endsWith("MemberFailed");
      assertThat(c.getMessage()).containsIgnoringCase(type + " " + member.getMetadata().getLabels()
          .get(KubeflowLabels.REPLICA_INDEX) + " exited with code 137");
    });

    job = withStatus(framework, job, restart.status());
    List<Pod> again = createdPods(decide(framework, job, List.of()));
    assertThat(again).extracting(p -> p.getMetadata().getName())
        .containsExactlyInAnyOrderElementsOf(pods.stream().map(p -> p.getMetadata().getName()).toList());
    assertThat(again).allSatisfy(p -> assertAttempt(p, "1"));
  }

  private static void assertAttempt(Pod pod, String attempt) {
    assertThat(pod.getMetadata().getLabels()).containsEntry(KubeflowLabels.RESTART_ATTEMPT, attempt);
    assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
    assertThat(pod.getSpec().getContainers()).allSatisfy(c -> assertThat(c.getEnv())
        .anySatisfy(e -> assertThat(e.getName() + "=" + e.getValue())
            .isEqualTo(KubeflowLabels.RESTART_ATTEMPT_ENV + "=" + attempt)));
  }

  private List<String> childNames(TrainingFramework<J> f, J job) {
    List<String> names = new java.util.ArrayList<>(createdPods(decide(f, job, List.of())).stream()
        .map(p -> "Pod/" + p.getMetadata().getName()).toList());
    EngineFramework.of(f).supportingResources(job, NO_OUTCOMES)
        .forEach(r -> names.add(r.resource().getKind() + "/" + r.resource().getMetadata().getName()));
    return names;
  }
}
