package dev.stint.operator;

import dev.stint.core.registry.ClasspathDiscovery;
import dev.stint.core.registry.DiscoveredFramework;
import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.core.registry.PluginDirDiscovery;
import dev.stint.operator.demo.Demo;
import dev.stint.operator.demo.EmbeddedApiServer;
import dev.stint.operator.demo.ManifestDirectory;
import dev.stint.operator.demo.ManifestSource;
import dev.stint.operator.logging.LogSetup;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * {@code java -jar stint-operator.jar [run|demo] [options]}: see {@link OperatorOptions#USAGE}. Exit codes: 0 done,
 * 1 the command failed (cluster unreachable, CRD missing, a demo job failed), 2 a wrong command line.
 */
public final class Main {
  private Main() { }

  public static void main(String[] args) {
    System.exit(run(List.of(args), ClusterDetection.clusterConfigured(), System.getenv(), System.out, System.err));
  }

  /**
   * Runs a command line, with the options not on it taken from {@code env}; returns the exit code. The logging is
   * set up here, from the options ({@link LogSetup}).
   */
  static int run(List<String> args, boolean clusterConfigured, Map<String, String> env, PrintStream out,
                 PrintStream err) {
    try {
      OperatorOptions options = OperatorOptions.parse(args, clusterConfigured, env);
      if (options.command() == OperatorOptions.Command.HELP) {
        out.println(OperatorOptions.USAGE);
        return 0;
      }
      if (options.command() == OperatorOptions.Command.VERSION) {
        out.println("stint " + StintVersion.current());
        return 0;
      }
      // the demo's output is its table: the operator's INFO lines are hidden unless --verbose
      LogSetup.configure(options.logFormat(), options.command() == OperatorOptions.Command.DEMO && !options.verbose());
      try (PluginDirDiscovery plugins = loadPlugins(options.pluginsDir())) {
        FrameworkSelection.Selection selection = FrameworkSelection.select(discover(plugins), options.frameworks());
        LoggerFactory.getLogger(Main.class).info("Stint {}. Frameworks: {}", StintVersion.current(),
            selection.describe());
        return switch (options.command()) {
          case RUN -> new ClusterRun(selection.registry(), options, env).run();
          case DEMO -> demo(selection.registry(), options, out);
          case HELP, VERSION -> 0;
        };
      }
    } catch (CommandFailure e) {
      err.println("stint: " + e.getMessage().replace("\n", "\nstint: "));
      if (e.exitCode() == CommandFailure.USAGE) {
        err.println("Run with --help for the options.");
      }
      return e.exitCode();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return CommandFailure.FAILED;
    }
  }

  /** The built-in frameworks of the class path, then the plugins' frameworks. */
  private static List<DiscoveredFramework> discover(PluginDirDiscovery plugins) {
    List<DiscoveredFramework> discovered = new ArrayList<>(ClasspathDiscovery.discover(Main.class.getClassLoader())
        .stream().map(DiscoveredFramework::builtIn).toList());
    discovered.addAll(plugins.frameworks());
    return discovered;
  }

  /**
   * The plugins of the plugins directory; each jar that cannot be used is logged and skipped
   * ({@link PluginDirDiscovery}). The default directory is read only when it exists.
   *
   * @throws CommandFailure when a directory given with {@code --plugins-dir} does not exist
   */
  static PluginDirDiscovery loadPlugins(OperatorOptions.PluginsDir dir) {
    if (dir == null) {
      return PluginDirDiscovery.none();
    }
    if (!Files.isDirectory(dir.path())) {
      if (dir.required()) {
        throw CommandFailure.usage("--plugins-dir: no directory " + dir.path());
      }
      return PluginDirDiscovery.none();
    }
    try {
      return PluginDirDiscovery.scan(dir.path());
    } catch (UncheckedIOException e) {
      throw new CommandFailure(e.getMessage() + ": " + e.getCause().getMessage());
    }
  }

  private static int demo(FrameworkRegistry registry, OperatorOptions options, PrintStream out)
      throws InterruptedException {
    ManifestSource crds = options.crdsDir() != null ? ManifestDirectory.onDisk(options.crdsDir())
        : ManifestDirectory.locate("crds", Main.class);
    ManifestSource examples = options.examplesDir() != null ? ManifestDirectory.onDisk(options.examplesDir())
        : ManifestDirectory.locate("examples", Main.class);
    Demo.Settings settings = new Demo.Settings(options.demoTimeout(), Duration.ofSeconds(1),
        options.reconcileThreads());
    try (EmbeddedApiServer server = EmbeddedApiServer.start()) {
      out.println("Stint demo: the operator, an in-process Kubernetes API server at " + server.url()
          + " and a simulated kubelet; no cluster or network needed.");
      return new Demo(registry, crds, examples, settings, out, Clock.systemUTC()).run(server.client());
    }
  }
}
