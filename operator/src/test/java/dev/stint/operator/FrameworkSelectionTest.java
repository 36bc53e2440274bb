package dev.stint.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stint.operator.testkind.SleepFramework;
import dev.stint.spi.TrainingFramework;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameworkSelectionTest {
  private static final List<TrainingFramework<?>> DISCOVERED = List.of(new SleepFramework());

  @Test
  void withoutNamesEveryDiscoveredFrameworkRuns() {
    assertThat(FrameworkSelection.select(DISCOVERED, List.of()).all()).extracting(TrainingFramework::name)
        .containsExactly("sleep");
  }

  @Test
  void namesSelect() {
    assertThat(FrameworkSelection.select(DISCOVERED, List.of("sleep")).byName("sleep")).isPresent();
  }

  @Test
  void anUnknownNameIsAUsageErrorListingTheAvailableOnes() {
    assertThatThrownBy(() -> FrameworkSelection.select(DISCOVERED, List.of("sleep", "tf")))
        .isInstanceOfSatisfying(CommandFailure.class, e -> assertThat(e.exitCode()).isEqualTo(CommandFailure.USAGE))
        .hasMessage("unknown framework 'tf'; available: sleep");
  }

  @Test
  void nothingDiscoveredIsAFailure() {
    assertThatThrownBy(() -> FrameworkSelection.select(List.of(), List.of()))
        .isInstanceOfSatisfying(CommandFailure.class, e -> assertThat(e.exitCode()).isEqualTo(CommandFailure.FAILED))
        .hasMessageContaining("no training frameworks found");
  }

  @Test
  void twoFrameworksOfOneKindAreAFailure() {
    assertThatThrownBy(() -> FrameworkSelection.select(List.of(new SleepFramework(), new SleepFramework() {
      @Override public String name() { return "sleep2"; }
    }), List.of())).isInstanceOf(CommandFailure.class).hasMessageContaining("both serve sleepjobs.test.stint.dev");
  }

  @Test
  void theDescriptionNamesKindAndSource() {
    assertThat(FrameworkSelection.describe(FrameworkSelection.select(DISCOVERED, List.of())))
        .startsWith("sleep (SleepJob test.stint.dev/v1, from file:");
  }
}
