package dev.stint.tensorflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.spi.api.ReplicaSpec;
import dev.stint.testkit.ExampleManifestContract;
import dev.stint.testkit.KindManifests;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Upstream's own manifest, {@code examples/tf-dist-mnist.yaml}, reads into the model unchanged and is valid. */
class ExampleManifestTest extends ExampleManifestContract<TFJob> {

  ExampleManifestTest() {
    super(Path.of(System.getProperty("stint.root"), "examples", "tf-dist-mnist.yaml"),
        new TensorFlowFramework(""), "kubeflow.org/v1", "TFJob", "dist-mnist-for-e2e-test");
  }

  @Test
  void upstreamDistMnistExampleDeserializes() throws IOException {
    TFJob job = example();

    assertThat(job.getSpec().getTfReplicaSpecs()).containsOnlyKeys("PS", "Worker");
    assertThat(job.getSpec().getTfReplicaSpecs().get("PS").getReplicas()).isEqualTo(2);
    assertThat(job.getSpec().getTfReplicaSpecs().get("Worker").getReplicas()).isEqualTo(4);
    for (ReplicaSpec replica : job.getSpec().getTfReplicaSpecs().values()) {
      assertThat(replica.getRestartPolicy()).isEqualTo("Never");
      Container container = replica.getTemplate().getSpec().getContainers().get(0);
      assertThat(container.getName()).isEqualTo("tensorflow");
      assertThat(container.getImage()).isEqualTo("kubeflow/tf-dist-mnist-test:1.0");
    }
    assertThat(job.getSpec().getRunPolicy()).isNull();
    assertThat(job.getSpec().getSuccessPolicy()).isNull();
    assertThat(job.getSpec().getEnableDynamicWorker()).isNull();
  }

  @Test
  void tfjobFieldsKeepTheirUpstreamNames() {
    String manifest = """
        apiVersion: kubeflow.org/v1
        kind: TFJob
        metadata: {name: dynamic}
        spec:
          successPolicy: AllWorkers
          enableDynamicWorker: true
          tfReplicaSpecs:
            Worker: {replicas: 2, template: {spec: {containers: [{name: tensorflow, image: x}]}}}
        """;
    KubernetesSerialization serialization = KindManifests.serialization(TFJob.class);
    TFJob job = serialization.unmarshal(manifest, TFJob.class);

    assertThat(job.getSpec().allWorkersMustSucceed()).isTrue();
    assertThat(job.getSpec().dynamicWorkers()).isTrue();
    assertThat(serialization.asJson(job))
        .contains("\"successPolicy\":\"AllWorkers\"", "\"enableDynamicWorker\":true", "\"tfReplicaSpecs\":{")
        .doesNotContain("dynamicWorkers", "allWorkersMustSucceed", "replicaSpecsField");
  }
}
