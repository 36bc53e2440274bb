package dev.stint.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stint.core.decision.KueueSettings;
import dev.stint.core.decision.KueueSettings.Mode;
import dev.stint.operator.OperatorOptions.ApiRateLimit;
import dev.stint.operator.OperatorOptions.Command;
import dev.stint.operator.OperatorOptions.LeaderElection;
import dev.stint.operator.OperatorOptions.LogFormat;
import dev.stint.operator.OperatorOptions.PluginsDir;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class OperatorOptionsTest {

  /** The options expected: a command's defaults with some fields changed. */
  private static final class Expect {
    Command command;
    List<String> frameworks = List.of();
    Integer threads;
    int healthPort = OperatorOptions.DEFAULT_HEALTH_PORT;
    int metricsPort = OperatorOptions.DEFAULT_METRICS_PORT;
    Duration timeout = OperatorOptions.DEFAULT_DEMO_TIMEOUT;
    Path crds;
    Path examples;
    boolean verbose;
    PluginsDir plugins = OperatorOptions.DEFAULT_PLUGINS_DIR;
    String gang;
    List<String> namespaces = List.of();
    LeaderElection election = OperatorOptions.DEFAULT_LEADER_ELECTION;
    ApiRateLimit limit = ApiRateLimit.NONE;
    LogFormat format = LogFormat.TEXT;
    KueueSettings kueue = KueueSettings.OFF;

    static OperatorOptions of(Command command, UnaryOperator<Expect> changes) {
      Expect e = new Expect();
      e.command = command;
      changes.apply(e);
      return new OperatorOptions(e.command, e.frameworks, e.threads, e.healthPort, e.metricsPort, e.timeout, e.crds,
          e.examples, e.verbose, e.plugins, e.gang, e.namespaces, e.election, e.limit, e.format, e.kueue);
    }
  }

  private static OperatorOptions run(UnaryOperator<Expect> changes) {
    return Expect.of(Command.RUN, changes);
  }

  private static OperatorOptions demo(UnaryOperator<Expect> changes) {
    return Expect.of(Command.DEMO, changes);
  }

  static Stream<Arguments> valid() {
    return Stream.of(
        Arguments.of("no args, cluster configured", "", true, run(e -> e)),
        Arguments.of("no args, no cluster", "", false, demo(e -> e)),
        Arguments.of("explicit demo on a cluster machine", "demo", true, demo(e -> e)),
        Arguments.of("explicit run without a cluster", "run", false, run(e -> e)),
        Arguments.of("run with every run option", "run --frameworks=pytorch,tf --reconcile-threads=4 --health-port=0"
            + " --metrics-port=9090 --namespaces=a,b --leader-election=false --leader-election-namespace=ops"
            + " --leader-election-id=stint.lock --kube-api-qps=20 --kube-api-burst=40 --log-format=json", false,
            run(e -> {
              e.frameworks = List.of("pytorch", "tf");
              e.threads = 4;
              e.healthPort = 0;
              e.metricsPort = 9090;
              e.namespaces = List.of("a", "b");
              e.election = new LeaderElection(false, "ops", "stint.lock");
              e.limit = new ApiRateLimit(20, 40);
              e.format = LogFormat.JSON;
              return e;
            })),
        Arguments.of("frameworks trimmed and deduplicated", "run --frameworks=a,,b,a,", false,
            run(e -> { e.frameworks = List.of("a", "b"); return e; })),
        Arguments.of("namespaces trimmed and deduplicated", "run --namespaces=team-a,,team-b,team-a", false,
            run(e -> { e.namespaces = List.of("team-a", "team-b"); return e; })),
        Arguments.of("leader election without a value is on", "run --leader-election", false, run(e -> e)),
        Arguments.of("metrics off", "run --metrics-port=0", false, run(e -> { e.metricsPort = 0; return e; })),
        Arguments.of("the last of a repeated option wins", "run --metrics-port=1 --metrics-port=2", false,
            run(e -> { e.metricsPort = 2; return e; })),
        Arguments.of("qps without burst", "run --kube-api-qps=5", false,
            run(e -> { e.limit = new ApiRateLimit(5, 0); return e; })),
        Arguments.of("demo with every demo option", "demo --timeout=30 --crds=c --examples=e --verbose"
            + " --log-format=JSON", false, demo(e -> {
              e.timeout = Duration.ofSeconds(30);
              e.crds = Path.of("c");
              e.examples = Path.of("e");
              e.verbose = true;
              e.format = LogFormat.JSON;
              return e;
            })),
        Arguments.of("gang scheduler", "run --gang-scheduler-name=volcano", false,
            run(e -> { e.gang = "volcano"; return e; })),
        Arguments.of("Kueue native", "run --kueue=native", false,
            run(e -> { e.kueue = new KueueSettings(Mode.NATIVE, false); return e; })),
        Arguments.of("Kueue native for every job", "run --kueue=NATIVE --kueue-manage-jobs-without-queue-name",
            false, run(e -> { e.kueue = new KueueSettings(Mode.NATIVE, true); return e; })),
        Arguments.of("Kueue off, said explicitly", "run --kueue=off --kueue-manage-jobs-without-queue-name=false",
            false, run(e -> e)),
        Arguments.of("options without a command follow the detected one", "--reconcile-threads=2", false,
            demo(e -> { e.threads = 2; return e; })),
        Arguments.of("a plugins directory", "run --plugins-dir=/opt/stint/plugins", false,
            run(e -> { e.plugins = new PluginsDir(Path.of("/opt/stint/plugins"), true); return e; })),
        Arguments.of("no plugins", "demo --plugins-dir=", false, demo(e -> { e.plugins = null; return e; })),
        Arguments.of("help wins over everything", "run --nonsense --help", true, Expect.of(Command.HELP, e -> e)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valid")
  void parses(String name, String args, boolean cluster, OperatorOptions expected) {
    assertThat(OperatorOptions.parse(split(args), cluster)).isEqualTo(expected);
  }

  static Stream<Arguments> fromEnvironment() {
    return Stream.of(
        Arguments.of("every run option from its variable", "run", Map.ofEntries(
            Map.entry("STINT_FRAMEWORKS", "pytorch"), Map.entry("STINT_RECONCILE_THREADS", "8"),
            Map.entry("STINT_HEALTH_PORT", "0"), Map.entry("STINT_METRICS_PORT", "9100"),
            Map.entry("STINT_NAMESPACES", "a, b"), Map.entry("STINT_LEADER_ELECTION", "FALSE"),
            Map.entry("STINT_LEADER_ELECTION_NAMESPACE", "ops"), Map.entry("STINT_LEADER_ELECTION_ID", "lock"),
            Map.entry("STINT_KUBE_API_QPS", "50"), Map.entry("STINT_KUBE_API_BURST", "100"),
            Map.entry("STINT_LOG_FORMAT", "json"), Map.entry("STINT_GANG_SCHEDULER_NAME", "volcano"),
            Map.entry("STINT_PLUGINS_DIR", "/p"), Map.entry("STINT_KUEUE", "native"),
            Map.entry("STINT_KUEUE_MANAGE_JOBS_WITHOUT_QUEUE_NAME", "true")),
            run(e -> {
              e.frameworks = List.of("pytorch");
              e.threads = 8;
              e.healthPort = 0;
              e.metricsPort = 9100;
              e.namespaces = List.of("a", "b");
              e.election = new LeaderElection(false, "ops", "lock");
              e.limit = new ApiRateLimit(50, 100);
              e.format = LogFormat.JSON;
              e.gang = "volcano";
              e.plugins = new PluginsDir(Path.of("/p"), true);
              e.kueue = new KueueSettings(Mode.NATIVE, true);
              return e;
            })),
        Arguments.of("a flag wins over its variable", "run --metrics-port=1 --leader-election=true",
            Map.of("STINT_METRICS_PORT", "2", "STINT_LEADER_ELECTION", "false"),
            run(e -> { e.metricsPort = 1; return e; })),
        Arguments.of("the Kueue flag wins over its variable", "run --kueue=off", Map.of("STINT_KUEUE", "native"),
            run(e -> e)),
        Arguments.of("a flag wins over a wrong variable", "run --metrics-port=1", Map.of("STINT_METRICS_PORT", "x"),
            run(e -> { e.metricsPort = 1; return e; })),
        Arguments.of("an empty variable is unset", "run", Map.of("STINT_METRICS_PORT", " ", "STINT_NAMESPACES", ""),
            run(e -> e)),
        Arguments.of("variables of run options are not read by the demo", "demo",
            Map.of("STINT_METRICS_PORT", "x", "STINT_NAMESPACES", "a", "STINT_LOG_FORMAT", "json"),
            demo(e -> { e.format = LogFormat.JSON; return e; })),
        Arguments.of("other STINT_ variables are not options", "run",
            Map.of("STINT_HEAP", "1g", "STINT_JAR", "/x.jar", "STINT_CLUSTER_DIR", "/tmp"), run(e -> e)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fromEnvironment")
  void readsTheEnvironment(String name, String args, Map<String, String> env, OperatorOptions expected) {
    assertThat(OperatorOptions.parse(split(args), false, env)).isEqualTo(expected);
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of("unknown command", "start", Map.of(), "unknown command 'start'"),
        Arguments.of("two commands", "run demo", Map.of(), "unexpected argument 'demo'"),
        Arguments.of("command after an option", "--verbose demo", Map.of(), "unexpected argument 'demo'"),
        Arguments.of("unknown option", "run --fast", Map.of(), "unknown option '--fast'"),
        Arguments.of("missing value", "run --frameworks", Map.of(), "--frameworks needs a value"),
        Arguments.of("empty framework list", "run --frameworks=,", Map.of(), "--frameworks needs at least one name"),
        Arguments.of("not a number", "run --reconcile-threads=many", Map.of(),
            "--reconcile-threads must be a whole number"),
        Arguments.of("zero threads", "run --reconcile-threads=0", Map.of(), "from 1 to 1000"),
        Arguments.of("port out of range", "run --health-port=70000", Map.of(), "from 0 to 65535"),
        Arguments.of("metrics port not a number", "run --metrics-port=x", Map.of(),
            "--metrics-port must be a whole number from 0 to 65535, not 'x'"),
        Arguments.of("metrics port variable not a number", "run", Map.of("STINT_METRICS_PORT", "x"),
            "STINT_METRICS_PORT must be a whole number from 0 to 65535, not 'x'"),
        Arguments.of("negative qps", "run --kube-api-qps=-1", Map.of(), "--kube-api-qps must be a whole number"),
        Arguments.of("burst variable not a number", "run", Map.of("STINT_KUBE_API_BURST", "lots"),
            "STINT_KUBE_API_BURST must be a whole number from 0 to 100000, not 'lots'"),
        Arguments.of("leader election not a boolean", "run --leader-election=yes", Map.of(),
            "--leader-election must be true or false, not 'yes'"),
        Arguments.of("leader election variable not a boolean", "run", Map.of("STINT_LEADER_ELECTION", "1"),
            "STINT_LEADER_ELECTION must be true or false, not '1'"),
        Arguments.of("unknown log format", "run --log-format=xml", Map.of(),
            "--log-format must be text or json, not 'xml'"),
        Arguments.of("log format variable", "demo", Map.of("STINT_LOG_FORMAT", "logfmt"),
            "STINT_LOG_FORMAT must be text or json, not 'logfmt'"),
        Arguments.of("namespace not a name", "run --namespaces=ok,Not_OK", Map.of(),
            "--namespaces: 'Not_OK' is not a valid name"),
        Arguments.of("namespace variable not a name", "run", Map.of("STINT_NAMESPACES", "a/b"),
            "STINT_NAMESPACES: 'a/b' is not a valid name"),
        Arguments.of("lease namespace not a name", "run --leader-election-namespace=a.b", Map.of(),
            "--leader-election-namespace: 'a.b' is not a valid name"),
        Arguments.of("lease name not a name", "run --leader-election-id=Stint", Map.of(),
            "--leader-election-id: 'Stint' is not a valid name"),
        Arguments.of("demo option on run", "run --timeout=5", Map.of(), "--timeout is an option of demo, not of run"),
        Arguments.of("run option on demo", "demo --health-port=1", Map.of(),
            "--health-port is an option of run, not of demo"),
        Arguments.of("new run options on demo", "demo --leader-election=false", Map.of(),
            "--leader-election is an option of run, not of demo"),
        Arguments.of("metrics port on demo", "demo --metrics-port=1", Map.of(),
            "--metrics-port is an option of run, not of demo"),
        Arguments.of("namespaces on demo", "demo --namespaces=a", Map.of(),
            "--namespaces is an option of run, not of demo"),
        Arguments.of("unknown Kueue mode", "run --kueue=builtin", Map.of(),
            "--kueue must be off or native, not 'builtin'"),
        Arguments.of("Kueue mode variable", "run", Map.of("STINT_KUEUE", "on"),
            "STINT_KUEUE must be off or native, not 'on'"),
        Arguments.of("Kueue without a value", "run --kueue", Map.of(), "--kueue needs a value"),
        Arguments.of("manage-all variable not a boolean", "run",
            Map.of("STINT_KUEUE_MANAGE_JOBS_WITHOUT_QUEUE_NAME", "yes"),
            "STINT_KUEUE_MANAGE_JOBS_WITHOUT_QUEUE_NAME must be true or false, not 'yes'"),
        Arguments.of("Kueue on demo", "demo --kueue=native", Map.of(), "--kueue is an option of run, not of demo"),
        Arguments.of("flag with a value", "demo --verbose=yes", Map.of(), "--verbose takes no value"),
        Arguments.of("plugins directory without value", "run --plugins-dir", Map.of(),
            "--plugins-dir needs a value: --plugins-dir=DIR, or --plugins-dir= to load no plugins"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void refuses(String name, String args, Map<String, String> env, String message) {
    assertThatThrownBy(() -> OperatorOptions.parse(split(args), false, env))
        .isInstanceOfSatisfying(CommandFailure.class, e -> assertThat(e.exitCode()).isEqualTo(CommandFailure.USAGE))
        .hasMessageContaining(message);
  }

  @Test
  void everyRunOptionInTheUsageHasAVariableOfItsName() {
    assertThat(OperatorOptions.environmentVariable("--kube-api-qps")).isEqualTo("STINT_KUBE_API_QPS");
    assertThat(OperatorOptions.USAGE).contains("--namespaces=a,b", "--leader-election=B",
        "--leader-election-namespace=NS", "--leader-election-id=NAME", "--metrics-port=N", "--health-port=N",
        "--kube-api-qps=N", "--kube-api-burst=N", "--log-format=text|json", "STINT_KUBE_API_QPS",
        "--kueue=off|native", "--kueue-manage-jobs-without-queue-name");
  }

  private static List<String> split(String args) {
    return args.isBlank() ? List.of() : Arrays.asList(args.trim().split(" +"));
  }
}
