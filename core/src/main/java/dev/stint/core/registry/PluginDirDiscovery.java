package dev.stint.core.registry;

import dev.stint.spi.TrainingFramework;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.pf4j.PluginState;
import org.pf4j.PluginWrapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds third-party frameworks in a plugins directory: every {@code *.jar} directly in it, in file-name order, is one
 * plugin, loaded with pf4j in a class loader of its own ({@link ParentFirstPluginClassLoader}). Its frameworks are the
 * classes its {@code META-INF/services/dev.stint.spi.TrainingFramework} lists, so the same jar also works on the
 * class path as a built-in.
 *
 * <p>A jar that cannot be used is skipped, with one WARN line naming the jar and the reason, and the others load
 * anyway: a file that is not a jar, a manifest without {@code Plugin-Id}, {@code Plugin-Version} or
 * {@code Stint-Spi-Version}, an SPI version this operator cannot run ({@link dev.stint.spi.SpiVersion}), a plugin id
 * already taken, a listed class that cannot be loaded, and a framework whose constructor or start-up methods throw
 * ({@link FrameworkProbe}). A plugin is loaded whole or not at all. Clashes between frameworks (two serving one kind)
 * are left to {@link FrameworkConflicts}, which runs once the operator knows which frameworks it will run.
 *
 * <p>{@link #close()} unloads every plugin and closes its class loader.
 */
public final class PluginDirDiscovery implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PluginDirDiscovery.class);

  private final ParentFirstPluginManager manager;
  private final List<DiscoveredFramework> frameworks = new ArrayList<>();
  private final List<SkippedPlugin> skipped = new ArrayList<>();

  private PluginDirDiscovery(ParentFirstPluginManager manager) {
    this.manager = manager;
  }

  /**
   * Loads the plugins of a directory.
   *
   * @throws IllegalArgumentException when {@code dir} is not a directory
   * @throws UncheckedIOException when it cannot be listed
   */
  public static PluginDirDiscovery scan(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("no plugins directory " + dir);
    }
    PluginDirDiscovery discovery = new PluginDirDiscovery(new ParentFirstPluginManager(dir));
    for (Path jar : jarsIn(dir)) {
      discovery.load(jar);
    }
    return discovery;
  }

  /** No plugins: for an operator started without a plugins directory. */
  public static PluginDirDiscovery none() {
    return new PluginDirDiscovery(null);
  }

  /** The frameworks of every plugin that loaded, in jar order. */
  public List<DiscoveredFramework> frameworks() {
    return List.copyOf(frameworks);
  }

  /** The jars that were skipped, each with its reason. */
  public List<SkippedPlugin> skipped() {
    return List.copyOf(skipped);
  }

  /** Unloads every plugin; their frameworks must no longer be used. */
  @Override
  public void close() {
    if (manager != null) {
      // never stopPlugins(): in pf4j 3.15 it throws ConcurrentModificationException; unloading stops each plugin
      manager.unloadPlugins();
    }
  }

  private static List<Path> jarsIn(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(Files::isRegularFile)
          .filter(f -> f.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jar"))
          .sorted(Comparator.comparing(f -> f.getFileName().toString()))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the plugins directory " + dir, e);
    }
  }

  private void load(Path path) {
    try {
      PluginJar jar = PluginJar.read(path);
      PluginWrapper plugin = start(jar);
      try {
        List<DiscoveredFramework> found = frameworksOf(jar, plugin);
        frameworks.addAll(found);
        LOG.debug("Loaded plugin {} {} from {}: {}", jar.pluginId(), jar.pluginVersion(), path,
            found.stream().map(DiscoveredFramework::name).toList());
      } catch (PluginRejected | RuntimeException | LinkageError e) {
        manager.unloadPlugin(plugin.getPluginId());
        throw e;
      }
    } catch (PluginRejected e) {
      skip(path, e.getMessage());
    } catch (RuntimeException | LinkageError e) {
      // whatever pf4j or the jar throws that the steps above did not foresee, it costs this plugin only
      skip(path, "loading it failed: " + e);
    }
  }

  private PluginWrapper start(PluginJar jar) throws PluginRejected {
    PluginWrapper taken = manager.getPlugin(jar.pluginId());
    if (taken != null) {
      throw new PluginRejected("its Plugin-Id " + jar.pluginId() + " is already taken by " + taken.getPluginPath());
    }
    String id;
    try {
      id = manager.loadPlugin(jar.path());
    } catch (RuntimeException | LinkageError e) {
      throw new PluginRejected("pf4j cannot load it: " + e);
    }
    PluginState state;
    try {
      state = manager.startPlugin(id);
    } catch (RuntimeException | LinkageError e) {
      manager.unloadPlugin(id);
      throw new PluginRejected("pf4j cannot start it: " + e);
    }
    if (state != PluginState.STARTED) {
      PluginWrapper plugin = manager.getPlugin(id);
      Throwable failure = plugin.getFailedException();
      manager.unloadPlugin(id);
      throw new PluginRejected("pf4j cannot start it (state " + state + ")" + (failure == null ? "" : ": " + failure));
    }
    return manager.getPlugin(id);
  }

  /** The listed frameworks, created and checked, in the order the services file lists them. */
  @SuppressWarnings("rawtypes")
  private List<DiscoveredFramework> frameworksOf(PluginJar jar, PluginWrapper plugin) throws PluginRejected {
    Map<String, Class<? extends TrainingFramework>> found = manager
        .getExtensionClasses(TrainingFramework.class, plugin.getPluginId()).stream()
        .collect(Collectors.toMap(Class::getName, Function.identity(), (a, b) -> a));
    DiscoveredFramework.Plugin source = new DiscoveredFramework.Plugin(jar.pluginId(), jar.pluginVersion(),
        jar.path());
    List<DiscoveredFramework> result = new ArrayList<>();
    for (String className : jar.frameworkClasses()) {
      Class<?> type = found.get(className);
      if (type == null) {
        throw new PluginRejected(whyNotAFramework(className, plugin.getPluginClassLoader()));
      }
      TrainingFramework<?> framework = FrameworkProbe.create(type);
      FrameworkProbe.check(framework);
      result.add(new DiscoveredFramework(framework, source));
    }
    return result;
  }

  /** pf4j only logs the classes it cannot use, if anything; load the class again to say why. */
  private static String whyNotAFramework(String className, ClassLoader loader) {
    String listed = "class " + className + " listed in " + PluginJar.SERVICES_ENTRY;
    try {
      if (!TrainingFramework.class.isAssignableFrom(loader.loadClass(className))) {
        return listed + " does not implement " + TrainingFramework.class.getName();
      }
      // pf4j lists META-INF/services/ as a directory, which a zip written by hand may not have
      return listed + " was not found by pf4j: the jar has no directory entry META-INF/services/ (the jar tool and "
          + "Maven write one)";
    } catch (ClassNotFoundException | LinkageError e) {
      return listed + " cannot be loaded: " + e;
    }
  }

  private void skip(Path jar, String reason) {
    SkippedPlugin skip = new SkippedPlugin(jar, reason);
    skipped.add(skip);
    LOG.warn("{}", skip.describe());
  }
}
