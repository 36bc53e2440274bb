package dev.stint.operator;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The command line of {@code stint-operator.jar}: a subcommand and its options, parsed without side effects so that
 * it can be tested as a table.
 *
 * @param command what to do
 * @param frameworks names given with {@code --frameworks}; empty means every discovered framework
 * @param reconcileThreads {@code --reconcile-threads}, or null for the engine's default
 * @param healthPort {@code --health-port} of {@code run}; 0 turns the endpoint off
 * @param demoTimeout {@code --timeout} of {@code demo}: how long the demo waits for its jobs to finish
 * @param crdsDir {@code --crds} of {@code demo}, or null to look for {@code crds/} (then the jar's copy)
 * @param examplesDir {@code --examples} of {@code demo}, or null to look for {@code examples/} (then the jar's copy)
 * @param verbose {@code --verbose} of {@code demo}: keep the operator's INFO logs
 * @param pluginsDir {@code --plugins-dir}: where plugin jars are loaded from, or null for none
 *     ({@code --plugins-dir=})
 * @param gangScheduler {@code --gang-scheduler-name} of {@code run}: {@code volcano} or a scheduler-plugins
 *     scheduler name, to create PodGroups; null for no gang scheduling
 */
public record OperatorOptions(Command command, List<String> frameworks, Integer reconcileThreads, int healthPort,
                              Duration demoTimeout, Path crdsDir, Path examplesDir, boolean verbose,
                              PluginsDir pluginsDir, String gangScheduler) {

  public static final int DEFAULT_HEALTH_PORT = 8081;
  public static final Duration DEFAULT_DEMO_TIMEOUT = Duration.ofSeconds(120);
  /**
   * {@code ./plugins}, relative to the working directory, read only when it exists: a container image puts its plugin
   * jars there (for example {@code /opt/stint/plugins} with working directory {@code /opt/stint}), and a checkout or
   * a plain {@code java -jar} without one runs the built-in frameworks alone.
   */
  public static final PluginsDir DEFAULT_PLUGINS_DIR = new PluginsDir(Path.of("plugins"), false);

  /** The subcommands. */
  public enum Command { RUN, DEMO, HELP }

  /**
   * The directory of plugin jars.
   *
   * @param path the directory
   * @param required whether it must exist: true when given on the command line, false for the default
   */
  public record PluginsDir(Path path, boolean required) { }

  private static final Set<String> RUN_ONLY = Set.of("--health-port", "--gang-scheduler-name");
  private static final Set<String> DEMO_ONLY = Set.of("--timeout", "--crds", "--examples", "--verbose");

  public static final String USAGE = String.join("\n",
      "Usage: java -jar stint-operator.jar [run|demo] [options]",
      "",
      "Commands:",
      "  run    reconcile training jobs on the cluster of the current kubeconfig (or in-cluster config)",
      "  demo   start an in-process API server, run the example jobs on a simulated kubelet, show their progress",
      "  (none) run when a cluster is configured (KUBECONFIG, ~/.kube/config or in a pod), demo otherwise",
      "",
      "Options:",
      "  --frameworks=a,b          run only these frameworks, built in or from plugins (default: every one found)",
      "  --plugins-dir=DIR         load framework plugins from the jars in DIR (default: ./plugins when it",
      "                            exists); --plugins-dir= loads none",
      "  --reconcile-threads=N     concurrent reconciles per operator",
      "  --health-port=N           run: serve GET /healthz and GET /metrics on this port; 0 turns them off (default "
          + DEFAULT_HEALTH_PORT + ")",
      "  --gang-scheduler-name=S   run: gang-schedule pods with PodGroups of Volcano (S=volcano) or of the",
      "                            scheduler-plugins scheduler named S",
      "  --timeout=SECONDS         demo: give up when the jobs have not finished by then (default "
          + DEFAULT_DEMO_TIMEOUT.toSeconds() + ")",
      "  --crds=DIR                demo: CRD files to install (default: ./crds, else the copy in the jar)",
      "  --examples=DIR            demo: jobs to create (default: ./examples, else the copy in the jar)",
      "  --verbose                 demo: show the operator's logs",
      "  --help                    show this help");

  /**
   * Parses the arguments. Without a subcommand, {@code clusterConfigured} chooses between {@code run} and
   * {@code demo}.
   *
   * @throws CommandFailure with the usage exit code when the arguments make no sense
   */
  public static OperatorOptions parse(List<String> args, boolean clusterConfigured) {
    if (args.contains("--help") || args.contains("-h")) {
      return defaults(Command.HELP);
    }
    Command command = null;
    List<String> options = new ArrayList<>();
    for (String arg : args) {
      if (arg.startsWith("-")) {
        options.add(arg);
      } else if (command == null && options.isEmpty()) {
        command = command(arg);
      } else {
        throw CommandFailure.usage("unexpected argument '" + arg + "'");
      }
    }
    OptionValues values = new OptionValues(command == null ? (clusterConfigured ? Command.RUN : Command.DEMO)
        : command);
    options.forEach(values::set);
    return values.toOptions();
  }

  private static Command command(String arg) {
    return switch (arg) {
      case "run" -> Command.RUN;
      case "demo" -> Command.DEMO;
      case "help" -> Command.HELP;
      default -> throw CommandFailure.usage("unknown command '" + arg + "'; expected run or demo");
    };
  }

  private static OperatorOptions defaults(Command command) {
    return new OperatorOptions(command, List.of(), null, DEFAULT_HEALTH_PORT, DEFAULT_DEMO_TIMEOUT, null, null,
        false, DEFAULT_PLUGINS_DIR, null);
  }

  /** The options as they are read, one at a time. */
  private static final class OptionValues {
    private final Command command;
    private List<String> frameworks = List.of();
    private Integer reconcileThreads;
    private int healthPort = DEFAULT_HEALTH_PORT;
    private Duration demoTimeout = DEFAULT_DEMO_TIMEOUT;
    private Path crdsDir;
    private Path examplesDir;
    private boolean verbose;
    private PluginsDir pluginsDir = DEFAULT_PLUGINS_DIR;
    private String gangScheduler;

    OptionValues(Command command) {
      this.command = command;
    }

    void set(String option) {
      int eq = option.indexOf('=');
      String name = eq < 0 ? option : option.substring(0, eq);
      String value = eq < 0 ? null : option.substring(eq + 1);
      checkApplies(name);
      switch (name) {
        case "--frameworks" -> frameworks = frameworks(required(name, value));
        case "--reconcile-threads" -> reconcileThreads = number(name, value, 1, 1000);
        case "--health-port" -> healthPort = number(name, value, 0, 65535);
        case "--timeout" -> demoTimeout = Duration.ofSeconds(number(name, value, 1, 86400));
        case "--crds" -> crdsDir = Path.of(required(name, value));
        case "--examples" -> examplesDir = Path.of(required(name, value));
        case "--verbose" -> verbose = flag(name, value);
        case "--plugins-dir" -> pluginsDir = pluginsDir(value);
        case "--gang-scheduler-name" -> gangScheduler = required(name, value);
        default -> throw CommandFailure.usage("unknown option '" + name + "'");
      }
    }

    private void checkApplies(String name) {
      String commandName = command.name().toLowerCase(Locale.ROOT);
      if (RUN_ONLY.contains(name) && command != Command.RUN) {
        throw CommandFailure.usage(name + " is an option of run, not of " + commandName);
      }
      if (DEMO_ONLY.contains(name) && command != Command.DEMO) {
        throw CommandFailure.usage(name + " is an option of demo, not of " + commandName);
      }
    }

    OperatorOptions toOptions() {
      return new OperatorOptions(command, frameworks, reconcileThreads, healthPort, demoTimeout, crdsDir,
          examplesDir, verbose, pluginsDir, gangScheduler);
    }
  }

  private static String required(String name, String value) {
    if (value == null || value.isBlank()) {
      throw CommandFailure.usage(name + " needs a value: " + name + "=...");
    }
    return value;
  }

  /** An empty value turns plugins off; a directory given explicitly must exist (checked when plugins load). */
  private static PluginsDir pluginsDir(String value) {
    if (value == null) {
      throw CommandFailure.usage("--plugins-dir needs a value: --plugins-dir=DIR, or --plugins-dir= to load no "
          + "plugins");
    }
    return value.isBlank() ? null : new PluginsDir(Path.of(value.trim()), true);
  }

  private static boolean flag(String name, String value) {
    if (value != null) {
      throw CommandFailure.usage(name + " takes no value");
    }
    return true;
  }

  private static int number(String name, String value, int min, int max) {
    try {
      int n = Integer.parseInt(required(name, value).trim());
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below with the allowed range
    }
    throw CommandFailure.usage(name + " must be a whole number from " + min + " to " + max + ", not '" + value + "'");
  }

  private static List<String> frameworks(String value) {
    List<String> names = Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).distinct()
        .toList();
    if (names.isEmpty()) {
      throw CommandFailure.usage("--frameworks needs at least one name");
    }
    return names;
  }
}
