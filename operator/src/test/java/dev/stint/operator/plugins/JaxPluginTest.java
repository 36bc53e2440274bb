package dev.stint.operator.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.stint.core.StintOperator;
import dev.stint.core.registry.ClasspathDiscovery;
import dev.stint.core.registry.DiscoveredFramework;
import dev.stint.core.registry.PluginDirDiscovery;
import dev.stint.core.registry.SkippedPlugin;
import dev.stint.testdoubles.FakeKubelet;
import dev.stint.operator.FrameworkSelection;
import dev.stint.spi.SpiVersion;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pf4j.PluginClassLoader;

/**
 * The sample plugin {@code examples/plugins/jax}, built by Maven from its own pom ({@link SamplePluginBuild}), dropped
 * into a plugins directory and run by the operator next to the built-in frameworks, on the fabric8 mock server with a
 * fake kubelet. The plugin's classes are not on this test's class path: they exist only in the jar, in the plugin's
 * own class loader.
 */
@EnableKubernetesMockClient(crud = true)
class JaxPluginTest {
  /** Waits sized for a loaded 2-core machine: a wait only ends early when its condition holds. */
  @org.junit.jupiter.api.BeforeAll
  static void patientOnALoadedMachine() {
    org.awaitility.Awaitility.setDefaultTimeout(java.time.Duration.ofSeconds(60));
  }

  private static final String FRAMEWORK_CLASS = "dev.stint.examples.jax.JaxFramework";
  private static final String CRD_FILE = "jaxjobs.kubeflow.org-v1.yml";
  private static String checkedInCrdBeforeTheBuild;
  private static Path jar;

  KubernetesClient client;
  io.fabric8.kubernetes.client.server.mock.KubernetesMockServer server;
  @TempDir Path plugins;
  private PluginDirDiscovery discovery;
  private StintOperator operator;
  private FakeKubelet kubelet;

  @BeforeAll
  static void buildThePlugin() throws IOException {
    Path checkedIn = SamplePluginBuild.sampleDir().resolve("crds").resolve(CRD_FILE);
    checkedInCrdBeforeTheBuild = Files.exists(checkedIn) ? Files.readString(checkedIn, StandardCharsets.UTF_8) : "";
    jar = SamplePluginBuild.jar();
  }

  @BeforeEach
  void dropTheJarIntoThePluginsDirectory() throws IOException {
    Files.copy(jar, plugins.resolve(jar.getFileName()));
    discovery = PluginDirDiscovery.scan(plugins);
    kubelet = new FakeKubelet(client, "default");
  }

  @AfterEach
  void stop() {
    if (operator != null) {
      operator.stop();
    }
    discovery.close();
    dev.stint.testdoubles.MockServerShutdown.quietly(server);
  }

  @Test
  void theFrameworkLivesOnlyInThePluginsClassLoader() {
    assertThat(discovery.skipped()).isEmpty();
    DiscoveredFramework jax = discovery.frameworks().get(0);
    assertThat(jax.source())
        .isEqualTo(new DiscoveredFramework.Plugin("jax", "0.1.0", plugins.resolve(jar.getFileName())));
    assertThat(jax.describe()).isEqualTo("jax (JAXJob kubeflow.org/v1, plugin jax 0.1.0, "
        + plugins.resolve(jar.getFileName()) + ")");

    TrainingFramework<?> framework = jax.framework();
    assertThat(framework.getClass().getName()).isEqualTo(FRAMEWORK_CLASS);
    assertThat(framework.getClass().getClassLoader()).isInstanceOf(PluginClassLoader.class);
    assertThat(framework).isInstanceOf(TrainingFramework.class);
    assertThatThrownBy(() -> Class.forName(FRAMEWORK_CLASS)).isInstanceOf(ClassNotFoundException.class);
  }

  @Test
  void theExampleJobRunsToSuccessWithJaxsEnvironment() throws IOException {
    startOperator();
    createExampleJob();

    await().untilAsserted(() -> assertThat(pods()).extracting(p -> p.getMetadata().getName())
        .containsExactlyInAnyOrder("jaxjob-simple-worker-0", "jaxjob-simple-worker-1"));
    assertThat(env(pod("jaxjob-simple-worker-1"))).containsExactly("PYTHONUNBUFFERED=1", "COORDINATOR_PORT=6666",
        "COORDINATOR_ADDRESS=jaxjob-simple-worker-0", "NUM_PROCESSES=2", "PROCESS_ID=1");
    assertThat(env(pod("jaxjob-simple-worker-0"))).contains("PROCESS_ID=0");
    Container jaxContainer = pod("jaxjob-simple-worker-0").getSpec().getContainers().get(0);
    assertThat(jaxContainer.getPorts()).singleElement()
        .satisfies(p -> assertThat(p.getName() + ":" + p.getContainerPort()).isEqualTo("jaxjob-port:6666"));
    assertThat(pod("jaxjob-simple-worker-0").getMetadata().getLabels())
        .containsEntry("training.kubeflow.org/job-role", "master")
        .containsEntry("training.kubeflow.org/operator-name", "jaxjob-controller");
    assertThat(client.services().inNamespace("default").withName("jaxjob-simple-worker-0").get()).isNotNull();

    pods().forEach(p -> kubelet.run(p.getMetadata().getName()));
    await().untilAsserted(() -> assertThat(status().isTrue("Running")).isTrue());
    kubelet.succeed("jaxjob-simple-worker-0");
    kubelet.succeed("jaxjob-simple-worker-1");

    await().untilAsserted(() -> assertThat(status().condition("Succeeded")).get()
        .extracting(JobCondition::getReason, JobCondition::getMessage)
        .containsExactly("JAXJobSucceeded", "JAXJob default/jaxjob-simple successfully completed."));
    assertThat(status().getReplicaStatuses().get("Worker").succeeded()).isEqualTo(2);
  }

  @Test
  void aJaxJobIsSuspendedAndResumedByTheEngine() throws IOException {
    startOperator();
    createExampleJob();
    await().untilAsserted(() -> assertThat(pods()).hasSize(2));
    pods().forEach(p -> kubelet.run(p.getMetadata().getName()));
    await().untilAsserted(() -> assertThat(status().isTrue("Running")).isTrue());

    setSuspend(true);
    await().untilAsserted(() -> assertThat(pods()).isEmpty());
    await().untilAsserted(() -> assertThat(status().condition("Suspended")).get()
        .extracting(JobCondition::getStatus, JobCondition::getReason).containsExactly("True", "JAXJobSuspended"));

    setSuspend(false);
    await().untilAsserted(() -> assertThat(pods()).hasSize(2));
    await().untilAsserted(() -> assertThat(status().condition("Suspended")).get()
        .extracting(JobCondition::getStatus, JobCondition::getReason).containsExactly("False", "JAXJobResumed"));
    assertThat(env(pod("jaxjob-simple-worker-1"))).contains("COORDINATOR_ADDRESS=jaxjob-simple-worker-0");
  }

  @Test
  void theJarDeclaresTheSpiVersionOfThisBuild() throws IOException {
    try (var jarFile = new java.util.jar.JarFile(jar.toFile())) {
      assertThat(jarFile.getManifest().getMainAttributes().getValue(SpiVersion.MANIFEST_ATTRIBUTE))
          .as("stint.spi.version in examples/plugins/jax/pom.xml").isEqualTo(SpiVersion.CURRENT.toString());
    }
  }

  @Test
  void theCheckedInCrdIsTheOneTheBuildGenerates() throws IOException {
    String generated;
    try (var jarFile = new java.util.jar.JarFile(jar.toFile());
         InputStream in = jarFile.getInputStream(jarFile.getJarEntry("META-INF/fabric8/" + CRD_FILE))) {
      generated = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(checkedInCrdBeforeTheBuild.equals(generated))
        .withFailMessage("examples/plugins/jax/crds/%s was out of date; the sample's build has just rewritten it: "
            + "review and commit it", CRD_FILE)
        .isTrue();
  }

  @Test
  void aCopyBuiltForAnotherSpiIsSkippedAndTheBuiltInsStillRun() throws IOException {
    Path other = Files.createDirectories(plugins.resolve("other"));
    Path newer = PluginJars.withManifest(jar, other.resolve("jax-next.jar"), Map.of("Stint-Spi-Version", "3.0"));

    try (PluginDirDiscovery scan = PluginDirDiscovery.scan(other)) {
      assertThat(scan.frameworks()).isEmpty();
      assertThat(scan.skipped()).containsExactly(new SkippedPlugin(newer, "built against Stint SPI 3.0, which this "
          + "operator (SPI 2.0) cannot run; it runs only plugins built against 2.0"));
      assertThat(FrameworkSelection.select(builtIns(), List.of()).registry().byName("pytorch")).isPresent();
    }
  }

  @Test
  void aForkServingTheSameKindIsSkipped() throws IOException {
    Path fork = PluginJars.withManifest(jar, plugins.resolve("zz-jax-fork.jar"), Map.of("Plugin-Id", "jax-fork"));
    try (PluginDirDiscovery scan = PluginDirDiscovery.scan(plugins)) {
      List<DiscoveredFramework> discovered = builtIns();
      discovered.addAll(scan.frameworks());

      var selection = FrameworkSelection.select(discovered, List.of());

      assertThat(selection.frameworks()).extracting(DiscoveredFramework::source)
          .contains(new DiscoveredFramework.Plugin("jax", "0.1.0", plugins.resolve(jar.getFileName())))
          .doesNotContain(new DiscoveredFramework.Plugin("jax-fork", "0.1.0", fork));
    }
  }

  private List<DiscoveredFramework> builtIns() {
    List<DiscoveredFramework> found = new ArrayList<>();
    ClasspathDiscovery.discover(getClass().getClassLoader()).forEach(f -> found.add(DiscoveredFramework.builtIn(f)));
    return found;
  }

  /** The operator with every framework: the built-ins of the class path and the plugin's. */
  private void startOperator() throws IOException {
    try (InputStream crd = Files.newInputStream(SamplePluginBuild.sampleDir().resolve("crds").resolve(CRD_FILE))) {
      CustomResourceDefinition jaxCrd = client.apiextensions().v1().customResourceDefinitions().load(crd).item();
      client.apiextensions().v1().customResourceDefinitions().resource(jaxCrd).create();
    }
    List<DiscoveredFramework> discovered = builtIns();
    discovered.addAll(discovery.frameworks());
    var selection = FrameworkSelection.select(discovered, List.of());
    assertThat(selection.registry().byName("jax")).isPresent();
    operator = StintOperator.builder(client, selection.registry()).serverSideApply(false).closeClientOnStop(false)
        .stopOnInformerError(false).kindChecks(false).build();
    operator.start();
  }

  /** {@code examples/plugins/jax/example-jaxjob.yaml}, created in namespace default. */
  private void createExampleJob() throws IOException {
    try (InputStream yaml = Files.newInputStream(SamplePluginBuild.sampleDir().resolve("example-jaxjob.yaml"))) {
      HasMetadata job = client.load(yaml).items().get(0);
      client.resource(generic(job)).inNamespace("default").create();
    }
  }

  private GenericKubernetesResource generic(HasMetadata job) {
    return client.getKubernetesSerialization().convertValue(job, GenericKubernetesResource.class);
  }

  private Resource<GenericKubernetesResource> job() {
    return client.genericKubernetesResources("kubeflow.org/v1", "JAXJob").inNamespace("default")
        .withName("jaxjob-simple");
  }

  private void setSuspend(boolean suspend) {
    job().patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"runPolicy\":{\"suspend\":" + suspend + "}}}");
  }

  private JobStatus status() {
    Object status = job().get().getAdditionalProperties().get("status");
    return status == null ? new JobStatus()
        : client.getKubernetesSerialization().convertValue(status, JobStatus.class);
  }

  private List<Pod> pods() {
    return client.pods().inNamespace("default").withLabel("training.kubeflow.org/job-name", "jaxjob-simple").list()
        .getItems();
  }

  private Pod pod(String name) {
    return client.pods().inNamespace("default").withName(name).get();
  }

  private static List<String> env(Pod pod) {
    List<EnvVar> env = pod.getSpec().getContainers().get(0).getEnv();
    return env == null ? List.of() : env.stream().map(e -> e.getName() + "=" + e.getValue()).toList();
  }
}
