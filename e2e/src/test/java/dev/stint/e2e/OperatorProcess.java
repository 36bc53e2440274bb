package dev.stint.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Stint started as a separate process, as a user runs it: {@code bin/stint run}, the launcher with the shipped JVM
 * flags (it execs java, so this process is the JVM and a SIGKILL reaches it).
 *
 * <p>The health and metrics endpoints are off ({@code --health-port=0 --metrics-port=0}): their default ports, 8081 and
 * 8080, are shared by every operator on the machine, and two ITs (or two engineers' clusters) running at once would
 * make the second operator refuse to start. {@code -Dstint.operator.metrics=true} (bench/soak.sh) turns /metrics on, on
 * a free port of its own for each process ({@code --metrics-port=N} in its command line, where the soak finds it).
 * Leader election is off unless a test asks for it with a
 * {@code --leader-election...} option: most tests run one operator, and would otherwise wait for the Lease of an
 * operator they killed.
 */
final class OperatorProcess implements AutoCloseable {
  /** The line {@code ClusterRun} logs once the controllers are started. */
  static final String STARTED_LINE = "Stint is running on";
  private static int started;
  private final Process process;
  private final Path log;
  private final long startedNanos;
  private volatile Duration startup;

  private OperatorProcess(Process process, Path log, long startedNanos) {
    this.process = process;
    this.log = log;
    this.startedNanos = startedNanos;
    // notes the start-up time as it happens, whether or not anyone waits for it
    Thread watcher = new Thread(() -> {
      try {
        while (process.isAlive() && startup == null) {
          if (log().contains(STARTED_LINE)) {
            startup = Duration.ofNanos(System.nanoTime() - startedNanos);
          }
          Thread.sleep(25);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "operator-start-watch");
    watcher.setDaemon(true);
    watcher.start();
  }

  static OperatorProcess start(String... extraArgs) {
    return start(Map.of(), extraArgs);
  }

  /** With environment variables of its own, such as {@code POD_NAME}, its identity in the leader election. */
  static OperatorProcess start(Map<String, String> env, String... extraArgs) {
    return start(currentJar(), env, extraArgs);
  }

  /**
   * The jar the ITs run: this checkout's build, or, with {@code -Dstint.operator.jar}, another build of Stint (an
   * older one, to see what a change mended).
   */
  static Path currentJar() {
    return Path.of(System.getProperty("stint.operator.jar",
        LocalCluster.ROOT.resolve("operator/target/stint-operator.jar").toString()));
  }

  /** This jar's Stint, run by this checkout's launcher: two versions in one test ({@code UpgradeIT}). */
  static OperatorProcess start(Path jar, Map<String, String> env, String... extraArgs) {
    if (!Files.exists(jar)) {
      throw new IllegalStateException(jar + " is missing; build it with mvn -pl operator -am package");
    }
    Path log = LocalCluster.ROOT.resolve("e2e/target/operator-" + next() + ".log");
    try {
      Files.createDirectories(log.getParent());
      // the JVM of this test, so CI's Java is the operator's too
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      // no /healthz port: the tests do not read it, and a fixed one (8081) collides with any other Stint on the
      // machine (another checkout's ITs or benchmark), which makes this one exit at start
      List<String> command = new ArrayList<>(List.of(LocalCluster.ROOT.resolve("bin/stint").toString(), "run",
          "--health-port=0", "--metrics-port=" + metricsPort()));
      if (Arrays.stream(extraArgs).noneMatch(arg -> arg.startsWith("--leader-election"))) {
        command.add("--leader-election=false");
      }
      command.addAll(List.of(extraArgs));
      ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      pb.environment().put("KUBECONFIG", LocalCluster.kubeconfig().toString());
      pb.environment().put("STINT_JAR", jar.toString());
      pb.environment().put("JAVA", java);
      pb.environment().putAll(env);
      long t0 = System.nanoTime();
      return new OperatorProcess(pb.start(), log, t0);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Starts a command given whole (the launcher and every argument), with exactly this environment (nothing of the
   * test's own) in {@code workDir}: the operator as a Deployment's container runs it ({@link DeployedOperator}).
   */
  static OperatorProcess startCommand(List<String> command, java.util.Map<String, String> env, Path workDir) {
    Path log = LocalCluster.ROOT.resolve("e2e/target/operator-" + next() + ".log");
    try {
      Files.createDirectories(log.getParent());
      ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
          .redirectOutput(log.toFile());
      pb.environment().clear();
      pb.environment().putAll(env);
      long t0 = System.nanoTime();
      return new OperatorProcess(pb.start(), log, t0);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** 0 (off), or a free port when {@code -Dstint.operator.metrics=true}. */
  private static int metricsPort() {
    if (!Boolean.getBoolean("stint.operator.metrics")) {
      return 0;
    }
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port for --metrics-port", e);
    }
  }

  private static synchronized int next() {
    return ++started;
  }

  /** Kills the operator at once (SIGKILL), as a crash or an evicted pod would. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  /** SIGSTOP: the process freezes (its connections stay open, nothing it does moves on) until {@link #resume()}. */
  void pause() {
    signal("STOP");
  }

  /** SIGCONT after {@link #pause()}. */
  void resume() {
    signal("CONT");
  }

  private void signal(String name) {
    if (!process.isAlive()) {
      return;
    }
    try {
      Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Waits until the operator logged that it runs ({@link #STARTED_LINE}), and returns how long that took from the
   * process start: the JVM start, the preflight checks, the informers' first lists.
   *
   * @throws IllegalStateException when the process exits first or the timeout passes
   */
  Duration awaitStarted(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (startup != null) {
        return startup;
      }
      if (!process.isAlive()) {
        throw new IllegalStateException("the operator exited (" + process.exitValue() + ") before it started; "
            + log);
      }
      Thread.sleep(25);
    }
    throw new IllegalStateException("the operator did not start within " + timeout + "; " + log);
  }

  /** How long the start-up took (process start to {@link #STARTED_LINE}, to 25 ms), if it has started. */
  java.util.Optional<Duration> startup() {
    return java.util.Optional.ofNullable(startup);
  }

  /** Time since the process was started. */
  Duration age() {
    return Duration.ofNanos(System.nanoTime() - startedNanos);
  }

  boolean alive() {
    return process.isAlive();
  }

  /** The exit code, once the process has ended. */
  int exitValue() {
    return process.exitValue();
  }

  /**
   * The process's state as the kernel tells it ({@code /proc/<pid>/stat}: R running, S sleeping, T stopped, Z
   * zombie...), or "gone".
   */
  String kernelState() {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
      return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    } catch (IOException | RuntimeException e) {
      return "gone";
    }
  }

  long pid() {
    return process.pid();
  }

  Path logFile() {
    return log;
  }

  String log() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * Stops the operator of a test class after checking that it lived through the class (a crash would otherwise show
   * only as the next test's timeout); null is nothing to stop.
   */
  static void closeAlive(OperatorProcess operator) throws InterruptedException {
    if (operator != null) {
      org.assertj.core.api.Assertions.assertThat(operator.alive()).as("the operator is still up at the end; see %s",
          operator.logFile()).isTrue();
      operator.close();
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      resume(); // a paused JVM would not run its shutdown hook
    }
    process.destroy();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
