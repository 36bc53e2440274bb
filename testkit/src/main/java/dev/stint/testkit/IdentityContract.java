package dev.stint.testkit;

import static dev.stint.testkit.ContractJobs.decide;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import dev.stint.kubeclient.ClientSerialization;
import dev.stint.core.model.EngineFramework;
import dev.stint.core.registry.MovedMethods;
import dev.stint.crd.TrainingJobRules;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.CrdHints;
import io.fabric8.crd.generator.annotation.Annotations;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The part of the framework contract about the kind as the operator loads it: it names itself and its replica types
 * validly, its CRD counts replicas as it does, the service loader can make it, it compiles against the SPI alone and
 * uses no method the engine would ignore, the operator's client reads its watch events, and its sample job is valid.
 */
public abstract class IdentityContract<J extends TrainingJob<?>> extends ContractSubject<J> {

  /** See {@link FrameworkContractTest#FrameworkContractTest(Supplier, Path)}. */
  protected IdentityContract(Supplier<? extends TrainingFramework<J>> frameworks, Path sample) {
    super(frameworks, sample);
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
}
