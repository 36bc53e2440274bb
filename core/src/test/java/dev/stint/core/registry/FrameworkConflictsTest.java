package dev.stint.core.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.testing.FaultyFramework;
import dev.stint.core.testing.TestFramework;
import dev.stint.spi.WithControllerIdentity;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameworkConflictsTest {
  private static final Path A = Path.of("/plugins/a.jar");
  private static final Path B = Path.of("/plugins/b.jar");

  static DiscoveredFramework plugin(String id, Path jar, dev.stint.spi.TrainingFramework<?> framework) {
    return new DiscoveredFramework(framework, new DiscoveredFramework.Plugin(id, "1.0.0", jar));
  }

  /** Same kind as {@link TestFramework}, another name. */
  static final class RenamedTestFramework extends TestFramework {
    @Override public String name() { return "renamed"; }
  }

  /** Another kind, but the controller name of {@link TestFramework}'s kind. */
  static final class SameControllerFramework extends FaultyFramework implements WithControllerIdentity {
    SameControllerFramework() { super("none"); }

    @Override public String name() { return "same-controller"; }

    @Override public String controllerName() { return "testjob-controller"; }

    @Override public String managedByValue() { return "kubeflow.org/training-operator"; }
  }

  @Test
  void aBuiltInWinsOverAPluginServingItsKind() {
    DiscoveredFramework builtIn = DiscoveredFramework.builtIn(new TestFramework());
    DiscoveredFramework clash = plugin("a", A, new RenamedTestFramework());
    DiscoveredFramework other = plugin("a", A, new FaultyFramework("none"));

    var resolution = FrameworkConflicts.resolve(List.of(clash, other, builtIn));

    assertThat(resolution.kept()).containsExactly(builtIn);
    assertThat(resolution.skipped()).singleElement().satisfies(s -> {
      assertThat(s.jar()).isEqualTo(A);
      assertThat(s.reason()).startsWith("its framework renamed claims the kind testjobs.test.stint.dev, which "
          + "framework test (TestJob test.stint.dev/v1, built in, ").endsWith(") already has");
    });
  }

  @Test
  void theFirstPluginToClaimANameKeepsIt() {
    DiscoveredFramework first = plugin("a", A, new FaultyFramework("none"));
    DiscoveredFramework second = plugin("b", B, new FaultyFramework("none"));

    var resolution = FrameworkConflicts.resolve(List.of(first, second));

    assertThat(resolution.kept()).containsExactly(first);
    assertThat(resolution.skipped()).containsExactly(new SkippedPlugin(B, "its framework faulty claims the name "
        + "faulty, which framework faulty (FaultyJob test.stint.dev/v1, plugin a 1.0.0, /plugins/a.jar) already has"));
  }

  @Test
  void aControllerNameIsClaimedToo() {
    DiscoveredFramework builtIn = DiscoveredFramework.builtIn(new TestFramework());

    var resolution = FrameworkConflicts.resolve(List.of(builtIn, plugin("b", B, new SameControllerFramework())));

    assertThat(resolution.skipped()).extracting(SkippedPlugin::reason).singleElement().asString()
        .startsWith("its framework same-controller claims the controller name testjob-controller");
  }

  @Test
  void aPluginWhoseOwnFrameworksClashIsSkipped() {
    var resolution = FrameworkConflicts.resolve(List.of(plugin("a", A, new TestFramework()),
        plugin("a", A, new RenamedTestFramework())));

    assertThat(resolution.kept()).isEmpty();
    assertThat(resolution.skipped()).extracting(SkippedPlugin::reason).singleElement().asString()
        .startsWith("its framework renamed claims the kind testjobs.test.stint.dev, which framework test");
  }

  @Test
  void frameworksThatClashWithNothingAreAllKept() {
    DiscoveredFramework builtIn = DiscoveredFramework.builtIn(new TestFramework());
    DiscoveredFramework faulty = plugin("a", A, new FaultyFramework("none"));

    assertThat(FrameworkConflicts.resolve(List.of(builtIn, faulty)).kept()).containsExactly(builtIn, faulty);
  }
}
