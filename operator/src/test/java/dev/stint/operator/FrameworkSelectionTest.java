package dev.stint.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stint.core.registry.DiscoveredFramework;
import dev.stint.operator.testkind.SleepFramework;
import dev.stint.spi.TrainingFramework;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameworkSelectionTest {
  private static final DiscoveredFramework SLEEP = DiscoveredFramework.builtIn(new SleepFramework());
  private static final List<DiscoveredFramework> DISCOVERED = List.of(SLEEP);

  /** The sleep kind from a plugin, under another name. */
  static DiscoveredFramework pluginServingTheSleepKind() {
    return new DiscoveredFramework(new SleepFramework() {
      @Override public String name() { return "other-sleep"; }
    }, new DiscoveredFramework.Plugin("other", "2.0", Path.of("/plugins/other.jar")));
  }

  @Test
  void withoutNamesEveryDiscoveredFrameworkRuns() {
    assertThat(FrameworkSelection.select(DISCOVERED, List.of()).registry().all()).extracting(TrainingFramework::name)
        .containsExactly("sleep");
  }

  @Test
  void namesSelect() {
    assertThat(FrameworkSelection.select(DISCOVERED, List.of("sleep")).registry().byName("sleep")).isPresent();
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
  void twoBuiltInFrameworksOfOneKindAreAFailure() {
    var twin = DiscoveredFramework.builtIn(new SleepFramework() {
      @Override public String name() { return "sleep2"; }
    });
    assertThatThrownBy(() -> FrameworkSelection.select(List.of(SLEEP, twin), List.of()))
        .isInstanceOf(CommandFailure.class).hasMessageContaining("both serve sleepjobs.test.stint.dev");
  }

  @Test
  void aPluginServingABuiltInsKindIsLeftOut() {
    var selection = FrameworkSelection.select(List.of(SLEEP, pluginServingTheSleepKind()), List.of());

    assertThat(selection.registry().all()).extracting(TrainingFramework::name).containsExactly("sleep");
  }

  @Test
  void namingOnlyThePluginRunsItInsteadOfTheBuiltIn() {
    var selection = FrameworkSelection.select(List.of(SLEEP, pluginServingTheSleepKind()), List.of("other-sleep"));

    assertThat(selection.registry().all()).extracting(TrainingFramework::name).containsExactly("other-sleep");
    assertThat(selection.describe()).isEqualTo(
        "other-sleep (SleepJob test.stint.dev/v1, plugin other 2.0, /plugins/other.jar)");
  }

  @Test
  void theDescriptionNamesKindAndSource() {
    assertThat(FrameworkSelection.select(DISCOVERED, List.of()).describe())
        .startsWith("sleep (SleepJob test.stint.dev/v1, built in, file:");
  }
}
