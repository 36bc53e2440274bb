package dev.stint.operator;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.stint.kubeclient.ClientConfigFixes;
import dev.stint.kubeclient.ClientSerialization;
import dev.stint.kubeclient.DeafWatchCheck;
import dev.stint.kubeclient.Http1JdkClientFactory;
import dev.stint.kubeclient.JdkClientFactory;
import dev.stint.kubeclient.LeanWrites;
import dev.stint.kubeclient.MetadataLister;
import dev.stint.kubeclient.SlimItemStore;
import dev.stint.kubeclient.SendGate;
import dev.stint.kubeclient.StreamedJdkClientFactory;
import dev.stint.kubeclient.UnreadableObjects;
import dev.stint.kubeclient.WatchedCache;
import io.fabric8.kubernetes.client.CustomResource;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The architecture, checked rather than kept by convention (DESIGN.md: functional core, thin shell; a small SPI): the
 * decision is a pure function at the bottom of the engine, frameworks and plugins see only the SPI, the engine names
 * no framework, the engine's packages form no cycle, the SPI depends on no other part of Stint, and the client
 * workarounds (kube-client) depend on none either and are used through their public API alone. The operator
 * module's class path holds every module, so the rules run here.
 */
class ArchitectureTest {
  private static final String DECISION = "dev.stint.core.decision..";
  /** The vocabulary the decision and the I/O around it share. */
  private static final String MODEL = "dev.stint.core.model..";
  private static final String[] FRAMEWORKS = {"dev.stint.pytorch..", "dev.stint.tensorflow..", "dev.stint.mpi.."};
  private static final String KUBE_CLIENT = "dev.stint.kubeclient..";
  /** kube-client's public API, as kube-client/README.md lists it; the rest of the module is package-private. */
  private static final Class<?>[] KUBE_CLIENT_API = {ClientSerialization.class, ClientConfigFixes.class,
      JdkClientFactory.class, Http1JdkClientFactory.class, StreamedJdkClientFactory.class, SlimItemStore.class,
      LeanWrites.class, DeafWatchCheck.class, WatchedCache.class, MetadataLister.class, SendGate.class,
      UnreadableObjects.class};
  private static JavaClasses stint;
  /**
   * Stint's production classes alone, for the layering rules. DO_NOT_INCLUDE_TESTS knows test folders, not the core
   * test-jar on this class path, whose tests share fixtures ({@code dev.stint.core.testing}) across packages.
   */
  private static JavaClasses production;

  @BeforeAll
  static void importStint() {
    stint = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.stint");
    production = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("-tests.jar"))
        .importPackages("dev.stint");
  }

  /** The decision reads objects and returns actions: no client (a custom resource's type is a model, not a client). */
  @Test
  void theDecisionUsesNoClient() {
    noClasses().that().resideInAPackage(DECISION)
        .should().dependOnClassesThat(resideInAnyPackage("io.fabric8.kubernetes.client..", "io.javaoperatorsdk..")
            .and(not(equivalentTo(CustomResource.class))))
        .because("the decision is a pure function of the job, the observed children and the time it is given")
        .check(stint);
  }

  /** The time comes in through JobContext; the decision never reads a clock. */
  @Test
  void theDecisionReadsNoClock() {
    noClasses().that().resideInAPackage(DECISION)
        .should().dependOnClassesThat(equivalentTo(Clock.class))
        .orShould().callMethod(Instant.class, "now")
        .orShould().callMethod(System.class, "currentTimeMillis")
        .orShould().callMethod(System.class, "nanoTime")
        .because("a decision must give the same answer for the same inputs")
        .check(stint);
  }

  /**
   * The decision is the bottom of the engine: what Kueue's admission says, and the settings, come in as values the
   * decision package defines, and what it shares with the I/O comes from the model package.
   */
  @Test
  void theDecisionImportsNoOtherPartOfTheEngine() {
    usesOnly(DECISION, "dev.stint.core..", DECISION, MODEL)
        .because("the decision must be testable, and changeable, without Kueue's integration, the kube I/O, the"
            + " reconciler, serving or the registry; they depend on it, never it on them (issue 43)")
        .check(production);
  }

  /** The shared vocabulary sits below both sides that speak it. */
  @Test
  void theModelImportsNoOtherPartOfTheEngine() {
    usesOnly(MODEL, "dev.stint.core..", MODEL)
        .because("the decision and the I/O (kueue, kube, reconciler, ...) both import it; if it imported either,"
            + " the packages would form a cycle again")
        .check(production);
  }

  /**
   * The engine's packages are layered: each can be read, tested and changed knowing only those below it. The root
   * package {@code dev.stint.core}, which assembles the engine from all of them, is no slice; that kueue's
   * {@code KueueLink} imports its {@code ReconcilerRole} is a cycle this rule does not see, left to a later change.
   */
  @Test
  void theEnginesPackagesFormNoCycle() {
    slices().matching("dev.stint.core.(*)..")
        .should().beFreeOfCycles()
        .because("a cycle makes its packages one unit: no part of it can change or be tested without the others")
        .check(production);
  }

  @Test
  void frameworksSeeOnlyTheSpi() {
    for (String framework : FRAMEWORKS) {
      usesOnly(framework, "dev.stint..", "dev.stint.spi..", framework)
          .because("a framework is a plugin like any other: it compiles against stint-spi only")
          .check(stint);
    }
  }

  @Test
  void theEngineNamesNoFramework() {
    noClasses().that().resideInAPackage("dev.stint.core..")
        .should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS)
        .because("frameworks are found at run time; the engine works for kinds it has never heard of")
        .check(stint);
  }

  @Test
  void theSpiDependsOnNothingOfStint() {
    usesOnly("dev.stint.spi..", "dev.stint..", "dev.stint.spi..")
        .because("plugins compile against the SPI alone")
        .check(stint);
  }

  /** The client workarounds sit below the engine: each can be deleted when upstream fixes its bug, touching no engine. */
  @Test
  void theClientWorkaroundsDependOnNothingOfStint() {
    usesOnly(KUBE_CLIENT, "dev.stint..", KUBE_CLIENT)
        .because("kube-client works around fabric8 7.9 and the JDK HTTP client only; core and the operator depend on"
            + " it, never it on them (kube-client/README.md, issue 43)")
        .check(production);
  }

  /** Outside kube-client, only the names its README lists are used; the rest may change or go with upstream's fixes. */
  @Test
  void theClientWorkaroundsAreUsedThroughTheirApiOnly() {
    noClasses().that().resideOutsideOfPackage(KUBE_CLIENT)
        .should().dependOnClassesThat(resideInAPackage(KUBE_CLIENT).and(not(belongToAnyOf(KUBE_CLIENT_API))))
        .because("kube-client/README.md lists its public API; each workaround behind it is deleted when upstream"
            + " fixes what it works around, and nothing else may break then")
        .check(production);
  }

  /** A class made public in kube-client is listed in its README (and above) first. */
  @Test
  void theClientWorkaroundsPublishOnlyTheirApi() {
    noClasses().that().resideInAPackage(KUBE_CLIENT).and().areTopLevelClasses()
        .and(not(belongToAnyOf(KUBE_CLIENT_API)))
        .should().bePublic()
        .because("the README lists every public name of kube-client with what it works around and when it goes")
        .check(production);
  }

  /** The rule that the classes of {@code layer} depend on no class in {@code scope} but those of {@code allowed}. */
  private static ArchRule usesOnly(String layer, String scope, String... allowed) {
    return noClasses().that().resideInAPackage(layer)
        .should().dependOnClassesThat(resideInAPackage(scope).and(not(resideInAnyPackage(allowed))));
  }
}
