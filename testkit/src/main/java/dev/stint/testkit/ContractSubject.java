package dev.stint.testkit;

import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * What every part of the framework contract checks: a framework, made anew for each check, and its sample jobs. A
 * plugin's test does not extend this directly but {@link FrameworkContractTest}, which holds every part; override
 * {@link #sampleJob()} or {@link #jobWithSupportingResources()} where the kind needs another job.
 */
public abstract class ContractSubject<J extends TrainingJob<?>> {
  private final Supplier<? extends TrainingFramework<J>> frameworks;
  private final Path sample;

  /**
   * @param frameworks makes a new instance of the framework, through the constructor the operator uses
   * @param sample the manifest of a valid job of the kind with at least two replicas, usually the kind's example
   */
  protected ContractSubject(Supplier<? extends TrainingFramework<J>> frameworks, Path sample) {
    this.frameworks = frameworks;
    this.sample = sample;
  }

  /** A new instance of the framework: one per check, as each operator process has its own. */
  protected TrainingFramework<J> framework() {
    return frameworks.get();
  }

  /** The sample job, in namespace {@code default}, with a uid, as the API server would store it. */
  protected J sampleJob() {
    return sampleFrom(sample);
  }

  /** The job of a manifest file, in namespace {@code default} and with a uid, as the API server would store it. */
  protected final J sampleFrom(Path manifest) {
    KubernetesSerialization serialization = new KubernetesSerialization();
    serialization.registerKubernetesResource(framework().jobType());
    try {
      J job = serialization.unmarshal(Files.readString(manifest), framework().jobType());
      job.getMetadata().setNamespace("default");
      job.getMetadata().setUid("uid-sample");
      return job;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A valid job for which the framework makes its supporting resources, when it declares any
   * ({@code supportingResourceTypes()}); the sample job unless only some jobs need them (an elastic PyTorchJob's
   * autoscaler).
   */
  protected J jobWithSupportingResources() {
    return sampleJob();
  }
}
