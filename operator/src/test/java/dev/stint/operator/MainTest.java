package dev.stint.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.testing.FaultyFramework;
import dev.stint.core.testing.FaultyJob;
import dev.stint.core.testing.TestCrds;
import dev.stint.core.testing.TestPluginJar;
import dev.stint.testdoubles.SimulatedKubelet;
import dev.stint.operator.testkind.SleepFramework;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line end to end; the test class path discovers the test-only {@code sleep} framework. */
class MainTest {
  @TempDir Path tmp;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @Test
  void helpPrintsTheUsage() {
    assertThat(run("--help")).isZero();
    assertThat(out()).contains("Usage: java -jar stint-operator.jar [run|demo] [options]");
  }

  @Test
  void versionPrintsTheBuildsVersionAndNothingElse() {
    assertThat(run("--version")).isZero();
    // the module's classes, not the shaded jar whose manifest names the version (OperatorImageTest reads that one)
    assertThat(out()).isEqualTo("stint dev" + System.lineSeparator());
    out.reset();
    assertThat(run("version")).isZero();
    assertThat(out()).isEqualTo("stint dev" + System.lineSeparator());
  }

  @Test
  void anUnknownFrameworkExitsTwoListingTheAvailableOnes() {
    assertThat(run("demo", "--frameworks=nope")).isEqualTo(2);
    assertThat(err()).contains("stint: unknown framework 'nope'; available: ").contains("sleep")
        .contains("Run with --help");
  }

  @Test
  void aWrongOptionExitsTwo() {
    assertThat(run("demo", "--health-port=1")).isEqualTo(2);
  }

  @Test
  void theDemoWithNoJobsExitsOneWithAClearMessage() throws IOException {
    Path crds = crds();
    Files.createDirectories(tmp.resolve("examples"));

    assertThat(run("demo", "--frameworks=sleep", "--crds=" + crds, "--examples=" + tmp.resolve("examples")))
        .isEqualTo(1);
    assertThat(err()).contains("stint: no jobs in directory " + tmp.resolve("examples"));
  }

  @Test
  void theDemoRunsTheExamplesToSuccess() throws IOException {
    Path crds = crds();
    Path examples = examples("SleepJob", "from-file", "sleepReplicaSpecs");

    int exit = run("demo", "--frameworks=sleep", "--timeout=60", "--crds=" + crds, "--examples=" + examples);

    assertThat(exit).as(out() + err()).isZero();
    assertThat(out()).contains("Succeeded=True (SleepJobSucceeded)").contains("All 1 job(s) ended as expected.");
  }

  @Test
  void aPluginFrameworkCanBeSelectedAndRunsItsJobs() throws IOException {
    Path plugins = Files.createDirectories(tmp.resolve("plugins"));
    TestPluginJar.of("faulty").framework(FaultyFramework.class).classes(FaultyJob.class).writeTo(plugins);
    Files.writeString(plugins.resolve("broken.jar"), "not a jar");
    Path crds = Files.createDirectories(tmp.resolve("crds"));
    Files.writeString(crds.resolve("faultyjobs.yml"),
        new KubernetesSerialization().asYaml(TestCrds.of(FaultyJob.class)));
    Path examples = examples("FaultyJob", "from-plugin", "testReplicaSpecs");

    int exit = run("demo", "--frameworks=faulty", "--plugins-dir=" + plugins, "--timeout=60", "--crds=" + crds,
        "--examples=" + examples);

    assertThat(exit).as(out() + err()).isZero();
    assertThat(out()).contains("Frameworks: faulty (FaultyJob)").contains("Succeeded=True (FaultyJobSucceeded)");
  }

  @Test
  void aPluginsDirectoryGivenButMissingExitsTwo() {
    assertThat(run("demo", "--plugins-dir=" + tmp.resolve("absent"))).isEqualTo(2);
    assertThat(err()).contains("stint: --plugins-dir: no directory " + tmp.resolve("absent"));
  }

  private Path crds() throws IOException {
    Path crds = Files.createDirectories(tmp.resolve("crds"));
    Files.writeString(crds.resolve("sleepjobs.yml"), new KubernetesSerialization().asYaml(SleepFramework.crd()));
    return crds;
  }

  /** An examples folder holding one job of the kind: one worker that the simulated kubelet runs for half a second. */
  private Path examples(String kind, String name, String replicaSpecsField) throws IOException {
    Path examples = Files.createDirectories(tmp.resolve("examples"));
    Files.writeString(examples.resolve(name + ".yaml"), """
        apiVersion: test.stint.dev/v1
        kind: %s
        metadata:
          name: %s
        spec:
          %s:
            Worker:
              replicas: 1
              template:
                metadata:
                  annotations:
                    %s: "0.5"
                spec:
                  containers:
                  - name: main
                    image: busybox
        """.formatted(kind, name, replicaSpecsField, SimulatedKubelet.RUN_SECONDS));
    return examples;
  }

  private int run(String... args) {
    return Main.run(List.of(args), false, java.util.Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }
}
