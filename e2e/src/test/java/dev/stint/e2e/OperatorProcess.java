package dev.stint.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Stint started from its jar as a separate process, as a user runs it: {@code java -jar stint-operator.jar run}. */
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
      ProcessBuilder pb = new ProcessBuilder("java", "-jar", jar.toString(), "run")
          .redirectErrorStream(true).redirectOutput(log.toFile());
      pb.environment().put("KUBECONFIG", LocalCluster.kubeconfig().toString());
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
