package dev.stint.core.registry;

import dev.stint.spi.TrainingFramework;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/** Finds the built-in frameworks on the class path through {@code META-INF/services}. */
public final class ClasspathDiscovery {

  private ClasspathDiscovery() { }

  @SuppressWarnings("rawtypes")
  public static List<TrainingFramework<?>> discover(ClassLoader loader) {
    List<TrainingFramework<?>> found = new ArrayList<>();
    for (TrainingFramework f : ServiceLoader.load(TrainingFramework.class, loader)) {
      found.add(f);
    }
    found.sort(Comparator.comparing(TrainingFramework::name));
    return found;
  }
}
