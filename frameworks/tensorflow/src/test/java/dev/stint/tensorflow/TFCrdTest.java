package dev.stint.tensorflow;

import static dev.stint.testkit.LimitCases.name;
import static dev.stint.testkit.LimitCases.replicas;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.testkit.CrdContractTest;
import dev.stint.testkit.GeneratedCrd;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The generated TFJob CRD: upstream's names and columns and no scale subresource; a structural schema the API server
 * accepts; CEL rules that iterate only bounded lists and maps; and the validation the upstream webhook did.
 */
class TFCrdTest extends CrdContractTest {

  TFCrdTest() {
    super("kubeflow.org", "TFJob", "tfjobs", "v1");
  }

  @Test
  void noScaleSubresource() {
    assertThat(crd().version().getSubresources().getScale()).isNull();
  }

  @Test
  void specHasUpstreamFields() {
    JSONSchemaProps spec = crd().node(".spec");
    assertThat(spec.getProperties().keySet())
        .containsExactlyInAnyOrder("runPolicy", "successPolicy", "tfReplicaSpecs", "enableDynamicWorker");
    assertThat(spec.getRequired()).containsExactly("tfReplicaSpecs");
    assertThat(crd().node(".spec.successPolicy").getType()).isEqualTo("string");
    assertThat(crd().node(".spec.enableDynamicWorker").getType()).isEqualTo("boolean");
    JSONSchemaProps replicaSpecs = crd().node(".spec.tfReplicaSpecs");
    assertThat(replicaSpecs.getMinProperties()).isEqualTo(1L);
    assertThat(replicaSpecs.getMaxProperties()).isEqualTo(5L);
    assertThat(crd().node(".spec.tfReplicaSpecs[*]").getProperties().keySet())
        .containsExactlyInAnyOrder("replicas", "template", "restartPolicy");
  }

  @Test
  void upstreamWebhookChecksAreCelRules() {
    assertThat(GeneratedCrd.messages(crd().root())).containsExactlyElementsOf(enginePodNamesRootMessages());
    assertThat(GeneratedCrd.messages(crd().node(".spec"))).containsExactlyElementsOf(specMessages());
    assertThat(GeneratedCrd.enumValues(crd().node(".spec.successPolicy"))).containsExactly("", "AllWorkers");
    assertThat(crd().node(".spec.successPolicy").getXKubernetesValidations()).isNullOrEmpty();
    assertThat(GeneratedCrd.messages(crd().node(".spec.tfReplicaSpecs"))).containsExactly(
        "spec.tfReplicaSpecs: replica types must be Chief, Master, PS, Worker or Evaluator",
        "spec.tfReplicaSpecs: must not have more than 1 Chief or Master role",
        "spec.tfReplicaSpecs.Chief.replicas: must be 1",
        "spec.tfReplicaSpecs.Master.replicas: must be 1");
  }

  @Test
  void replicaTypeRuleNamesExactlyTheFrameworkTypes() {
    String rule = crd().node(".spec.tfReplicaSpecs").getXKubernetesValidations().get(0).getRule();
    for (String type : new TensorFlowFramework("").replicaTypes()) {
      assertThat(rule).contains("'" + type + "'");
    }
  }

  /**
   * The longest child name is {@code <name>-<type>-<last index>}, for every type present: {@code -chief-0} adds 8
   * characters, {@code -evaluator-0} 12, {@code -ps-9} 5, {@code -worker-99} 10. Replicas default to 1.
   */
  @Override
  protected List<Limit> limits() {
    return List.of(
        new Limit("Chief and PS, name of 55 (chief-0 at 63)", name(55), replicas("Chief", 1, "PS", 1), List.of()),
        new Limit("Chief and PS, name of 56", name(56), replicas("Chief", 1, "PS", 1), List.of(NAME_TOO_LONG)),
        new Limit("Chief and a Worker, name of 55: worker-0 is 64", name(55), replicas("Chief", 1, "Worker", 1),
            List.of(NAME_TOO_LONG)),
        new Limit("Evaluator unset replicas, name of 51", name(51), replicas("Evaluator", null, "Worker", 1),
            List.of()),
        new Limit("Evaluator unset replicas, name of 52", name(52), replicas("Evaluator", null, "Worker", 1),
            List.of(NAME_TOO_LONG)),
        new Limit("10 PS, 100 Workers, name of 53", name(53), replicas("PS", 10, "Worker", 100), List.of()),
        new Limit("10 PS, 100 Workers, name of 54: worker-99 is 64", name(54), replicas("PS", 10, "Worker", 100),
            List.of(NAME_TOO_LONG)),
        new Limit("10 PS only, name of 58 (ps-9 at 63)", name(58), replicas("PS", 10), List.of()),
        new Limit("10 PS only, name of 59", name(59), replicas("PS", 10), List.of(NAME_TOO_LONG)),
        new Limit("5000 Workers", "big", replicas("Worker", 5000), List.of()),
        new Limit("5001 Workers", "big", replicas("Worker", 5001),
            List.of("spec.tfReplicaSpecs.Worker.replicas: should be less than or equal to 5000", tooManyInAll())),
        new Limit("2500 PS + 2500 Workers: 5000 in all", "sum", replicas("PS", 2500, "Worker", 2500), List.of()),
        new Limit("Chief + 2500 PS + 2500 Workers: 5001 in all", "sum",
            replicas("Chief", 1, "PS", 2500, "Worker", 2500), List.of(tooManyInAll())),
        new Limit("Evaluator unset counts as 1 in the sum", "sum", replicas("Evaluator", null, "Worker", 5000),
            List.of(tooManyInAll())),
        new Limit("negative PS", "neg", replicas("PS", -1, "Worker", 1),
            List.of("spec.tfReplicaSpecs.PS.replicas: should be greater than or equal to 0")));
  }

  @Override
  protected String limitContainer() {
    return "tensorflow";
  }

}
