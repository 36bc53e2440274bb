package dev.stint.tensorflow;

import dev.stint.core.testing.FrameworkContractTest;
import dev.stint.spi.TrainingFramework;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The shared framework contract, with upstream's tf-dist-mnist example as the sample. */
class TensorFlowFrameworkContractTest extends FrameworkContractTest<TFJob> {

  @Override
  protected TrainingFramework<TFJob> framework() {
    return new TensorFlowFramework();
  }

  @Override
  protected TFJob sampleJob() {
    KubernetesSerialization serialization = new KubernetesSerialization();
    serialization.registerKubernetesResource(TFJob.class);
    try {
      TFJob job = serialization.unmarshal(Files.readString(
          Path.of(System.getProperty("stint.root", "../.."), "examples/tf-dist-mnist.yaml")), TFJob.class);
      job.getMetadata().setNamespace("default");
      job.getMetadata().setUid("uid-sample");
      return job;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
