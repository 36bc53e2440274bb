package dev.stint.core.serving;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RetryDelaysTest {

  @ParameterizedTest(name = "after {0} failures: {1} s")
  @CsvSource({"1, 5", "2, 10", "3, 20", "4, 40", "5, 60", "6, 60", "1000, 60"})
  void doublesFromTheFirstUpToTheMaximum(int failures, long seconds) {
    assertThat(RetryDelays.DEFAULT.after(failures)).isEqualTo(Duration.ofSeconds(seconds));
  }
}
