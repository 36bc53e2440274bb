package dev.stint.operator.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.mpi.MpiFramework;
import dev.stint.pytorch.PyTorchFramework;
import dev.stint.pytorch.PyTorchJob;
import dev.stint.spi.api.JobCondition;
import dev.stint.tensorflow.TensorFlowFramework;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * The demo as a newcomer runs it: the built-in frameworks, the repository's CRDs and example jobs. Every example ends
 * as it expects, among them the suspended and resumed job, the partial success and the gang restart.
 */
@EnableKubernetesMockClient(crud = true)
class ExampleJobsDemoTest {
  private static final Path ROOT = Path.of(System.getProperty("stint.root", "..")).toAbsolutePath().normalize();

  KubernetesClient client;

  @Test
  void everyExampleJobEndsAsItExpectsWithASuspensionAPartialSuccessAndAGangRestartAmongThem() throws Exception {
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    Demo demo = new Demo(FrameworkRegistry.of(new PyTorchFramework(), new TensorFlowFramework(), new MpiFramework()),
        ManifestDirectory.onDisk(ROOT.resolve("crds")), ManifestDirectory.onDisk(ROOT.resolve("examples")),
        new Demo.Settings(Duration.ofSeconds(120), Duration.ofMillis(500), null),
        new PrintStream(output, true, StandardCharsets.UTF_8), Clock.systemUTC());

    int exit = demo.run(client);

    String text = output.toString(StandardCharsets.UTF_8);
    System.out.println(text);
    assertThat(exit).isZero();
    PyTorchJob resumed = pytorchJob("pytorch-suspend-resume");
    assertThat(resumed.getStatus().getSuspensions()).isEqualTo(1);
    assertThat(resumed.getStatus().getOutcome()).isEqualTo("Succeeded");
    PyTorchJob partial = pytorchJob("pytorch-partial-success");
    assertThat(partial.getStatus().getConditions())
        .extracting(JobCondition::getType, JobCondition::getStatus, JobCondition::getReason)
        .containsSubsequence(Tuple.tuple("PartiallySucceeded", "True", "PyTorchJobPartiallySucceeded"),
            Tuple.tuple("Succeeded", "True", "PyTorchJobPartiallySucceeded"));
    assertThat(partial.getStatus().getReplicaStatuses().get("Worker").getFailedIndexes()).isEqualTo("1");
    PyTorchJob gang = pytorchJob("pytorch-gang-restart");
    assertThat(gang.getStatus().getOutcome()).isEqualTo("Succeeded");
    assertThat(gang.getStatus().getRestarts()).isEqualTo(1);
    assertThat(gang.getStatus().getRestartsCountTowardsMax()).isEqualTo(1);
    assertThat(gang.getStatus().getReplicaStatuses().get("Worker").getFailedIndexes()).as("the last attempt's").isNull();
    assertThat(text).contains(
        ">> pytorch-suspend-resume is suspended: 3 pods deleted, active 0, suspensions 1",
        ">> pytorch-suspend-resume is running again: 3 new pods",
        "ok   pytorch-suspend-resume: Succeeded, as expected; suspensions 1",
        "ok   pytorch-partial-success: PartiallySucceeded, as expected: PyTorchJob pytorch-partial-success "
            + "partially succeeded: Worker 1 failed (exit code 1)",
        "ok   pytorch-gang-restart: Succeeded, as expected; gang restarts 1",
        "ok   pytorch-simple: Succeeded, as expected",
        "ok   pi: Succeeded, as expected",
        "ok   dist-mnist-for-e2e-test: Succeeded, as expected",
        "All 6 job(s) ended as expected.");
  }

  private PyTorchJob pytorchJob(String name) {
    return client.resources(PyTorchJob.class).inNamespace(Demo.NAMESPACE).withName(name).get();
  }
}
