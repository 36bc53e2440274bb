package dev.stint.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SpiVersionTest {

  @ParameterizedTest(name = "operator {0} runs a plugin built against {1}: {2}")
  @CsvSource({
      "1.0, 1.0, true",
      "1.3, 1.0, true",
      "1.3, 1.3, true",
      "1.0, 1.1, false",
      "1.9, 2.0, false",
      "2.0, 1.0, false",
      "2.1, 2.0, true"})
  void sameMajorAndNoNewerMinor(String operator, String plugin, boolean runs) {
    assertThat(SpiVersion.parse(operator).runs(SpiVersion.parse(plugin))).isEqualTo(runs);
  }

  @ParameterizedTest(name = "''{0}''")
  @ValueSource(strings = {"", "1", "1.0.0", "v1.0", "one.two", "1.-1"})
  void onlyMajorDotMinorIsAVersion(String text) {
    assertThatThrownBy(() -> SpiVersion.parse(text)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not a version of the form MAJOR.MINOR");
  }

  @ParameterizedTest(name = "''{0}''")
  @ValueSource(strings = {"1.0", " 1.0 ", "01.00"})
  void aVersionIsReadAsTwoNumbers(String text) {
    assertThat(SpiVersion.parse(text)).isEqualTo(new SpiVersion(1, 0)).hasToString("1.0");
  }

  @Test
  void theCurrentVersionIsWhatTheDocumentationShows() {
    // docs/writing-a-framework-plugin.md and the sample plugin's pom (stint.spi.version) state it: update them with it
    assertThat(SpiVersion.CURRENT).hasToString("2.0");
  }
}
