package dev.stint.operator.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stint.operator.demo.ManifestSource.Manifest;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestDirectoryTest {
  @TempDir Path tmp;

  @Test
  void readsYamlRecursivelyInPathOrderSkippingPluginSources() throws IOException {
    Path examples = tmp.resolve("examples");
    write(examples.resolve("b.yaml"), "b");
    write(examples.resolve("a.yml"), "a");
    write(examples.resolve("pytorch/c.yaml"), "c");
    write(examples.resolve("README.md"), "no");
    write(examples.resolve("sample-plugin/src/main/resources/d.yaml"), "no");
    write(examples.resolve("sample-plugin/target/e.yaml"), "no");

    assertThat(ManifestDirectory.onDisk(examples).manifests()).extracting(Manifest::yaml)
        .containsExactly("a", "b", "c");
  }

  @Test
  void aMissingDirectoryGivenExplicitlyIsAnError() {
    assertThatThrownBy(() -> ManifestDirectory.onDisk(tmp.resolve("nope")).manifests())
        .isInstanceOf(IOException.class).hasMessageContaining("no directory");
  }

  @Test
  void theLocalDirectoryWinsOverThePackagedCopy() throws IOException {
    write(tmp.resolve("crds/local.yml"), "local");
    Path jar = jar(tmp.resolve("op.jar"), "crds/packaged.yml", "packaged");

    ManifestDirectory crds = ManifestDirectory.locate(tmp.resolve("crds"), "crds", jar);

    assertThat(crds.description()).isEqualTo("directory " + tmp.resolve("crds"));
    assertThat(crds.manifests()).extracting(Manifest::yaml).containsExactly("local");
  }

  @Test
  void withoutALocalDirectoryTheCopyInTheJarIsRead() throws IOException {
    Path jar = jar(tmp.resolve("op.jar"), "crds/packaged.yml", "packaged");

    ManifestDirectory crds = ManifestDirectory.locate(tmp.resolve("absent"), "crds", jar);

    assertThat(crds.description()).isEqualTo("crds/ packaged in op.jar");
    assertThat(crds.manifests()).containsExactly(new Manifest("crds/packaged.yml", "packaged"));
  }

  @Test
  void orTheCopyInAClassesDirectory() throws IOException {
    write(tmp.resolve("classes/examples/x.yaml"), "x");

    assertThat(ManifestDirectory.locate(tmp.resolve("absent"), "examples", tmp.resolve("classes")).manifests())
        .extracting(Manifest::yaml).containsExactly("x");
    assertThat(ManifestDirectory.locate(tmp.resolve("absent"), "crds", tmp.resolve("classes")).manifests())
        .isEmpty();
  }

  private static void write(Path file, String content) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
  }

  private static Path jar(Path jar, String entry, String content) throws IOException {
    try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
      out.putNextEntry(new JarEntry("crds/"));
      out.closeEntry();
      out.putNextEntry(new JarEntry(entry));
      out.write(content.getBytes(StandardCharsets.UTF_8));
      out.closeEntry();
      out.putNextEntry(new JarEntry("other/ignored.yml"));
      out.closeEntry();
    }
    return jar;
  }
}
