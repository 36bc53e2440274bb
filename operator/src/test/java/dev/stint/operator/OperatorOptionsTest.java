package dev.stint.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stint.operator.OperatorOptions.Command;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class OperatorOptionsTest {
  private static final Duration TIMEOUT = OperatorOptions.DEFAULT_DEMO_TIMEOUT;
  private static final int PORT = OperatorOptions.DEFAULT_HEALTH_PORT;
  private static final OperatorOptions.PluginsDir PLUGINS = OperatorOptions.DEFAULT_PLUGINS_DIR;

  static Stream<Arguments> valid() {
    return Stream.of(
        Arguments.of("no args, cluster configured", "", true,
            new OperatorOptions(Command.RUN, List.of(), null, PORT, TIMEOUT, null, null, false, PLUGINS, null)),
        Arguments.of("no args, no cluster", "", false,
            new OperatorOptions(Command.DEMO, List.of(), null, PORT, TIMEOUT, null, null, false, PLUGINS, null)),
        Arguments.of("explicit demo on a cluster machine", "demo", true,
            new OperatorOptions(Command.DEMO, List.of(), null, PORT, TIMEOUT, null, null, false, PLUGINS, null)),
        Arguments.of("explicit run without a cluster", "run", false,
            new OperatorOptions(Command.RUN, List.of(), null, PORT, TIMEOUT, null, null, false, PLUGINS, null)),
        Arguments.of("run with every run option", "run --frameworks=pytorch,tf --reconcile-threads=4 --health-port=0",
            false,
            new OperatorOptions(Command.RUN, List.of("pytorch", "tf"), 4, 0, TIMEOUT, null, null, false, PLUGINS, null)),
        Arguments.of("frameworks trimmed and deduplicated", "run --frameworks=a,,b,a,", false,
            new OperatorOptions(Command.RUN, List.of("a", "b"), null, PORT, TIMEOUT, null, null, false, PLUGINS, null)),
        Arguments.of("demo with every demo option", "demo --timeout=30 --crds=c --examples=e --verbose", false,
            new OperatorOptions(Command.DEMO, List.of(), null, PORT, Duration.ofSeconds(30), Path.of("c"),
                Path.of("e"), true, PLUGINS, null)),
        Arguments.of("gang scheduler", "run --gang-scheduler-name=volcano", false,
            new OperatorOptions(Command.RUN, List.of(), null, PORT, TIMEOUT, null, null, false, PLUGINS, "volcano")),
        Arguments.of("options without a command follow the detected one", "--reconcile-threads=2", false,
            new OperatorOptions(Command.DEMO, List.of(), 2, PORT, TIMEOUT, null, null, false, PLUGINS, null)),
        Arguments.of("a plugins directory", "run --plugins-dir=/opt/stint/plugins", false,
            new OperatorOptions(Command.RUN, List.of(), null, PORT, TIMEOUT, null, null, false,
                new OperatorOptions.PluginsDir(Path.of("/opt/stint/plugins"), true), null)),
        Arguments.of("no plugins", "demo --plugins-dir=", false,
            new OperatorOptions(Command.DEMO, List.of(), null, PORT, TIMEOUT, null, null, false, null, null)),
        Arguments.of("help wins over everything", "run --nonsense --help", true,
            new OperatorOptions(Command.HELP, List.of(), null, PORT, TIMEOUT, null, null, false, PLUGINS, null)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valid")
  void parses(String name, String args, boolean cluster, OperatorOptions expected) {
    assertThat(OperatorOptions.parse(split(args), cluster)).isEqualTo(expected);
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of("unknown command", "start", "unknown command 'start'"),
        Arguments.of("two commands", "run demo", "unexpected argument 'demo'"),
        Arguments.of("command after an option", "--verbose demo", "unexpected argument 'demo'"),
        Arguments.of("unknown option", "run --fast", "unknown option '--fast'"),
        Arguments.of("missing value", "run --frameworks", "--frameworks needs a value"),
        Arguments.of("empty framework list", "run --frameworks=,", "--frameworks needs at least one name"),
        Arguments.of("not a number", "run --reconcile-threads=many", "--reconcile-threads must be a whole number"),
        Arguments.of("zero threads", "run --reconcile-threads=0", "from 1 to 1000"),
        Arguments.of("port out of range", "run --health-port=70000", "from 0 to 65535"),
        Arguments.of("demo option on run", "run --timeout=5", "--timeout is an option of demo, not of run"),
        Arguments.of("run option on demo", "demo --health-port=1", "--health-port is an option of run, not of demo"),
        Arguments.of("flag with a value", "demo --verbose=yes", "--verbose takes no value"),
        Arguments.of("plugins directory without value", "run --plugins-dir",
            "--plugins-dir needs a value: --plugins-dir=DIR, or --plugins-dir= to load no plugins"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void refuses(String name, String args, String message) {
    assertThatThrownBy(() -> OperatorOptions.parse(split(args), false))
        .isInstanceOfSatisfying(CommandFailure.class, e -> assertThat(e.exitCode()).isEqualTo(CommandFailure.USAGE))
        .hasMessageContaining(message);
  }

  private static List<String> split(String args) {
    return args.isBlank() ? List.of() : Arrays.asList(args.trim().split(" +"));
  }
}
