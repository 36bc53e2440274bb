package dev.stint.operator;

import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.spi.TrainingFramework;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Builds the registry of the frameworks to run: every discovered one, or those named with {@code --frameworks}. */
public final class FrameworkSelection {

  private FrameworkSelection() { }

  /**
   * @throws CommandFailure with the usage exit code for a name no discovered framework has (listing the available
   *     ones), and with the failure exit code when nothing was discovered or two frameworks clash
   */
  public static FrameworkRegistry select(List<TrainingFramework<?>> discovered, List<String> names) {
    if (discovered.isEmpty()) {
      throw new CommandFailure("no training frameworks found on the class path "
          + "(no META-INF/services/" + TrainingFramework.class.getName() + " entry)");
    }
    List<TrainingFramework<?>> chosen = new ArrayList<>();
    if (names.isEmpty()) {
      chosen.addAll(discovered);
    }
    for (String name : names) {
      TrainingFramework<?> match = discovered.stream().filter(f -> f.name().equals(name)).findFirst()
          .orElseThrow(() -> CommandFailure.usage("unknown framework '" + name + "'; available: "
              + discovered.stream().map(TrainingFramework::name).collect(Collectors.joining(", "))));
      chosen.add(match);
    }
    try {
      return FrameworkRegistry.of(chosen);
    } catch (IllegalArgumentException e) {
      throw new CommandFailure("cannot load the frameworks: " + e.getMessage());
    }
  }

  /** One line naming each framework, its kind and where it was loaded from, for the start-up log. */
  public static String describe(FrameworkRegistry registry) {
    return registry.all().stream().map(FrameworkSelection::describe).collect(Collectors.joining("; "));
  }

  static String describe(TrainingFramework<?> framework) {
    var source = framework.getClass().getProtectionDomain().getCodeSource();
    return framework.name() + " (" + HasMetadata.getKind(framework.jobType()) + " "
        + HasMetadata.getApiVersion(framework.jobType()) + ", from "
        + (source == null || source.getLocation() == null ? "unknown" : source.getLocation()) + ")";
  }
}
