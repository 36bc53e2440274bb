package dev.stint.core.registry;

import dev.stint.spi.TrainingFramework;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The frameworks one operator runs, built explicitly in {@code main} or in a test (no static state). Two frameworks
 * with the same name or the same kind are refused.
 */
public final class FrameworkRegistry {
  private final Map<String, TrainingFramework<?>> byName;

  private FrameworkRegistry(Map<String, TrainingFramework<?>> byName) {
    this.byName = byName;
  }

  public static FrameworkRegistry of(List<? extends TrainingFramework<?>> frameworks) {
    Map<String, TrainingFramework<?>> byName = new LinkedHashMap<>();
    Map<String, String> kinds = new LinkedHashMap<>();
    for (TrainingFramework<?> f : frameworks) {
      String kind = HasMetadata.getFullResourceName(f.jobType());
      if (byName.containsKey(f.name())) {
        throw new IllegalArgumentException("two frameworks are named " + f.name());
      }
      if (kinds.containsKey(kind)) {
        throw new IllegalArgumentException("frameworks " + kinds.get(kind) + " and " + f.name() + " both serve " + kind);
      }
      byName.put(f.name(), f);
      kinds.put(kind, f.name());
    }
    return new FrameworkRegistry(byName);
  }

  public static FrameworkRegistry of(TrainingFramework<?>... frameworks) {
    return of(List.of(frameworks));
  }

  public List<TrainingFramework<?>> all() {
    return new ArrayList<>(byName.values());
  }

  public Optional<TrainingFramework<?>> byName(String name) {
    return Optional.ofNullable(byName.get(name));
  }
}
