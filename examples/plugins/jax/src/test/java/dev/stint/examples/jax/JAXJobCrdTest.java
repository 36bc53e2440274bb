package dev.stint.examples.jax;

import static dev.stint.testkit.LimitCases.name;
import static dev.stint.testkit.LimitCases.replicas;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.testkit.CrdContractTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The JAXJob CRD: Stint's CRD checks, its known limits, and upstream's scale subresource on the Workers. */
class JAXJobCrdTest extends CrdContractTest {

  JAXJobCrdTest() {
    super("kubeflow.org", "JAXJob", "jaxjobs", "v1");
  }

  @Test
  void workersScale() {
    var scale = crd().version().getSubresources().getScale();
    assertThat(scale.getSpecReplicasPath()).isEqualTo(".spec.jaxReplicaSpecs.Worker.replicas");
    assertThat(scale.getStatusReplicasPath()).isEqualTo(".status.replicaStatuses.Worker.active");
  }

  /** Pods are {@code <name>-worker-<index>}: {@code -worker-0} adds 9 characters, {@code -worker-4999} 12. */
  @Override
  protected List<Limit> limits() {
    return List.of(
        new Limit("1 Worker, name of 54 (worker-0 at 63)", name(54), replicas("Worker", 1), List.of()),
        new Limit("1 Worker, name of 55", name(55), replicas("Worker", 1), List.of(NAME_TOO_LONG)),
        new Limit("replicas unset count as 1, name of 55", name(55), replicas("Worker", null),
            List.of(NAME_TOO_LONG)),
        new Limit("5000 Workers, name of 51 (worker-4999 at 63)", name(51), replicas("Worker", 5000), List.of()),
        new Limit("5001 Workers", "big", replicas("Worker", 5001),
            List.of("spec.jaxReplicaSpecs.Worker.replicas: should be less than or equal to 5000", tooManyInAll())));
  }

  @Override
  protected String limitContainer() {
    return "jax";
  }
}
