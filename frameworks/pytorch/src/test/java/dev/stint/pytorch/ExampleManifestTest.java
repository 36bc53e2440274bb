package dev.stint.pytorch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.spi.api.ReplicaSpec;
import dev.stint.testkit.ExampleManifestContract;
import dev.stint.testkit.KindManifests;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Upstream's own manifest, {@code examples/pytorch-simple.yaml}, reads into the model unchanged and is valid (the
 * contract), with upstream's fields; the elastic fields and the status keep their upstream names.
 */
class ExampleManifestTest extends ExampleManifestContract<PyTorchJob> {

  ExampleManifestTest() {
    super(Path.of(System.getProperty("stint.root"), "examples", "pytorch-simple.yaml"),
        new PyTorchFramework(), "kubeflow.org/v1", "PyTorchJob", "pytorch-simple");
  }

  @Test
  void upstreamSimpleExampleDeserializes() throws IOException {
    PyTorchJob job = example();

    assertThat(job.getSpec().getPytorchReplicaSpecs()).containsOnlyKeys("Master", "Worker");
    for (String type : new String[] {"Master", "Worker"}) {
      ReplicaSpec replica = job.getSpec().getPytorchReplicaSpecs().get(type);
      assertThat(replica.getReplicas()).isEqualTo(1);
      assertThat(replica.getRestartPolicy()).isEqualTo("OnFailure");
      Container container = replica.getTemplate().getSpec().getContainers().get(0);
      assertThat(container.getName()).isEqualTo("pytorch");
      assertThat(container.getImage()).isEqualTo("docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727");
      assertThat(container.getImagePullPolicy()).isEqualTo("Always");
      assertThat(container.getCommand()).containsExactly("python3", "/opt/pytorch-mnist/mnist.py", "--epochs=1");
    }
    assertThat(job.getSpec().getRunPolicy()).isNull();
    assertThat(job.getSpec().getElasticPolicy()).isNull();
    assertThat(job.getSpec().getNprocPerNode()).isNull();
  }

  @Test
  void elasticFieldsKeepTheirUpstreamNames() {
    String manifest = """
        apiVersion: kubeflow.org/v1
        kind: PyTorchJob
        metadata: {name: elastic}
        spec:
          nprocPerNode: "2"
          elasticPolicy:
            rdzvBackend: c10d
            rdzvId: run-1
            minReplicas: 1
            maxReplicas: 3
            maxRestarts: 100
            nProcPerNode: 4
            rdzvConf: [{key: timeout, value: "900"}]
          pytorchReplicaSpecs:
            Worker: {replicas: 2, template: {spec: {containers: [{name: pytorch, image: x}]}}}
        """;
    KubernetesSerialization serialization = KindManifests.serialization(PyTorchJob.class);
    PyTorchJob job = serialization.unmarshal(manifest, PyTorchJob.class);

    ElasticPolicy elastic = job.getSpec().getElasticPolicy();
    assertThat(elastic.getNProcPerNode()).isEqualTo(4);
    assertThat(elastic.getRdzvId()).isEqualTo("run-1");
    assertThat(elastic.getRdzvConf()).containsExactly(new RdzvConf("timeout", "900"));
    String json = serialization.asJson(job);
    assertThat(json).contains("\"nProcPerNode\":4", "\"nprocPerNode\":\"2\"", "\"rdzvId\":\"run-1\"")
        .doesNotContain("\"nprocPerNode\":4");
  }

  @Test
  void statusReadsAndWritesThroughTheSharedTypes() {
    String manifest = """
        apiVersion: kubeflow.org/v1
        kind: PyTorchJob
        metadata: {name: test-job, namespace: ns}
        spec:
          pytorchReplicaSpecs:
            Worker: {replicas: 1, template: {spec: {containers: [{name: pytorch, image: x}]}}}
        status:
          startTime: "2026-01-01T00:00:00Z"
          replicaStatuses:
            Worker: {active: 1, selector: "training.kubeflow.org/job-name=test-job"}
          conditions:
          - {type: Created, status: "True", reason: PyTorchJobCreated, message: "PyTorchJob test-job is created."}
        """;
    KubernetesSerialization serialization = KindManifests.serialization(PyTorchJob.class);

    PyTorchJob job = serialization.unmarshal(manifest, PyTorchJob.class);

    assertThat(job.getStatus().getStartTime()).isEqualTo("2026-01-01T00:00:00Z");
    assertThat(job.getStatus().getReplicaStatuses().get("Worker").active()).isEqualTo(1);
    assertThat(job.getStatus().isTrue("Created")).isTrue();
    PyTorchJob copy = serialization.unmarshal(serialization.asJson(job), PyTorchJob.class);
    assertThat(copy.getStatus()).isEqualTo(job.getStatus());
  }
}
