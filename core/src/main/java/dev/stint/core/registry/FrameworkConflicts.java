package dev.stint.core.registry;

import dev.stint.core.model.EngineFramework;
import dev.stint.spi.TrainingFramework;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settles clashes between the frameworks an operator is about to run: two cannot share a name, a kind, or a
 * controller name (JOSDK refuses two controllers of one name). Built-in frameworks win; then plugins in jar order,
 * so that the first plugin to claim a kind keeps it. A plugin that clashes is skipped whole, with one WARN line naming
 * its jar and the framework it clashes with. Clashes between built-ins are a broken build, left to
 * {@link FrameworkRegistry} to refuse.
 */
public final class FrameworkConflicts {
  private static final Logger LOG = LoggerFactory.getLogger(FrameworkConflicts.class);

  private FrameworkConflicts() { }

  /**
   * The outcome of settling clashes.
   *
   * @param kept the frameworks to run: every built-in, then the plugins that clash with nothing before them
   * @param skipped the plugins left out, with the clash as the reason
   */
  public record Resolution(List<DiscoveredFramework> kept, List<SkippedPlugin> skipped) { }

  /** Keeps built-ins and the first claimant of every name, kind and controller name. */
  public static Resolution resolve(List<DiscoveredFramework> candidates) {
    List<DiscoveredFramework> kept = new ArrayList<>();
    List<SkippedPlugin> skipped = new ArrayList<>();
    Map<String, DiscoveredFramework> claims = new LinkedHashMap<>();
    for (DiscoveredFramework builtIn : candidates.stream().filter(DiscoveredFramework::isBuiltIn).toList()) {
      kept.add(builtIn);
      claimsOf(builtIn.framework()).forEach(claim -> claims.putIfAbsent(claim, builtIn));
    }
    for (List<DiscoveredFramework> plugin : byPlugin(candidates).values()) {
      Optional<String> clash = firstClash(plugin, claims);
      if (clash.isPresent()) {
        SkippedPlugin skip = new SkippedPlugin(((DiscoveredFramework.Plugin) plugin.get(0).source()).jar(),
            clash.get());
        skipped.add(skip);
        LOG.warn("{}", skip.describe());
        continue;
      }
      kept.addAll(plugin);
      plugin.forEach(f -> claimsOf(f.framework()).forEach(claim -> claims.put(claim, f)));
    }
    return new Resolution(List.copyOf(kept), List.copyOf(skipped));
  }

  /** The plugin frameworks grouped by plugin, in the order of the candidates. */
  private static Map<String, List<DiscoveredFramework>> byPlugin(List<DiscoveredFramework> candidates) {
    Map<String, List<DiscoveredFramework>> plugins = new LinkedHashMap<>();
    for (DiscoveredFramework f : candidates) {
      if (f.source() instanceof DiscoveredFramework.Plugin p) {
        plugins.computeIfAbsent(p.id(), id -> new ArrayList<>()).add(f);
      }
    }
    return plugins;
  }

  private static Optional<String> firstClash(List<DiscoveredFramework> plugin,
                                             Map<String, DiscoveredFramework> claims) {
    Map<String, DiscoveredFramework> own = new LinkedHashMap<>();
    for (DiscoveredFramework f : plugin) {
      for (String claim : claimsOf(f.framework())) {
        DiscoveredFramework holder = claims.containsKey(claim) ? claims.get(claim) : own.get(claim);
        if (holder != null) {
          return Optional.of("its framework " + f.name() + " claims the " + claim + ", which framework "
              + holder.describe() + " already has");
        }
        own.put(claim, f);
      }
    }
    return Optional.empty();
  }

  /** What a framework must have to itself. */
  private static List<String> claimsOf(TrainingFramework<?> framework) {
    return List.of("name " + framework.name(),
        "kind " + HasMetadata.getFullResourceName(framework.jobType()),
        "controller name " + EngineFramework.of(framework).controllerName());
  }
}
