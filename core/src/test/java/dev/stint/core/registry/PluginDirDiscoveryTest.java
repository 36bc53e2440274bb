package dev.stint.core.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stint.core.testing.FaultyFramework;
import dev.stint.core.testing.FaultyJob;
import dev.stint.core.testing.StrandedFramework;
import dev.stint.core.testing.TestFramework;
import dev.stint.core.testing.TestPluginJar;
import dev.stint.spi.TrainingFramework;
import dev.stint.testdoubles.TestJob;
import dev.stint.testdoubles.TestJobSpec;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.pf4j.PluginClassLoader;
import org.slf4j.Logger;

/** Plugin jars written from test classes, loaded from a directory with pf4j. */
class PluginDirDiscoveryTest {
  @TempDir Path dir;

  static TestPluginJar testPlugin(String id) {
    return TestPluginJar.of(id).framework(TestFramework.class).classes(TestJob.class, TestJobSpec.class);
  }

  static TestPluginJar faultyPlugin(String id, String fault) {
    return TestPluginJar.of(id).framework(FaultyFramework.class).classes(FaultyJob.class)
        .resource(FaultyFramework.FAULT_RESOURCE, "fault=" + fault);
  }

  @Test
  void aPluginRunsInItsOwnClassLoaderAndSharesTheOperatorsSpiAndLibraries() throws Exception {
    Path jar = testPlugin("test-plugin").writeTo(dir);

    try (PluginDirDiscovery discovery = PluginDirDiscovery.scan(dir)) {
      assertThat(discovery.skipped()).isEmpty();
      DiscoveredFramework found = discovery.frameworks().get(0);
      assertThat(found.source()).isEqualTo(new DiscoveredFramework.Plugin("test-plugin", "1.0.0", jar));
      TrainingFramework<?> framework = found.framework();
      ClassLoader loader = framework.getClass().getClassLoader();

      assertThat(loader).isInstanceOf(PluginClassLoader.class);
      assertThat(framework.getClass()).isNotSameAs(TestFramework.class);
      assertThat(framework.jobType().getClassLoader()).isSameAs(loader);
      for (Class<?> shared : List.of(TrainingFramework.class, Pod.class, ObjectMapper.class, Logger.class,
          io.javaoperatorsdk.operator.Operator.class)) {
        assertThat(loader.loadClass(shared.getName())).as(shared.getName()).isSameAs(shared);
      }
    }
  }

  @Test
  void aJarThatBundlesTheSpiAndFabric8StillGetsTheOperatorsCopies() throws Exception {
    testPlugin("fat").classes(TrainingFramework.class, Pod.class).writeTo(dir);

    try (PluginDirDiscovery discovery = PluginDirDiscovery.scan(dir)) {
      TrainingFramework<?> framework = discovery.frameworks().get(0).framework();
      ClassLoader loader = framework.getClass().getClassLoader();
      assertThat(loader.loadClass(TrainingFramework.class.getName())).isSameAs(TrainingFramework.class);
      assertThat(loader.loadClass(Pod.class.getName())).isSameAs(Pod.class);
    }
  }

  static Stream<Arguments> brokenPlugins() {
    return Stream.of(
        broken("a manifest without Plugin-Id", p -> testPlugin(p).manifest("Plugin-Id", null),
            "its manifest has no Plugin-Id"),
        broken("a manifest without Plugin-Version", p -> testPlugin(p).manifest("Plugin-Version", null),
            "its manifest has no Plugin-Version"),
        broken("a manifest without Stint-Spi-Version", p -> testPlugin(p).manifest("Stint-Spi-Version", null),
            "its manifest has no Stint-Spi-Version (the Stint SPI version it was built against; this operator "
                + "implements 2.0)"),
        broken("another major SPI version", p -> testPlugin(p).manifest("Stint-Spi-Version", "3.0"),
            "built against Stint SPI 3.0, which this operator (SPI 2.0) cannot run; it runs only plugins built "
                + "against 2.0"),
        broken("the SPI before capabilities", p -> testPlugin(p).manifest("Stint-Spi-Version", "1.1"),
            "built against Stint SPI 1.1, which this operator (SPI 2.0) cannot run; it runs only plugins built "
                + "against 2.0. To move it to SPI 2.0, rebuild it against stint-spi 2.0 with Stint-Spi-Version: "
                + "2.0, its framework implementing the capability interface of each method it overrides that moved: "
                + "validate() to WithValidation, podName() to WithPodNames, defaultReplicas() to "
                + "WithReplicaDefaults, defaultRestartPolicy() to WithReplicaDefaults, readyToCreate() to "
                + "WithLaunchOrder, failureIsFatal() to WithFailureTolerance, messages() to WithMessages, "
                + "servicePerPod() to WithSupportingResources, supportingResourceTypes() to WithSupportingResources, "
                + "supportingResources() to WithSupportingResources, minReplicas() to WithElasticReplicas, "
                + "controllerName() to WithControllerIdentity, managedByValue() to WithControllerIdentity"),
        broken("a newer minor SPI version", p -> testPlugin(p).manifest("Stint-Spi-Version", "2.1"),
            "built against Stint SPI 2.1, which this operator (SPI 2.0) cannot run"),
        broken("an SPI version that is not one", p -> testPlugin(p).manifest("Stint-Spi-Version", "latest"),
            "its Stint-Spi-Version 'latest' is not a version of the form MAJOR.MINOR"),
        broken("no services entry", p -> TestPluginJar.of(p).classes(TestFramework.class),
            "declares no framework: no class listed in META-INF/services/dev.stint.spi.TrainingFramework"),
        broken("a listed class missing from the jar", p -> TestPluginJar.of(p).service("com.example.Gone"),
            "class com.example.Gone listed in META-INF/services/dev.stint.spi.TrainingFramework cannot be loaded: "
                + "java.lang.ClassNotFoundException: com.example.Gone"),
        broken("a listed class that is no framework", p -> TestPluginJar.of(p).service(TestJob.class.getName())
                .classes(TestJob.class),
            "class dev.stint.testdoubles.TestJob listed in META-INF/services/dev.stint.spi.TrainingFramework "
                + "does not implement dev.stint.spi.TrainingFramework"),
        broken("no directory entries", p -> testPlugin(p).withoutDirectoryEntries(),
            "class dev.stint.core.testing.TestFramework listed in META-INF/services/dev.stint.spi.TrainingFramework "
                + "was not found by pf4j: the jar has no directory entry META-INF/services/ (the jar tool and Maven "
                + "write one)"),
        broken("a method SPI 2.0 moved, without its interface", p -> TestPluginJar.of(p)
                .framework(StrandedFramework.class).classes(TestFramework.class, TestJob.class, TestJobSpec.class),
            "framework test declares SPI 1.x methods the engine would not call: implement WithPodNames for "
                + "podName()"),
        broken("a constructor that throws", p -> faultyPlugin(p, "constructor"),
            "the constructor of framework dev.stint.core.testing.FaultyFramework threw "
                + "java.lang.IllegalStateException: injected fault in constructor"),
        broken("name() throws", p -> faultyPlugin(p, "name"),
            "framework dev.stint.core.testing.FaultyFramework: name() threw java.lang.IllegalStateException: "
                + "injected fault in name"),
        broken("jobType() throws", p -> faultyPlugin(p, "jobType"),
            "framework dev.stint.core.testing.FaultyFramework: jobType() threw java.lang.IllegalStateException: "
                + "injected fault in jobType"),
        broken("replicaTypes() throws", p -> faultyPlugin(p, "replicaTypes"),
            "framework dev.stint.core.testing.FaultyFramework: replicaTypes() threw "
                + "java.lang.IllegalStateException: injected fault in replicaTypes"));
  }

  private static Arguments broken(String name, Function<String, TestPluginJar> jar, String reason) {
    return Arguments.of(name, jar, reason);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("brokenPlugins")
  void aBrokenPluginIsSkippedWithItsReasonAndTheOthersLoad(String name, Function<String, TestPluginJar> jar,
                                                          String reason) {
    Path broken = jar.apply("broken").writeTo(dir);
    faultyPlugin("working", "none").writeTo(dir);

    try (PluginDirDiscovery discovery = PluginDirDiscovery.scan(dir)) {
      assertThat(discovery.skipped()).singleElement().satisfies(s -> {
        assertThat(s.jar()).isEqualTo(broken);
        assertThat(s.reason()).startsWith(reason);
      });
      assertThat(discovery.frameworks()).extracting(DiscoveredFramework::name).containsExactly("faulty");
    }
  }

  @Test
  void aFileThatIsNoJarIsSkipped() throws IOException {
    Path notAJar = Files.writeString(dir.resolve("notes.jar"), "not a zip", StandardCharsets.UTF_8);
    testPlugin("test-plugin").writeTo(dir);

    try (PluginDirDiscovery discovery = PluginDirDiscovery.scan(dir)) {
      assertThat(discovery.skipped()).singleElement().satisfies(s -> {
        assertThat(s.jar()).isEqualTo(notAJar);
        assertThat(s.reason()).startsWith("not a readable jar (");
        assertThat(s.describe()).startsWith("Skipped plugin " + notAJar + ": not a readable jar");
      });
      assertThat(discovery.frameworks()).hasSize(1);
    }
  }

  @Test
  void aJarWithoutManifestIsSkipped() throws IOException {
    Path bare = dir.resolve("bare.jar");
    try (OutputStream file = Files.newOutputStream(bare); ZipOutputStream zip = new ZipOutputStream(file)) {
      zip.putNextEntry(new ZipEntry("README"));
      zip.closeEntry();
    }

    try (PluginDirDiscovery discovery = PluginDirDiscovery.scan(dir)) {
      assertThat(discovery.skipped()).extracting(SkippedPlugin::reason).singleElement().asString()
          .startsWith("no META-INF/MANIFEST.MF");
    }
  }

  @Test
  void theSecondJarWithAPluginIdAlreadyTakenIsSkipped() {
    Path first = faultyPlugin("same", "none").writeTo(mkdir("a"));
    Path second = testPlugin("same").writeTo(mkdir("b"));
    Path plugins = mkdir("plugins");
    Path a = copy(first, plugins.resolve("a.jar"));
    Path b = copy(second, plugins.resolve("b.jar"));

    try (PluginDirDiscovery discovery = PluginDirDiscovery.scan(plugins)) {
      assertThat(discovery.frameworks()).extracting(DiscoveredFramework::name).containsExactly("faulty");
      assertThat(discovery.skipped()).containsExactly(new SkippedPlugin(b, "its Plugin-Id same is already taken by "
          + a));
    }
  }

  @Test
  void onlyJarsDirectlyInTheDirectoryAreRead() throws IOException {
    Files.writeString(dir.resolve("README.md"), "plugins go here");
    testPlugin("nested").writeTo(mkdir("sub"));

    try (PluginDirDiscovery discovery = PluginDirDiscovery.scan(dir)) {
      assertThat(discovery.frameworks()).isEmpty();
      assertThat(discovery.skipped()).isEmpty();
    }
  }

  @Test
  void closingUnloadsThePluginsAndClosesTheirClassLoaders() {
    testPlugin("test-plugin").writeTo(dir);
    PluginDirDiscovery discovery = PluginDirDiscovery.scan(dir);
    var loader = (PluginClassLoader) discovery.frameworks().get(0).framework().getClass().getClassLoader();

    discovery.close();

    assertThat(loader.isClosed()).isTrue();
  }

  @Test
  void aMissingDirectoryIsRefused() {
    assertThatThrownBy(() -> PluginDirDiscovery.scan(dir.resolve("absent")))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("no plugins directory " + dir.resolve("absent"));
  }

  private Path mkdir(String name) {
    try {
      return Files.createDirectories(dir.resolve(name));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Path copy(Path from, Path to) {
    try {
      return Files.copy(from, to);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
