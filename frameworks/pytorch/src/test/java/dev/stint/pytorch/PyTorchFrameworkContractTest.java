package dev.stint.pytorch;

import dev.stint.core.testing.FrameworkContractTest;
import dev.stint.spi.TrainingFramework;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The shared framework contract, with upstream's pytorch-simple example as the sample. */
class PyTorchFrameworkContractTest extends FrameworkContractTest<PyTorchJob> {

  @Override
  protected TrainingFramework<PyTorchJob> framework() {
    return new PyTorchFramework();
  }

  @Override
  protected PyTorchJob sampleJob() {
    KubernetesSerialization serialization = new KubernetesSerialization();
    serialization.registerKubernetesResource(PyTorchJob.class);
    try {
      PyTorchJob job = serialization.unmarshal(Files.readString(
          Path.of(System.getProperty("stint.root", "../.."), "examples/pytorch-simple.yaml")), PyTorchJob.class);
      job.getMetadata().setNamespace("default");
      job.getMetadata().setUid("uid-sample");
      return job;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
