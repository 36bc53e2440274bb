package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The built jar says which Stint it is: {@code --version}, from its manifest (a review found no way to tell). */
class VersionIT {

  @Test
  void theJarPrintsTheProjectsVersion() throws IOException, InterruptedException {
    Process java = new ProcessBuilder(List.of(System.getProperty("java.home") + "/bin/java", "-jar",
        OperatorProcess.currentJar().toString(), "--version")).redirectErrorStream(true).start();
    String out = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(java.exitValue()).as(out).isZero();
    assertThat(out).as("the Maven project's version, as the manifest carries it")
        .matches("stint \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\R");
  }
}
