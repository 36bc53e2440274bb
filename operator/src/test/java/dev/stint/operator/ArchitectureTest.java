package dev.stint.operator;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.fabric8.kubernetes.client.CustomResource;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The architecture, checked rather than kept by convention (DESIGN.md: functional core, thin shell; a small SPI): the
 * decision is a pure function, frameworks and plugins see only the SPI, the engine names no framework, and the SPI
 * depends on no other part of Stint. The operator module's class path holds every module, so the rules run here.
 */
class ArchitectureTest {
  private static final String DECISION = "dev.stint.core.decision..";
  private static final String[] FRAMEWORKS = {"dev.stint.pytorch..", "dev.stint.tensorflow..", "dev.stint.mpi.."};
  private static JavaClasses stint;

  @BeforeAll
  static void importStint() {
    stint = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
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

  @Test
  void frameworksSeeOnlyTheSpi() {
    for (String framework : FRAMEWORKS) {
      noClasses().that().resideInAPackage(framework)
          .should().dependOnClassesThat(resideInAPackage("dev.stint..")
              .and(not(resideInAnyPackage("dev.stint.spi..", framework))))
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
    noClasses().that().resideInAPackage("dev.stint.spi..")
        .should().dependOnClassesThat(resideInAPackage("dev.stint..").and(not(resideInAPackage("dev.stint.spi.."))))
        .because("plugins compile against the SPI alone")
        .check(stint);
  }
}
