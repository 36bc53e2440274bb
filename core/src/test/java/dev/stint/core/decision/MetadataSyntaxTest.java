package dev.stint.core.decision;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MetadataSyntaxTest {

  @ParameterizedTest(name = "key ''{0}'' -> {1}")
  @CsvSource(delimiter = '|', nullValues = "NONE", value = {
      "team                               | NONE",
      "app.kubernetes.io/name             | NONE",
      "a_b.c-d                            | NONE",
      "Team9                              | NONE",
      "''                                 | name part must be non-empty",
      "bad key                            | name part must consist of alphanumeric characters",
      "-starts-with-dash                  | name part must consist of alphanumeric characters",
      "ends-with-dash-                    | name part must consist of alphanumeric characters",
      "a/b/c                              | a qualified name must have at most one '/'",
      "/name                              | prefix part must be non-empty",
      "example.com/                       | name part must be non-empty",
      "Example.com/name                   | prefix part must be a lower-case DNS subdomain",
      "exa_mple.com/name                  | prefix part must be a lower-case DNS subdomain",
  })
  void keys(String key, String error) {
    assertErrorStartsWith(MetadataSyntax.keyError(key), error);
  }

  /** The error found starts with {@code expected}; none found when it is null. */
  private static void assertErrorStartsWith(Optional<String> found, String expected) {
    if (expected == null) {
      assertThat(found).isEmpty();
    } else {
      assertThat(found).hasValueSatisfying(e -> assertThat(e).startsWith(expected));
    }
  }

  @Test
  void keyLengthsAtAndPastTheLimits() {
    assertThat(MetadataSyntax.keyError("x".repeat(63))).isEmpty();
    assertThat(MetadataSyntax.keyError("x".repeat(64))).hasValue("name part must be no more than 63 characters");
    String prefix = ("a".repeat(63) + ".").repeat(3) + "a".repeat(61); // 253 characters
    assertThat(prefix).hasSize(253);
    assertThat(MetadataSyntax.keyError(prefix + "/n")).isEmpty();
    assertThat(MetadataSyntax.keyError("a" + prefix + "/n").orElseThrow()).contains("at most 253 characters");
  }

  @ParameterizedTest(name = "value ''{0}'' -> {1}")
  @CsvSource(delimiter = '|', nullValues = "NONE", value = {
      "''                                 | NONE",
      "v1.2_3-rc                          | NONE",
      "with space                         | must consist of alphanumeric characters",
      "-dash                              | must consist of alphanumeric characters",
      "a/b                                | must consist of alphanumeric characters",
  })
  void values(String value, String error) {
    assertErrorStartsWith(MetadataSyntax.valueError(value), error);
  }

  @Test
  void aLabelValueOf64CharactersIsNamedWithItsField() {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("ok", "fine");
    labels.put("team", "v".repeat(64));
    assertThat(MetadataSyntax.labelErrors("spec.mpiReplicaSpecs.Launcher.template.metadata.labels", labels))
        .containsExactly("spec.mpiReplicaSpecs.Launcher.template.metadata.labels: Invalid value: \""
            + "v".repeat(64) + "\": must be no more than 63 characters");
  }

  @Test
  void aBadKeyAndABadValueAreBothNamed() {
    assertThat(MetadataSyntax.labelErrors("f", Map.of("bad key", "bad value"))).containsExactly(
        "f: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must "
            + "start and end with an alphanumeric character",
        "f: Invalid value: \"bad value\": must consist of alphanumeric characters, '-', '_' or '.', and must start "
            + "and end with an alphanumeric character");
  }

  @Test
  void annotationKeysAreCheckedLowerCasedAndTheirValuesAreFree() {
    assertThat(MetadataSyntax.annotationErrors("a", Map.of("Example.com/Note", "any value: at all / ok"))).isEmpty();
    assertThat(MetadataSyntax.annotationErrors("a", Map.of("bad key", "v")))
        .singleElement().asString().startsWith("a: Invalid value: \"bad key\": name part must consist");
  }

  @Test
  void annotationsPastTheTotalSizeAreRefused() {
    Map<String, String> big = Map.of("k", "x".repeat(MetadataSyntax.MAX_ANNOTATIONS_BYTES));
    assertThat(MetadataSyntax.annotationErrors("a", big)).containsExactly(
        "a: Too long: must have at most 262144 bytes, not 262145");
    assertThat(MetadataSyntax.annotationErrors("a", Map.of("k", "x".repeat(MetadataSyntax.MAX_ANNOTATIONS_BYTES - 1))))
        .isEmpty();
  }

  @Test
  void noLabelsOrAnnotationsIsFine() {
    assertThat(MetadataSyntax.labelErrors("f", null)).isEmpty();
    assertThat(MetadataSyntax.annotationErrors("f", null)).isEmpty();
  }
}
