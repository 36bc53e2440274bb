package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.spi.SpiVersion;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * The sample plugin examples/plugins/jax as a plugin jar, compiled here against this build's SPI (on the test's class
 * path) with the manifest its pom writes. Its own Maven build (operator's JaxPluginTest) takes a minute; the ITs
 * need only the jar.
 */
final class JaxPluginJar {
  private static final Path SAMPLE = LocalCluster.ROOT.resolve("examples/plugins/jax");

  private JaxPluginJar() { }

  /** A new plugins directory under e2e/target (named from {@code prefix}) holding the sample's jar. */
  static Path inPluginsDir(String prefix) throws IOException {
    Path plugins = Files.createTempDirectory(Files.createDirectories(LocalCluster.ROOT.resolve("e2e/target")), prefix);
    Path jar = build();
    Files.copy(jar, plugins.resolve(jar.getFileName()));
    return plugins;
  }

  static Path build() {
    try {
      Path work = Files.createTempDirectory(Files.createDirectories(LocalCluster.ROOT.resolve("e2e/target")),
          "jax-plugin-");
      Path classes = Files.createDirectories(work.resolve("classes"));
      List<String> sources;
      try (Stream<Path> files = Files.walk(SAMPLE.resolve("src/main/java"))) {
        sources = files.filter(f -> f.toString().endsWith(".java")).map(Path::toString).toList();
      }
      JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
      String[] args = Stream.concat(Stream.of("-proc:none", "--release", "17", "-d", classes.toString(),
          "-classpath", System.getProperty("java.class.path")), sources.stream()).toArray(String[]::new);
      assertThat(javac.run(null, null, null, args)).as("compiling %s", SAMPLE).isZero();
      Path jar = work.resolve("stint-jax-plugin-0.1.0.jar");
      write(jar, classes, SAMPLE.resolve("src/main/resources"));
      return jar;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void write(Path jar, Path... roots) throws IOException {
    Manifest manifest = new Manifest();
    Attributes main = manifest.getMainAttributes();
    main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
    main.putValue("Plugin-Id", "jax");
    main.putValue("Plugin-Version", "0.1.0");
    main.putValue(SpiVersion.MANIFEST_ATTRIBUTE, SpiVersion.CURRENT.toString());
    java.util.Set<String> directories = new java.util.HashSet<>();
    try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jarOut = new JarOutputStream(out, manifest)) {
      for (Path root : roots) {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
          files = walk.filter(Files::isRegularFile).toList();
        }
        for (Path file : files) {
          String name = root.relativize(file).toString().replace('\\', '/');
          // the directory entries too: pf4j finds META-INF/services/ only through its entry, as the jar tool writes
          for (int slash = name.indexOf('/'); slash > 0; slash = name.indexOf('/', slash + 1)) {
            if (directories.add(name.substring(0, slash + 1))) {
              jarOut.putNextEntry(new JarEntry(name.substring(0, slash + 1)));
              jarOut.closeEntry();
            }
          }
          jarOut.putNextEntry(new JarEntry(name));
          Files.copy(file, jarOut);
          jarOut.closeEntry();
        }
      }
    }
  }
}
