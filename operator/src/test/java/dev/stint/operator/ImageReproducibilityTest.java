package dev.stint.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/**
 * The operator's image builds the same from the same commit, on both platforms it is released for: the Jib build
 * (profile image of operator/pom.xml) starts from a base pinned by digest, for linux/amd64 and linux/arm64, with fixed
 * times, and packs a jar whose entries have a fixed time. No registry is reachable where the tests run, so nothing is
 * pulled or built here: the configuration is what is checked (docs/releasing.md says how to build and verify the image
 * where a registry is).
 */
class ImageReproducibilityTest {
  private static final Path ROOT = Path.of(System.getProperty("stint.root", "..")).toAbsolutePath().normalize();
  private static final JibConfiguration JIB = JibConfiguration.ofTheOperator();
  private static final Pattern PINNED = Pattern.compile("[a-z0-9./_-]+(:[\\w.-]+)?@sha256:[0-9a-f]{64}");

  static String operatorPom;
  static Document rootPom;

  @BeforeAll
  static void read() throws Exception {
    operatorPom = Files.readString(ROOT.resolve("operator/pom.xml"));
    rootPom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(ROOT.resolve("pom.xml").toFile());
  }

  @Test
  void theBaseImageIsPinnedByDigest() throws Exception {
    String base = JIB.value("from/image");
    assertThat(base).as("from/image: a tag moves, a digest does not").matches(PINNED);
  }

  @Test
  void theDockerfileStartsFromTheSameBase() throws Exception {
    Matcher from = Pattern.compile("(?m)^FROM (\\S+)").matcher(Files.readString(ROOT.resolve("Dockerfile")));
    assertThat(from.find()).as("the Dockerfile has FROM").isTrue();
    assertThat(from.group(1)).as("the root Dockerfile's base").isEqualTo(JIB.value("from/image"));
  }

  @Test
  void theImageIsBuiltForAmd64AndArm64OnLinux() throws Exception {
    assertThat(JIB.platforms()).containsExactlyInAnyOrder("linux/amd64", "linux/arm64");
  }

  @Test
  void theImageAndItsFilesHaveFixedTimes() throws Exception {
    assertThat(operatorPom).as("operator/pom.xml: the time of the build in the image").doesNotContain(
        "USE_CURRENT_TIMESTAMP");
    assertThat(JIB.value("container/creationTime")).satisfies(ImageReproducibilityTest::isFixedTime);
    // Jib's default is fixed too (EPOCH_PLUS_SECOND); spelled out so that no one changes it unknowingly
    assertThat(JIB.value("container/filesModificationTime")).satisfies(ImageReproducibilityTest::isFixedTime);
  }

  @Test
  void theJarsEntriesHaveAFixedTime() throws Exception {
    String timestamp = XPathFactory.newInstance().newXPath()
        .evaluate("/project/properties/*[local-name()='project.build.outputTimestamp']", rootPom).trim();
    assertThat(timestamp).as("project.build.outputTimestamp of the root pom.xml").isNotEmpty();
    assertThat(Instant.parse(timestamp)).as("a fixed instant").isNotNull();
  }

  private static void isFixedTime(String value) {
    assertThat(value).as("a fixed time: EPOCH, EPOCH_PLUS_SECOND or an ISO 8601 instant").isNotEmpty();
    if (!value.equals("EPOCH") && !value.equals("EPOCH_PLUS_SECOND")) {
      assertThat(Instant.parse(value)).isNotNull();
    }
  }
}
