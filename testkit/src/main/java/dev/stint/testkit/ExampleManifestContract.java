package dev.stint.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.model.EngineFramework;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * What a kind's example manifest, as users copy it, must be: its class reads it unchanged (the apiVersion, kind and
 * name it declares, and no status invented on read) and the framework finds nothing in it to refuse (its
 * {@code WithValidation}, if it has one). A kind's test
 * extends it with the file and what it declares, and checks the kind's own fields on {@link #example()}:
 *
 * <pre>{@code
 * class JaxExampleTest extends ExampleManifestContract<JAXJob> {
 *   JaxExampleTest() {
 *     super(Path.of("examples", "jaxjob.yaml"), new JaxFramework(), "kubeflow.org/v1", "JAXJob", "mnist");
 *   }
 * }
 * }</pre>
 *
 * @param <J> the kind's custom resource class
 */
public abstract class ExampleManifestContract<J extends TrainingJob<?>> {
  private final Path manifest;
  private final TrainingFramework<J> framework;
  private final String apiVersion;
  private final String kind;
  private final String name;

  /**
   * @param manifest the example's file
   * @param framework the kind's framework, whose job type reads it and which must accept it
   * @param apiVersion the apiVersion the example declares, {@code kubeflow.org/v1}
   * @param kind the kind the example declares, {@code JAXJob}
   * @param name the example job's name
   */
  protected ExampleManifestContract(Path manifest, TrainingFramework<J> framework, String apiVersion, String kind,
      String name) {
    this.manifest = manifest;
    this.framework = framework;
    this.apiVersion = apiVersion;
    this.kind = kind;
    this.name = name;
  }

  /** The example, read anew as the kind. */
  protected J example() throws IOException {
    return KindManifests.read(manifest, framework.jobType());
  }

  @Test
  void readsAsItsKindUnchangedAndIsValid() throws IOException {
    J job = example();

    assertThat(job.getApiVersion()).isEqualTo(apiVersion);
    assertThat(job.getKind()).isEqualTo(kind);
    assertThat(job.getMetadata().getName()).isEqualTo(name);
    assertThat(job.getStatus()).as("no status invented on read").isNull();
    assertThat(EngineFramework.of(framework).validate(job)).as("the framework's own validation").isEmpty();
  }
}
