package dev.stint.mpi;

import dev.stint.core.testing.FrameworkContractTest;
import dev.stint.spi.TrainingFramework;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The shared framework contract, with upstream's mpi-pi example as the sample. */
class MpiFrameworkContractTest extends FrameworkContractTest<MPIJob> {

  @Override
  protected TrainingFramework<MPIJob> framework() {
    return new MpiFramework();
  }

  @Override
  protected MPIJob sampleJob() {
    KubernetesSerialization serialization = new KubernetesSerialization();
    serialization.registerKubernetesResource(MPIJob.class);
    try {
      MPIJob job = serialization.unmarshal(Files.readString(
          Path.of(System.getProperty("stint.root", "../.."), "examples/mpi-pi.yaml")), MPIJob.class);
      job.getMetadata().setNamespace("default");
      job.getMetadata().setUid("uid-sample");
      return job;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
