package dev.stint.examples.jax;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.testkit.CrdContractTest;
import org.junit.jupiter.api.Test;

/** The JAXJob CRD: Stint's CRD checks, and upstream's scale subresource on the Workers. */
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
}
