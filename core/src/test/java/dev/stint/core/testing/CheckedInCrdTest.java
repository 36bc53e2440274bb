package dev.stint.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A CRD checked in under {@code crds/} (what users {@code kubectl apply}) must equal the one the build generated and
 * finished. Each framework module extends this with its file names; {@code -Dstint.crds.update=true} refreshes the
 * checked-in copy ({@code mvn -B verify -DskipITs -Dstint.crds.update=true}).
 */
public abstract class CheckedInCrdTest {
  private static final String REFRESH = "mvn -B verify -DskipITs -Dstint.crds.update=true";

  /** The generator's file name under {@code META-INF/fabric8/}. */
  protected abstract String generatedFile();

  /** The file name under {@code crds/}; the generated name unless a kind serves another version than v1. */
  protected String checkedInFile() {
    return generatedFile();
  }

  @Test
  void checkedInCrdEqualsTheGeneratedOne() throws IOException {
    String generated = generatedCrd(getClass(), generatedFile());
    Path checkedIn = Path.of(System.getProperty("stint.root"), "crds", checkedInFile());
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
  public static String generatedCrd(Class<?> anchor, String file) throws IOException {
    try (InputStream in = anchor.getResourceAsStream("/META-INF/fabric8/" + file)) {
      assertThat(in).as("generated CRD %s on the class path", file).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static int firstDifferentLine(String a, String b) {
    List<String> left = a.lines().toList();
    List<String> right = b.lines().toList();
    int line = 0;
    while (line < left.size() && line < right.size() && left.get(line).equals(right.get(line))) {
      line++;
    }
    return line + 1;
  }
}
