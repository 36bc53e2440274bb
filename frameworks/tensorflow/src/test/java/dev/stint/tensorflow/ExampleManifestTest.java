package dev.stint.tensorflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.spi.api.ReplicaSpec;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Upstream's own manifest, {@code examples/tf-dist-mnist.yaml}, reads into the model unchanged and is valid. */
class ExampleManifestTest {

  @Test
  void upstreamDistMnistExampleDeserializes() throws IOException {
    TFJob job = read(Path.of(System.getProperty("stint.root"), "examples", "tf-dist-mnist.yaml"));

    assertThat(job.getApiVersion()).isEqualTo("kubeflow.org/v1");
    assertThat(job.getKind()).isEqualTo("TFJob");
    assertThat(job.getMetadata().getName()).isEqualTo("dist-mnist-for-e2e-test");
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
    assertThat(job.getStatus()).as("no status invented on read").isNull();
    assertThat(new TensorFlowFramework("").validate(job)).isEmpty();
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
    KubernetesSerialization serialization = serialization();
    TFJob job = serialization.unmarshal(manifest, TFJob.class);

    assertThat(job.getSpec().allWorkersMustSucceed()).isTrue();
    assertThat(job.getSpec().dynamicWorkers()).isTrue();
    assertThat(serialization.asJson(job))
        .contains("\"successPolicy\":\"AllWorkers\"", "\"enableDynamicWorker\":true", "\"tfReplicaSpecs\":{")
        .doesNotContain("dynamicWorkers", "allWorkersMustSucceed", "replicaSpecsField");
  }

  private static TFJob read(Path manifest) throws IOException {
    try (InputStream in = Files.newInputStream(manifest)) {
      return serialization().unmarshal(in, TFJob.class);
    }
  }

  /** Without registration, fabric8 reads any document with a kind it does not know as a GenericKubernetesResource. */
  private static KubernetesSerialization serialization() {
    KubernetesSerialization serialization = new KubernetesSerialization();
    serialization.registerKubernetesResource(TFJob.class);
    return serialization;
  }
}
