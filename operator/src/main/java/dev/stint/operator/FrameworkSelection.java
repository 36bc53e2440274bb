package dev.stint.operator;

import dev.stint.core.registry.DiscoveredFramework;
import dev.stint.core.registry.FrameworkConflicts;
import dev.stint.core.registry.FrameworkRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Builds the registry of the frameworks to run from those discovered (built in and from plugins): every one, or those
 * named with {@code --frameworks}; then settles clashes between them ({@link FrameworkConflicts}: built-ins win, a
 * clashing plugin is skipped with a log line). Selecting first lets {@code --frameworks} pick a plugin over a built-in
 * that serves the same kind under another name.
 */
public final class FrameworkSelection {

  private FrameworkSelection() { }

  /**
   * The frameworks chosen to run, and where each came from.
   *
   * @param registry the registry the operator runs
   * @param frameworks the same frameworks, with their sources, in registry order
   */
  public record Selection(FrameworkRegistry registry, List<DiscoveredFramework> frameworks) {

    /** One line naming each framework, its kind and where it was loaded from, for the start-up log. */
    public String describe() {
      return frameworks.stream().map(DiscoveredFramework::describe).collect(Collectors.joining("; "));
    }
  }

  /**
   * @throws CommandFailure with the usage exit code for a name no discovered framework has (listing the available
   *     ones), and with the failure exit code when nothing was discovered or two built-in frameworks clash
   */
  public static Selection select(List<DiscoveredFramework> discovered, List<String> names) {
    if (discovered.isEmpty()) {
      throw new CommandFailure("no training frameworks found, neither on the class path (no META-INF/services/"
          + "dev.stint.spi.TrainingFramework entry) nor in the plugins directory");
    }
    List<DiscoveredFramework> chosen = new ArrayList<>();
    for (DiscoveredFramework f : discovered) {
      if (names.isEmpty() || names.contains(f.name())) {
        chosen.add(f);
      }
    }
    for (String name : names) {
      if (discovered.stream().noneMatch(f -> f.name().equals(name))) {
        throw CommandFailure.usage("unknown framework '" + name + "'; available: "
            + discovered.stream().map(DiscoveredFramework::name).distinct().collect(Collectors.joining(", ")));
      }
    }
    List<DiscoveredFramework> kept = FrameworkConflicts.resolve(chosen).kept();
    try {
      return new Selection(FrameworkRegistry.of(kept.stream().map(DiscoveredFramework::framework).toList()), kept);
    } catch (IllegalArgumentException e) {
      throw new CommandFailure("cannot load the frameworks: " + e.getMessage());
    }
  }
}
