package dev.stint.operator.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.StintOperator;
import dev.stint.crd.CrdFinisher;
import dev.stint.kubeclient.ClientSerialization;
import dev.stint.spi.TrainingFramework;
import dev.stint.testdoubles.FakeKubelet;
import dev.stint.testkit.FrameworkContractTest;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Builds the sample plugin {@code examples/plugins/jax} with Maven, as its author would: its own project, with its
 * own pom, depending on {@code dev.stint:stint-spi} and, for its tests (which run), {@code dev.stint:stint-testkit}.
 * The Stint artifacts it uses are this build's, not whatever {@code ~/.m2} holds: Stint's own build ({@code mvn verify}) never installs it there, and another checkout may have
 * installed a different one.
 *
 * <p>So the nested build gets a local repository of its own, {@code target/plugin-build/repository}, holding this
 * build's SPI jar and pom and the parent pom, and reads everything else (fabric8, the Maven plugins) from the outer
 * build's local repository, declared as a {@code file:} mirror of every remote repository. It runs offline, with only
 * the {@code file:} protocol allowed, so it never touches the network: whatever it needs, the outer build has already
 * downloaded. The first run copies about 60 MB into that repository; later ones reuse it.
 */
final class SamplePluginBuild {
  private static final long TIMEOUT_MINUTES = 10;
  private static Path builtJar;

  private SamplePluginBuild() { }

  /** The sample's directory in this checkout. */
  static Path sampleDir() {
    return Path.of(property("stint.root"), "examples", "plugins", "jax");
  }

  /** The plugin jar, built once per test run. */
  static synchronized Path jar() {
    if (builtJar == null) {
      builtJar = build();
    }
    return builtJar;
  }

  private static Path build() {
    Path work = Path.of(property("stint.build.directory"), "plugin-build");
    try {
      Path repository = stageSpi(work.resolve("repository"));
      Path settings = Files.writeString(work.resolve("settings.xml"), settingsMirroring(
          Path.of(property("stint.local.repository"))), StandardCharsets.UTF_8);
      Path log = work.resolve("jax-plugin-build.log");
      List<String> command = List.of(mavenExecutable(), "-B", "-ntp", "-o", "-Daether.offline.protocols=file",
          "-s", settings.toString(), "-Dmaven.repo.local=" + repository,
          "-Dstint.version=" + property("stint.version"), "-f", sampleDir().resolve("pom.xml").toString(), "package");
      ProcessBuilder process = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(log.toFile());
      process.environment().put("JAVA_HOME", System.getProperty("java.home"));
      Process maven = process.start();
      boolean ended = maven.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES);
      if (!ended) {
        maven.destroyForcibly();
      }
      assertThat(ended && maven.exitValue() == 0)
          .withFailMessage("building the sample plugin failed: %s%n%s", String.join(" ", command), tail(log))
          .isTrue();
      return builtJarIn(sampleDir().resolve("target"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Puts this build's Stint artifacts the sample uses (the SPI it compiles against; the test kit, with the engine, the
   * client workarounds, the test doubles and the CRD tools it brings) and the parent pom into the nested build's
   * repository, as {@code mvn install} would: each module's jar, or its classes packed into one when the build has not
   * packaged it yet.
   */
  private static Path stageSpi(Path repository) throws IOException {
    String version = property("stint.version");
    Path root = Path.of(property("stint.root"));
    stage(repository, version, "stint-spi", root.resolve("spi"), TrainingFramework.class);
    stage(repository, version, "stint-crd-tools", root.resolve("crd-tools"), CrdFinisher.class);
    stage(repository, version, "stint-kube-client", root.resolve("kube-client"), ClientSerialization.class);
    stage(repository, version, "stint-core", root.resolve("core"), StintOperator.class);
    stage(repository, version, "stint-test-doubles", root.resolve("test-doubles"), FakeKubelet.class);
    stage(repository, version, "stint-testkit", root.resolve("testkit"), FrameworkContractTest.class);
    Path parentDir = Files.createDirectories(repository.resolve("dev/stint/stint-parent/" + version));
    Files.copy(root.resolve("pom.xml"), parentDir.resolve("stint-parent-" + version + ".pom"),
        StandardCopyOption.REPLACE_EXISTING);
    return repository;
  }

  private static void stage(Path repository, String version, String artifact, Path module, Class<?> member)
      throws IOException {
    Path dir = Files.createDirectories(repository.resolve("dev/stint/" + artifact + "/" + version));
    Path code = codeSourceOf(member);
    Path stagedJar = dir.resolve(artifact + "-" + version + ".jar");
    if (Files.isDirectory(code)) {
      jarUp(code, stagedJar);
    } else {
      Files.copy(code, stagedJar, StandardCopyOption.REPLACE_EXISTING);
    }
    Files.copy(module.resolve("pom.xml"), dir.resolve(artifact + "-" + version + ".pom"),
        StandardCopyOption.REPLACE_EXISTING);
  }

  private static String settingsMirroring(Path outerRepository) {
    return """
        <settings>
          <mirrors>
            <mirror>
              <id>outer-build-local-repository</id>
              <mirrorOf>*</mirrorOf>
              <url>%s</url>
            </mirror>
          </mirrors>
        </settings>
        """.formatted(outerRepository.toUri());
  }

  private static String mavenExecutable() {
    String home = System.getProperty("stint.maven.home");
    boolean windows = System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("win");
    String name = windows ? "mvn.cmd" : "mvn";
    if (home != null && Files.isExecutable(Path.of(home, "bin", name))) {
      return Path.of(home, "bin", name).toString();
    }
    return name; // from the PATH
  }

  private static Path builtJarIn(Path target) throws IOException {
    try (Stream<Path> files = Files.list(target)) {
      return files.filter(f -> f.getFileName().toString().matches("stint-jax-plugin-.*\\.jar")).findFirst()
          .orElseThrow(() -> new IllegalStateException("no stint-jax-plugin-*.jar in " + target));
    }
  }

  private static void jarUp(Path classes, Path jar) throws IOException {
    try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
         Stream<Path> walk = Files.walk(classes)) {
      for (Path path : walk.sorted().toList()) {
        String name = classes.relativize(path).toString().replace('\\', '/');
        if (name.isEmpty()) {
          continue;
        }
        out.putNextEntry(new JarEntry(Files.isDirectory(path) ? name + "/" : name));
        if (Files.isRegularFile(path)) {
          Files.copy(path, out);
        }
        out.closeEntry();
      }
    }
  }

  private static Path codeSourceOf(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = new ArrayList<>(Files.readAllLines(log, StandardCharsets.UTF_8));
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
  }

  private static String property(String name) {
    String value = System.getProperty(name);
    if (value == null) {
      throw new IllegalStateException("system property " + name + " is not set; run the test through Maven "
          + "(operator/pom.xml passes it to Surefire)");
    }
    return value;
  }
}
