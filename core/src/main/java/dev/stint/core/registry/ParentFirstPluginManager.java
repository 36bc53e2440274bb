package dev.stint.core.registry;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.pf4j.DefaultPluginManager;
import org.pf4j.ExtensionFinder;
import org.pf4j.JarPluginLoader;
import org.pf4j.ManifestPluginDescriptorFinder;
import org.pf4j.PluginClassLoader;
import org.pf4j.PluginDescriptor;
import org.pf4j.PluginDescriptorFinder;
import org.pf4j.PluginLoader;
import org.pf4j.PluginStatusProvider;
import org.pf4j.ServiceProviderExtensionFinder;

/**
 * pf4j set up for Stint's plugins: plain jars described by their manifest, each loaded in a
 * {@link ParentFirstPluginClassLoader}, whose extensions are the classes listed in their own
 * {@code META-INF/services} files.
 *
 * <p>pf4j's constructor calls every {@code create*} method before a subclass's fields are set, so these methods use
 * nothing but constants and {@code this}.
 */
final class ParentFirstPluginManager extends DefaultPluginManager {

  /** Every plugin is enabled: there is no {@code enabled.txt}/{@code disabled.txt}; a plugin is on when its jar is. */
  private static final PluginStatusProvider ALL_ENABLED = new PluginStatusProvider() {
    @Override public boolean isPluginDisabled(String pluginId) { return false; }

    @Override public void disablePlugin(String pluginId) {
      throw new UnsupportedOperationException("remove the plugin's jar from the plugins directory instead");
    }

    @Override public void enablePlugin(String pluginId) { }
  };

  ParentFirstPluginManager(Path pluginsDir) {
    super(pluginsDir);
  }

  @Override
  protected PluginDescriptorFinder createPluginDescriptorFinder() {
    return new ManifestPluginDescriptorFinder();
  }

  @Override
  protected PluginStatusProvider createPluginStatusProvider() {
    return ALL_ENABLED;
  }

  @Override
  protected PluginLoader createPluginLoader() {
    return new JarPluginLoader(this) {
      @Override
      protected PluginClassLoader createPluginClassLoader(Path jar, PluginDescriptor descriptor) {
        return new ParentFirstPluginClassLoader(pluginManager, descriptor,
            ParentFirstPluginManager.class.getClassLoader());
      }
    };
  }

  @Override
  protected ExtensionFinder createExtensionFinder() {
    ServiceProviderExtensionFinder finder = new ServiceProviderExtensionFinder(this) {
      /**
       * Plugins only: by default the finder reads every {@code META-INF/services} file of the operator's class path
       * and loads every class named there; built-in frameworks are found by {@link ClasspathDiscovery} instead.
       */
      @Override
      public Map<String, Set<String>> readClasspathStorages() {
        return Map.of();
      }
    };
    // the finder caches what it read; a plugin starting or stopping must clear that cache
    addPluginStateListener(finder);
    return finder;
  }
}
