package dev.stint.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Stint started as a separate process, as a user runs it: {@code bin/stint run}, the launcher with the shipped JVM
 * flags (it execs java, so this process is the JVM and a SIGKILL reaches it).
 */
final class OperatorProcess implements AutoCloseable {
  private static int started;
  private final Process process;
  private final Path log;

  private OperatorProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  static OperatorProcess start() {
    Path jar = LocalCluster.ROOT.resolve("operator/target/stint-operator.jar");
    if (!Files.exists(jar)) {
      throw new IllegalStateException(jar + " is missing; build it with mvn -pl operator -am package");
    }
    Path log = LocalCluster.ROOT.resolve("e2e/target/operator-" + (++started) + ".log");
    try {
      Files.createDirectories(log.getParent());
      // the JVM of this test, so CI's Java is the operator's too
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      // no /healthz port: the tests do not read it, and a fixed one (8081) collides with any other Stint on the
      // machine (another checkout's ITs or benchmark), which makes this one exit at start
      ProcessBuilder pb = new ProcessBuilder(LocalCluster.ROOT.resolve("bin/stint").toString(), "run",
          "--health-port=0")
          .redirectErrorStream(true).redirectOutput(log.toFile());
      pb.environment().put("KUBECONFIG", LocalCluster.kubeconfig().toString());
      pb.environment().put("STINT_JAR", jar.toString());
      pb.environment().put("JAVA", java);
      return new OperatorProcess(pb.start(), log);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Kills the operator at once (SIGKILL), as a crash or an evicted pod would. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  boolean alive() {
    return process.isAlive();
  }

  String log() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "";
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
