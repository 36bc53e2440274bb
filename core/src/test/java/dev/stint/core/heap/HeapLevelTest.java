package dev.stint.core.heap;

import static dev.stint.core.heap.HeapLevel.NORMAL;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HeapLevelTest {
  @ParameterizedTest(name = "{0} at {1}% live -> {2}")
  @CsvSource({
      "NORMAL, 0,   NORMAL",
      "NORMAL, 74,  NORMAL",
      "NORMAL, 75,  TIGHT",
      "NORMAL, 89,  TIGHT",
      "NORMAL, 90,  SHORT",
      "NORMAL, 100, SHORT",
      // left only some way below where it was entered
      "TIGHT,  72,  TIGHT",
      "TIGHT,  70,  TIGHT",
      "TIGHT,  69,  NORMAL",
      "SHORT,  87,  SHORT",
      "SHORT,  85,  SHORT",
      "SHORT,  84,  TIGHT",
      "SHORT,  71,  TIGHT",
      "SHORT,  60,  NORMAL",
  })
  void levelAfterACollection(HeapLevel from, int percentLive, HeapLevel expected) {
    assertThat(from.next(percentLive * 1_000_000L, 100_000_000L)).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource({"NORMAL", "TIGHT", "SHORT"})
  void anUnknownMaximumIsNeverShort(HeapLevel from) {
    assertThat(from.next(1L << 40, -1)).isEqualTo(NORMAL);
  }

  @ParameterizedTest
  @CsvSource({"NORMAL, false", "TIGHT, true", "SHORT, true"})
  void whatCanWaitWaitsFromTight(HeapLevel level, boolean tight) {
    assertThat(level.tight()).isEqualTo(tight);
  }
}
