package dev.stint.operator;

import dev.stint.core.decision.KueueSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The command line of {@code stint-operator.jar}: a subcommand and its options, parsed without side effects so that
 * it can be tested as a table. Every option of {@code run} can also come from an environment variable
 * ({@link #environmentVariable}); a flag on the command line wins over the variable.
 *
 * @param command what to do
 * @param frameworks names given with {@code --frameworks}; empty means every discovered framework
 * @param reconcileThreads {@code --reconcile-threads}, or null for the engine's default
 * @param healthPort {@code --health-port} of {@code run}: /healthz and /readyz; 0 turns them off
 * @param metricsPort {@code --metrics-port} of {@code run}: /metrics; 0 turns it off
 * @param demoTimeout {@code --timeout} of {@code demo}: how long the demo waits for its jobs to finish
 * @param crdsDir {@code --crds} of {@code demo}, or null to look for {@code crds/} (then the jar's copy)
 * @param examplesDir {@code --examples} of {@code demo}, or null to look for {@code examples/} (then the jar's copy)
 * @param verbose {@code --verbose} of {@code demo}: keep the operator's INFO logs
 * @param pluginsDir {@code --plugins-dir}: where plugin jars are loaded from, or null for none
 *     ({@code --plugins-dir=})
 * @param gangScheduler {@code --gang-scheduler-name} of {@code run}: {@code volcano} or a scheduler-plugins
 *     scheduler name, to create PodGroups; null for no gang scheduling
 * @param namespaces {@code --namespaces} of {@code run}: the namespaces watched; empty means every namespace
 * @param leaderElection the {@code --leader-election*} options of {@code run}
 * @param apiRateLimit {@code --kube-api-qps} and {@code --kube-api-burst} of {@code run}
 * @param logFormat {@code --log-format}
 * @param kueue {@code --kueue} and {@code --kueue-manage-jobs-without-queue-name} of {@code run}
 */
public record OperatorOptions(Command command, List<String> frameworks, Integer reconcileThreads, int healthPort,
                              int metricsPort, Duration demoTimeout, Path crdsDir, Path examplesDir, boolean verbose,
                              PluginsDir pluginsDir, String gangScheduler, List<String> namespaces,
                              LeaderElection leaderElection, ApiRateLimit apiRateLimit, LogFormat logFormat,
                              KueueSettings kueue) {

  public static final int DEFAULT_HEALTH_PORT = 8081;
  public static final int DEFAULT_METRICS_PORT = 8080;
  public static final String DEFAULT_LEASE_NAME = "stint";
  public static final Duration DEFAULT_DEMO_TIMEOUT = Duration.ofSeconds(120);
  /**
   * {@code ./plugins}, relative to the working directory, read only when it exists: a container image puts its plugin
   * jars there (for example {@code /opt/stint/plugins} with working directory {@code /opt/stint}), and a checkout or
   * a plain {@code java -jar} without one runs the built-in frameworks alone.
   */
  public static final PluginsDir DEFAULT_PLUGINS_DIR = new PluginsDir(Path.of("plugins"), false);
  public static final LeaderElection DEFAULT_LEADER_ELECTION = new LeaderElection(true, null, DEFAULT_LEASE_NAME);

  /** The subcommands. */
  public enum Command { RUN, DEMO, HELP, VERSION }

  /** {@code --log-format}: one human-readable line per event, or one JSON object per line. */
  public enum LogFormat { TEXT, JSON }

  /**
   * The directory of plugin jars.
   *
   * @param path the directory
   * @param required whether it must exist: true when given on the command line, false for the default
   */
  public record PluginsDir(Path path, boolean required) { }

  /**
   * Leader election through a Lease.
   *
   * @param enabled {@code --leader-election}
   * @param namespace {@code --leader-election-namespace}, or null to find it where the process runs
   * @param leaseName {@code --leader-election-id}
   */
  public record LeaderElection(boolean enabled, String namespace, String leaseName) { }

  /**
   * The API client's own rate limit.
   *
   * @param qps requests per second on average; 0 for no client-side limit
   * @param burst requests allowed at once above the average; 0 for as many as {@code qps}
   */
  public record ApiRateLimit(int qps, int burst) {
    public static final ApiRateLimit NONE = new ApiRateLimit(0, 0);

    public boolean limited() {
      return qps > 0;
    }
  }

  private static final Set<String> SHARED = Set.of("--frameworks", "--plugins-dir", "--reconcile-threads",
      "--log-format");
  private static final Set<String> RUN_ONLY = Set.of("--health-port", "--metrics-port", "--gang-scheduler-name",
      "--namespaces", "--leader-election", "--leader-election-namespace", "--leader-election-id", "--kube-api-qps",
      "--kube-api-burst", "--kueue", "--kueue-manage-jobs-without-queue-name");
  private static final Set<String> DEMO_ONLY = Set.of("--timeout", "--crds", "--examples", "--verbose");
  /** A namespace's or a Lease's name: an RFC 1123 label (a Lease name may have dots too). */
  private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  private static final Pattern SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");

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
      "  --reconcile-threads=N     concurrent reconciles per operator (default 50)",
      "  --log-format=text|json    one readable line per event, or one JSON object per line (default text)",
      "  --namespaces=a,b          run: watch only these namespaces (default: every namespace)",
      "  --leader-election=B       run: true (default) or false; with true, of several processes only the holder",
      "                            of a Lease reconciles, the others wait to take over; false for a workstation",
      "  --leader-election-namespace=NS",
      "                            run: the Lease's namespace (default: $POD_NAMESPACE, else the service account's",
      "                            namespace, else the kubeconfig's, else default)",
      "  --leader-election-id=NAME run: the Lease's name (default " + DEFAULT_LEASE_NAME + ")",
      "  --health-port=N           run: serve GET /healthz and GET /readyz on this port; 0 turns them off (default "
          + DEFAULT_HEALTH_PORT + ")",
      "  --metrics-port=N          run: serve GET /metrics (Prometheus text) on this port; 0 turns it off (default "
          + DEFAULT_METRICS_PORT + ")",
      "  --kube-api-qps=N          run: at most N API requests a second on average, with bursts of",
      "  --kube-api-burst=N        --kube-api-burst (default: as many as N); 0 (default) sets no limit: the API",
      "                            server's priority and fairness, and the engine's slow-start waves of creates,",
      "                            already bound what one operator asks",
      "  --gang-scheduler-name=S   run: gang-schedule pods with PodGroups of Volcano (S=volcano) or of the",
      "                            scheduler-plugins scheduler named S",
      "  --kueue=off|native        run: off (default) leaves queueing to Kueue's own integrations, which drive",
      "                            runPolicy.suspend; native: Stint creates and follows the Kueue Workload of",
      "                            every job labelled kueue.x-k8s.io/queue-name and runs no pod before admission",
      "  --kueue-manage-jobs-without-queue-name[=B]",
      "                            run, native: give every job a Workload, also one without the queue label",
      "                            (as Kueue's manageJobsWithoutQueueName; default false)",
      "  --timeout=SECONDS         demo: give up when the jobs have not finished by then (default "
          + DEFAULT_DEMO_TIMEOUT.toSeconds() + ")",
      "  --crds=DIR                demo: CRD files to install (default: ./crds, else the copy in the jar)",
      "  --examples=DIR            demo: jobs to create (default: ./examples, else the copy in the jar)",
      "  --verbose                 demo: show the operator's logs",
      "  --help                    show this help",
      "  --version                 print the version of this build (also: stint version)",
      "",
      "Every option of run can also be set by an environment variable STINT_<OPTION>, dashes as underscores",
      "(--kube-api-qps: STINT_KUBE_API_QPS); an option on the command line wins over its variable, and an empty",
      "variable counts as unset.");

  /** Parses a command line without looking at the environment. */
  public static OperatorOptions parse(List<String> args, boolean clusterConfigured) {
    return parse(args, clusterConfigured, Map.of());
  }

  /**
   * Parses the arguments, taking the options not on the command line from {@code env}. Without a subcommand,
   * {@code clusterConfigured} chooses between {@code run} and {@code demo}.
   *
   * @throws CommandFailure with the usage exit code when the arguments or a variable make no sense
   */
  public static OperatorOptions parse(List<String> args, boolean clusterConfigured, Map<String, String> env) {
    if (args.contains("--help") || args.contains("-h")) {
      return defaults(Command.HELP);
    }
    if (args.contains("--version") || List.of("version").equals(args)) {
      return defaults(Command.VERSION);
    }
    Command command = null;
    Map<String, String> options = new LinkedHashMap<>();
    List<String> raw = new ArrayList<>();
    for (String arg : args) {
      if (arg.startsWith("-")) {
        raw.add(arg);
      } else if (command == null && raw.isEmpty()) {
        command = command(arg);
      } else {
        throw CommandFailure.usage("unexpected argument '" + arg + "'");
      }
    }
    OptionValues values = new OptionValues(command == null ? (clusterConfigured ? Command.RUN : Command.DEMO)
        : command);
    for (String arg : raw) {
      int eq = arg.indexOf('=');
      String name = eq < 0 ? arg : arg.substring(0, eq);
      values.checkApplies(name);
      options.remove(name); // the last one wins, in command-line order
      options.put(name, eq < 0 ? null : arg.substring(eq + 1));
    }
    values.readEnvironment(env, options.keySet());
    options.forEach((name, value) -> values.set(name, name, value));
    return values.toOptions();
  }

  /** The variable an option is read from: {@code --kube-api-qps} is {@code STINT_KUBE_API_QPS}. */
  public static String environmentVariable(String option) {
    return "STINT_" + option.substring(2).toUpperCase(Locale.ROOT).replace('-', '_');
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
    return new OptionValues(command).toOptions();
  }

  /** The options as they are read, one at a time. */
  private static final class OptionValues {
    private final Command command;
    private List<String> frameworks = List.of();
    private Integer reconcileThreads;
    private int healthPort = DEFAULT_HEALTH_PORT;
    private int metricsPort = DEFAULT_METRICS_PORT;
    private Duration demoTimeout = DEFAULT_DEMO_TIMEOUT;
    private Path crdsDir;
    private Path examplesDir;
    private boolean verbose;
    private PluginsDir pluginsDir = DEFAULT_PLUGINS_DIR;
    private String gangScheduler;
    private List<String> namespaces = List.of();
    private boolean leaderElection = DEFAULT_LEADER_ELECTION.enabled();
    private String leaseNamespace;
    private String leaseName = DEFAULT_LEASE_NAME;
    private int qps;
    private int burst;
    private LogFormat logFormat = LogFormat.TEXT;
    private KueueSettings.Mode kueueMode = KueueSettings.Mode.OFF;
    private boolean kueueManageAll;

    OptionValues(Command command) {
      this.command = command;
    }

    /** The options of this command that are not on the command line, from their variables when set. */
    void readEnvironment(Map<String, String> env, Set<String> onCommandLine) {
      List<String> names = new ArrayList<>(SHARED);
      if (command == Command.RUN) {
        names.addAll(RUN_ONLY);
      }
      names.stream().sorted().filter(name -> !onCommandLine.contains(name)).forEach(name -> {
        String variable = environmentVariable(name);
        String value = env.get(variable);
        if (value != null && !value.isBlank()) {
          set(name, variable, value.trim());
        }
      });
    }

    /**
     * Sets one option.
     *
     * @param source what the user wrote it as, the option or its variable, for the error messages
     */
    void set(String name, String source, String value) {
      switch (name) {
        case "--frameworks" -> frameworks = names(source, required(source, value));
        case "--reconcile-threads" -> reconcileThreads = number(source, value, 1, 1000);
        case "--log-format" -> logFormat = logFormat(source, value);
        case "--health-port" -> healthPort = number(source, value, 0, 65535);
        case "--metrics-port" -> metricsPort = number(source, value, 0, 65535);
        case "--namespaces" -> namespaces = checked(source, names(source, required(source, value)), LABEL);
        case "--leader-election" -> leaderElection = value == null || bool(source, value);
        case "--leader-election-namespace" -> leaseNamespace = checked(source, required(source, value), LABEL);
        case "--leader-election-id" -> leaseName = checked(source, required(source, value), SUBDOMAIN);
        case "--kube-api-qps" -> qps = number(source, value, 0, 100_000);
        case "--kube-api-burst" -> burst = number(source, value, 0, 100_000);
        case "--timeout" -> demoTimeout = Duration.ofSeconds(number(source, value, 1, 86400));
        case "--crds" -> crdsDir = Path.of(required(source, value));
        case "--examples" -> examplesDir = Path.of(required(source, value));
        case "--verbose" -> verbose = flag(source, value);
        case "--plugins-dir" -> pluginsDir = pluginsDir(value);
        case "--gang-scheduler-name" -> gangScheduler = required(source, value);
        case "--kueue" -> kueueMode = kueueMode(source, value);
        case "--kueue-manage-jobs-without-queue-name" -> kueueManageAll = value == null || bool(source, value);
        default -> throw CommandFailure.usage("unknown option '" + name + "'");
      }
    }

    void checkApplies(String name) {
      String commandName = command.name().toLowerCase(Locale.ROOT);
      if (RUN_ONLY.contains(name) && command != Command.RUN) {
        throw CommandFailure.usage(name + " is an option of run, not of " + commandName);
      }
      if (DEMO_ONLY.contains(name) && command != Command.DEMO) {
        throw CommandFailure.usage(name + " is an option of demo, not of " + commandName);
      }
    }

    OperatorOptions toOptions() {
      return new OperatorOptions(command, frameworks, reconcileThreads, healthPort, metricsPort, demoTimeout,
          crdsDir, examplesDir, verbose, pluginsDir, gangScheduler, namespaces,
          new LeaderElection(leaderElection, leaseNamespace, leaseName), new ApiRateLimit(qps, burst), logFormat,
          new KueueSettings(kueueMode, kueueManageAll));
    }
  }

  private static String required(String name, String value) {
    if (value == null || value.isBlank()) {
      throw CommandFailure.usage(name + " needs a value: " + name + (name.startsWith("-") ? "=..." : " to be set"));
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

  private static boolean bool(String name, String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw CommandFailure.usage(name + " must be true or false, not '" + value + "'");
    };
  }

  private static LogFormat logFormat(String name, String value) {
    return switch (required(name, value).trim().toLowerCase(Locale.ROOT)) {
      case "text" -> LogFormat.TEXT;
      case "json" -> LogFormat.JSON;
      default -> throw CommandFailure.usage(name + " must be text or json, not '" + value + "'");
    };
  }

  private static KueueSettings.Mode kueueMode(String name, String value) {
    return switch (required(name, value).trim().toLowerCase(Locale.ROOT)) {
      case "off" -> KueueSettings.Mode.OFF;
      case "native" -> KueueSettings.Mode.NATIVE;
      default -> throw CommandFailure.usage(name + " must be off or native, not '" + value + "'");
    };
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

  private static List<String> names(String name, String value) {
    List<String> names = Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).distinct()
        .toList();
    if (names.isEmpty()) {
      throw CommandFailure.usage(name + " needs at least one name");
    }
    return names;
  }

  private static List<String> checked(String name, List<String> values, Pattern pattern) {
    values.forEach(value -> checked(name, value, pattern));
    return values;
  }

  private static String checked(String name, String value, Pattern pattern) {
    if (!pattern.matcher(value).matches()) {
      throw CommandFailure.usage(name + ": '" + value + "' is not a valid name (lower-case letters, digits and "
          + (pattern == SUBDOMAIN ? "'-' or '.'" : "'-'") + ")");
    }
    return value;
  }
}
