package dev.stint.pytorch;

import static dev.stint.testkit.LimitCases.name;
import static dev.stint.testkit.LimitCases.replicas;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.spi.api.ReplicaLimits;
import dev.stint.testkit.CrdContractTest;
import dev.stint.testkit.GeneratedCrd;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The generated PyTorchJob CRD: upstream's names, subresources and columns; a structural schema the API server
 * accepts; CEL rules that iterate only bounded lists and maps; and the validation the upstream webhook did.
 */
class PyTorchCrdTest extends CrdContractTest {

  PyTorchCrdTest() {
    super("kubeflow.org", "PyTorchJob", "pytorchjobs", "v1");
  }

  @Test
  void scaleSubresourceOnTheWorkers() {
    var scale = crd().version().getSubresources().getScale();
    assertThat(scale.getSpecReplicasPath()).isEqualTo(".spec.pytorchReplicaSpecs.Worker.replicas");
    assertThat(scale.getStatusReplicasPath()).isEqualTo(".status.replicaStatuses.Worker.active");
    assertThat(scale.getLabelSelectorPath()).isEqualTo(".status.replicaStatuses.Worker.selector");
  }

  @Test
  void replicaSpecsAreRequiredAndBounded() {
    JSONSchemaProps spec = crd().node(".spec");
    assertThat(spec.getRequired()).containsExactly("pytorchReplicaSpecs");
    JSONSchemaProps replicaSpecs = crd().node(".spec.pytorchReplicaSpecs");
    assertThat(replicaSpecs.getMinProperties()).isEqualTo(1L);
    assertThat(replicaSpecs.getMaxProperties()).isEqualTo(2L);
  }

  @Test
  void upstreamWebhookChecksAreCelRules() {
    assertThat(GeneratedCrd.messages(crd().root())).containsExactlyElementsOf(enginePodNamesRootMessages());
    assertThat(GeneratedCrd.messages(crd().node(".spec"))).containsExactlyElementsOf(specMessages(
        "spec.pytorchReplicaSpecs.Worker: must be set when spec.elasticPolicy is used",
        "spec.elasticPolicy.nProcPerNode: must not be used with spec.nprocPerNode"));
    assertThat(GeneratedCrd.messages(crd().node(".spec.pytorchReplicaSpecs"))).containsExactly(
        "spec.pytorchReplicaSpecs: replica types must be Master or Worker",
        "spec.pytorchReplicaSpecs.Master.replicas: must be 1",
        "spec.pytorchReplicaSpecs.Worker.replicas: must be at least 1");
    // the container checks, natively or on the containers list: the API server evaluates them on every status write
    JSONSchemaProps template = crd().node(".spec.pytorchReplicaSpecs[*].template");
    assertThat(crd().node(".spec.pytorchReplicaSpecs[*]").getRequired()).containsExactly("template");
    assertThat(template.getRequired()).containsExactly("spec");
    assertThat(crd().node(".spec.pytorchReplicaSpecs[*].template.spec").getRequired()).containsExactly("containers");
    JSONSchemaProps containers = crd().node(".spec.pytorchReplicaSpecs[*].template.spec").getProperties()
        .get("containers");
    assertThat(containers.getMinItems()).isEqualTo(1L);
    assertThat(containers.getItems().getSchema().getRequired()).containsExactly("image");
    assertThat(containers.getItems().getSchema().getProperties().get("image").getMinLength()).isEqualTo(1L);
    assertThat(GeneratedCrd.messages(containers)).containsExactly(
        "spec.pytorchReplicaSpecs: every replica type needs a container named pytorch in template.spec.containers");
  }

  @Test
  void limitsAreTheSpisNumbers() {
    assertThat(ReplicaLimits.MAX_NAME).isEqualTo(63);
    assertThat(crd().node(".spec.pytorchReplicaSpecs[*].replicas").getMinimum()).isEqualTo(0.0);
  }

  /**
   * The longest child name is {@code <name>-<type>-<last index>}: {@code -master-0} adds 9 characters, {@code -worker-9}
   * 9, {@code -worker-10} 10, {@code -worker-4999} 12. Replicas default to 1.
   */
  @Override
  protected List<Limit> limits() {
    return List.of(
        new Limit("Master only, name of 54 (master-0 at 63)", name(54), replicas("Master", 1), List.of()),
        new Limit("Master only, name of 55", name(55), replicas("Master", 1), List.of(NAME_TOO_LONG)),
        new Limit("10 Workers, name of 54 (worker-9 at 63)", name(54), replicas("Master", 1, "Worker", 10),
            List.of()),
        new Limit("10 Workers, name of 55", name(55), replicas("Master", 1, "Worker", 10), List.of(NAME_TOO_LONG)),
        new Limit("11 Workers, name of 53 (worker-10 at 63)", name(53), replicas("Worker", 11), List.of()),
        new Limit("11 Workers, name of 54", name(54), replicas("Worker", 11), List.of(NAME_TOO_LONG)),
        new Limit("Worker replicas unset count as 1, name of 54", name(54), replicas("Worker", null), List.of()),
        new Limit("Worker replicas unset count as 1, name of 55", name(55), replicas("Worker", null),
            List.of(NAME_TOO_LONG)),
        new Limit("5000 Workers, name of 51 (worker-4999 at 63)", name(51), replicas("Worker", 5000), List.of()),
        new Limit("5000 Workers, name of 52", name(52), replicas("Worker", 5000), List.of(NAME_TOO_LONG)),
        new Limit("5001 Workers", "big", replicas("Worker", 5001),
            List.of("spec.pytorchReplicaSpecs.Worker.replicas: should be less than or equal to 5000",
                tooManyInAll())),
        new Limit("negative Workers", "neg", replicas("Worker", -1),
            List.of("spec.pytorchReplicaSpecs.Worker.replicas: should be greater than or equal to 0",
                "spec.pytorchReplicaSpecs.Worker.replicas: must be at least 1")),
        new Limit("1 Master + 4999 Workers: 5000 in all", "sum", replicas("Master", 1, "Worker", 4999), List.of()),
        new Limit("1 Master + 5000 Workers: 5001 in all", "sum", replicas("Master", 1, "Worker", 5000),
            List.of(tooManyInAll())),
        new Limit("Master replicas unset count as 1 in the sum", "sum", replicas("Master", null, "Worker", 5000),
            List.of(tooManyInAll())));
  }

  @Override
  protected String limitContainer() {
    return "pytorch";
  }

  @Test
  void theRulesCountLikeTheSpi() {
    assertThat(ReplicaLimits.longestIndexedName(name(51), "Worker", 5000)).isEqualTo(63);
    assertThat(ReplicaLimits.longestIndexedName(name(54), "Master", 1)).isEqualTo(63);
    assertThat(ReplicaLimits.longestIndexedName(name(54), "Worker", 0)).isEqualTo(63);
  }

  @Test
  void elasticPolicyHasUpstreamFields() {
    assertThat(crd().node(".spec.elasticPolicy").getProperties().keySet()).containsExactlyInAnyOrder(
        "minReplicas", "maxReplicas", "rdzvBackend", "rdzvPort", "rdzvHost", "rdzvId", "rdzvConf", "standalone",
        "nProcPerNode", "maxRestarts", "metrics");
    assertThat(crd().node(".spec.elasticPolicy.rdzvConf[*]").getProperties().keySet()).containsExactly("key", "value");
    assertThat(crd().node(".spec.elasticPolicy.metrics[*].resource.target.averageUtilization").getType())
        .isEqualTo("integer");
    assertThat(crd().node(".spec.nprocPerNode").getType()).isEqualTo("string");
  }
}
