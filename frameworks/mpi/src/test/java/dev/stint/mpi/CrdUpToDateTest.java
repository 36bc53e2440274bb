package dev.stint.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The CRD checked in under {@code crds/} (what users {@code kubectl apply}) must equal the one this build generated
 * and finished. To refresh it after a change of the API classes, run
 * {@code mvn -B -pl frameworks/mpi -am verify -Dstint.crds.update=true}, which copies the build's CRD over it.
 */
class CrdUpToDateTest {

  /** The generator's name (after the CRD's apiextensions version). */
  static final String CRD_FILE = "mpijobs.kubeflow.org-v1.yml";
  /** The checked-in name says which version of the kind it serves, beside PyTorchJob's v1. */
  static final String CHECKED_IN_FILE = "mpijobs.kubeflow.org-v2beta1.yml";
  private static final String REFRESH = "mvn -B -pl frameworks/mpi -am verify -Dstint.crds.update=true";

  @Test
  void checkedInCrdEqualsTheGeneratedOne() throws IOException {
    String generated = generatedCrd();
    Path checkedIn = Path.of(System.getProperty("stint.root"), "crds", CHECKED_IN_FILE);
    if (Boolean.getBoolean("stint.crds.update")) {
      Files.createDirectories(checkedIn.getParent());
      Files.writeString(checkedIn, generated, StandardCharsets.UTF_8);
    }

    assertThat(checkedIn).withFailMessage("%s is missing; create it with: %s", checkedIn, REFRESH).exists();
    String current = Files.readString(checkedIn, StandardCharsets.UTF_8);
    assertThat(current.equals(generated))
        .withFailMessage("%s differs from the generated CRD (first difference at line %d); refresh it with: %s",
            checkedIn, firstDifferentLine(current, generated), REFRESH)
        .isTrue();
  }

  /** The CRD of this build: written by the generator and CrdFinisher into target/classes, so on the class path. */
  static String generatedCrd() throws IOException {
    try (InputStream in = CrdUpToDateTest.class.getResourceAsStream("/META-INF/fabric8/" + CRD_FILE)) {
      assertThat(in).as("generated CRD on the class path").isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static int firstDifferentLine(String a, String b) {
    List<String> left = a.lines().toList();
    List<String> right = b.lines().toList();
    int line = 0;
    while (line < left.size() && line < right.size() && left.get(line).equals(right.get(line))) line++;
    return line + 1;
  }
}
