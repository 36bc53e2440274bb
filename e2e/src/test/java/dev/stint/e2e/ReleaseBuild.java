package dev.stint.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * What {@code bin/release} writes (the packaged chart and {@code install.yaml}), built once per test run into
 * {@code e2e/target/release}, so that the ITs install what a release ships rather than the source tree it came from.
 */
final class ReleaseBuild {
  private static Path out;

  private ReleaseBuild() { }

  /** The folder with {@code stint-<version>.tgz}, {@code install.yaml} and {@code SHA256SUMS}. */
  static synchronized Path out() {
    if (out == null) {
      Path dir = LocalCluster.ROOT.resolve("e2e/target/release");
      Testbin.run(List.of(LocalCluster.ROOT.resolve("bin/release").toString(), dir.toString()), null, null).assertOk();
      out = dir;
    }
    return out;
  }

  /** The packaged chart. */
  static Path chart() {
    try (Stream<Path> files = Files.list(out())) {
      return files.filter(f -> f.getFileName().toString().matches("stint-.+\\.tgz")).findFirst()
          .orElseThrow(() -> new IllegalStateException("bin/release wrote no chart into " + out));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static Path installYaml() {
    return out().resolve("install.yaml");
  }
}
