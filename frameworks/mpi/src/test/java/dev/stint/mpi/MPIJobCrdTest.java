package dev.stint.mpi;

import static dev.stint.testkit.LimitCases.name;
import static dev.stint.testkit.LimitCases.replicas;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.testkit.CrdContractTest;
import dev.stint.testkit.GeneratedCrd;
import dev.stint.testkit.LimitCases;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The generated MPIJob CRD: upstream's names and v2beta1 fields; a structural schema the API server accepts; CEL rules
 * that iterate only bounded lists and maps; upstream's validation as rules naming the fields; no defaults written.
 */
class MPIJobCrdTest extends CrdContractTest {

  MPIJobCrdTest() {
    super("kubeflow.org", "MPIJob", "mpijobs", "v2beta1");
  }

  static final String HOST_NAME_TOO_LONG = "metadata.name: too long for its replica names: pod and host names "
      + "(<name>-launcher, <name>-worker-<index>) must be no more than 63 characters";
  @Test
  void shortNameIsUpstreams() {
    assertThat(crd().crd().getSpec().getNames().getShortNames()).containsExactly("mpij");
  }

  @Test
  void noScaleSubresource() {
    assertThat(crd().version().getSubresources().getScale()).as("MPIJob v2beta1 has no scale subresource").isNull();
  }

  @Test
  void specHasTheV2beta1FieldsAndWritesNoDefaults() {
    assertThat(crd().node(".spec").getProperties().keySet()).containsExactlyInAnyOrder("slotsPerWorker",
        "runLauncherAsWorker", "runPolicy", "mpiReplicaSpecs", "sshAuthMountPath", "launcherCreationPolicy",
        "mpiImplementation");
    assertThat(crd().node(".spec").getRequired()).containsExactly("mpiReplicaSpecs");
    assertThat(crd().node(".spec.slotsPerWorker").getType()).isEqualTo("integer");
    assertThat(crd().node(".spec.slotsPerWorker").getMinimum()).isZero();
    assertThat(crd().node(".spec.runLauncherAsWorker").getType()).isEqualTo("boolean");
    for (String field : List.of("slotsPerWorker", "runLauncherAsWorker", "sshAuthMountPath", "launcherCreationPolicy",
        "mpiImplementation")) {
      assertThat(crd().node(".spec." + field).getDefault()).as(field + " is defaulted in memory only").isNull();
    }
    assertThat(crd().node(".spec.runPolicy").getProperties().keySet()).contains("cleanPodPolicy", "ttlSecondsAfterFinished",
        "activeDeadlineSeconds", "backoffLimit", "schedulingPolicy", "suspend", "managedBy");
    JSONSchemaProps replicaSpecs = crd().node(".spec.mpiReplicaSpecs");
    assertThat(replicaSpecs.getMinProperties()).isEqualTo(1L);
    assertThat(replicaSpecs.getMaxProperties()).isEqualTo(2L);
    assertThat(crd().node(".spec.mpiReplicaSpecs[*].template.spec").getProperties().get("containers").getMaxItems())
        .isEqualTo(64L);
  }

  @Test
  void rootRulesLikePyTorchJob() {
    assertThat(GeneratedCrd.messages(crd().root())).containsExactly(
        "metadata.name: must be a DNS-1035 label (lower case letters, digits and '-', starting with a letter and "
            + "ending with a letter or digit)",
        HOST_NAME_TOO_LONG,
        tooManyInAll(),
        "spec.mpiReplicaSpecs: must be set",
        "spec.runPolicy.managedBy is immutable",
        "spec.runPolicy.managedBy is immutable");
    // serviceMode may only be PerJob, the same as unset: nothing to keep (a rule would refuse spelling it out)
  }

  /**
   * The launcher is {@code <name>-launcher} (9 characters more), a worker {@code <name>-worker-<index>}
   * ({@code -worker-9} 9, {@code -worker-4998} 12); Worker replicas default to 0, the Launcher's to 1.
   */
  @Override
  protected List<Limit> limits() {
    return List.of(
        new Limit("launcher only, name of 54 (launcher at 63)", name(54), replicas("Launcher", 1), List.of()),
        new Limit("launcher only, name of 55", name(55), replicas("Launcher", null), List.of(HOST_NAME_TOO_LONG)),
        new Limit("Worker replicas unset are 0: name of 54", name(54),
            replicas("Launcher", null, "Worker", null), List.of()),
        new Limit("10 workers, name of 54 (worker-9 at 63)", name(54), replicas("Launcher", 1, "Worker", 10),
            List.of()),
        new Limit("11 workers, name of 54: worker-10 is 64", name(54), replicas("Launcher", 1, "Worker", 11),
            List.of(HOST_NAME_TOO_LONG)),
        new Limit("4999 workers, name of 51 (worker-4998 at 63)", name(51),
            replicas("Launcher", 1, "Worker", 4999), List.of()),
        new Limit("4999 workers, name of 52", name(52), replicas("Launcher", 1, "Worker", 4999),
            List.of(HOST_NAME_TOO_LONG)),
        new Limit("launcher + 4999 workers: 5000 in all", "sum", replicas("Launcher", 1, "Worker", 4999),
            List.of()),
        new Limit("launcher + 5000 workers: 5001 in all", "sum", replicas("Launcher", null, "Worker", 5000),
            List.of(tooManyInAll())),
        new Limit("5001 workers", "big", replicas("Launcher", 1, "Worker", 5001),
            List.of("spec.mpiReplicaSpecs.Worker.replicas: should be less than or equal to 5000", tooManyInAll())),
        new Limit("negative workers", "neg", replicas("Launcher", 1, "Worker", -3),
            List.of("spec.mpiReplicaSpecs.Worker.replicas: should be greater than or equal to 0",
                "spec.mpiReplicaSpecs.Worker.replicas: must be greater than or equal to 1")));
  }

  @Override
  protected String limitContainer() {
    return "mpi";
  }

  @Test
  void upstreamValidationIsCelRules() {
    assertThat(GeneratedCrd.messages(crd().node(".spec.mpiReplicaSpecs"))).containsExactly(
        "spec.mpiReplicaSpecs: replica types must be Launcher or Worker",
        "spec.mpiReplicaSpecs.Launcher: must be set",
        "spec.mpiReplicaSpecs.Launcher.replicas: must be 1",
        "spec.mpiReplicaSpecs.Worker.replicas: must be greater than or equal to 1",
        "spec.mpiReplicaSpecs.Launcher.restartPolicy: must be Never or OnFailure",
        "spec.mpiReplicaSpecs.Worker.restartPolicy: must be Never or OnFailure");
    // a rule that only lists values is the schema's enum, as upstream's kubebuilder markers make it
    assertThat(GeneratedCrd.enumValues(crd().node(".spec.mpiImplementation"))).containsExactly("OpenMPI", "Intel", "MPICH");
    assertThat(GeneratedCrd.enumValues(crd().node(".spec.launcherCreationPolicy")))
        .containsExactly("AtStartup", "WaitForWorkersReady");
    assertThat(crd().node(".spec.mpiImplementation").getXKubernetesValidations()).isNullOrEmpty();
    assertThat(crd().node(".spec.launcherCreationPolicy").getXKubernetesValidations()).isNullOrEmpty();
    String job = LimitCases.job("kubeflow.org/v2beta1", "MPIJob", "mpiReplicaSpecs", "mpi", "enums",
        replicas("Launcher", 1, "Worker", 1));
    assertThat(crd().rules().errors(job.replace("\nspec:\n", "\nspec:\n  mpiImplementation: LAM\n"
        + "  launcherCreationPolicy: Later\n"))).containsExactlyInAnyOrder(
        "spec.mpiImplementation: Unsupported value: \"LAM\": supported values: \"OpenMPI\", \"Intel\", \"MPICH\"",
        "spec.launcherCreationPolicy: Unsupported value: \"Later\": supported values: \"AtStartup\", "
            + "\"WaitForWorkersReady\"");
    assertThat(crd().rules().errors(job.replace("\nspec:\n", "\nspec:\n  mpiImplementation: Intel\n"))).isEmpty();
    assertThat(GeneratedCrd.messages(crd().node(".spec"))).containsExactlyElementsOf(specMessages());
  }

  @Test
  void managedByNamesTheMpiOperatorAndStaysImmutable() {
    assertThat(GeneratedCrd.enumValues(crd().node(".spec.runPolicy.managedBy")))
        .containsExactly("kubeflow.org/mpi-operator", "kueue.x-k8s.io/multikueue");
    assertThat(crd().node(".spec.runPolicy.managedBy").getXKubernetesValidations()).isNullOrEmpty();
    assertThat(GeneratedCrd.messages(crd().node(".spec.runPolicy")))
        .containsExactly("spec.runPolicy.managedBy is immutable", "spec.runPolicy.managedBy is immutable");
    assertThat(crd().node(".spec.runPolicy.suspend").getDefault().asBoolean(true)).isFalse();
  }

}
