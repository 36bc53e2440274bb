package dev.stint.core.registry;

import java.util.List;
import org.pf4j.PluginClassLoader;
import org.pf4j.PluginDescriptor;
import org.pf4j.PluginManager;

/**
 * A plugin's class loader: the plugin's own classes first (pf4j's default), except the packages the operator and its
 * plugins must share, which always come from the operator. A plugin that bundled its own copy of the SPI or of fabric8
 * would otherwise get classes the operator cannot use: its framework would not be a {@code TrainingFramework} to the
 * operator, and a {@code Pod} it builds would not be the operator's {@code Pod}.
 */
final class ParentFirstPluginClassLoader extends PluginClassLoader {

  /** Packages always loaded from the operator: the SPI and the libraries its types expose. */
  static final List<String> SHARED_PACKAGES = List.of(
      "dev.stint.spi.", "io.fabric8.", "com.fasterxml.", "io.javaoperatorsdk.", "org.slf4j.");

  ParentFirstPluginClassLoader(PluginManager pluginManager, PluginDescriptor descriptor, ClassLoader parent) {
    super(pluginManager, descriptor, parent);
  }

  @Override
  protected boolean shouldDelegateToParent(String className) {
    return super.shouldDelegateToParent(className) || SHARED_PACKAGES.stream().anyMatch(className::startsWith);
  }
}
