package dev.stint.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The operator under test, a separate process started from a command line; its output goes to a log file. */
final class OperatorProcess implements AutoCloseable {
  private final Process process;

  private OperatorProcess(Process process) {
    this.process = process;
  }

  static OperatorProcess start(List<String> command, Path log) {
    try {
      ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      Process process = pb.start();
      // a driver stopped by a signal takes its operator with it
      Runtime.getRuntime().addShutdownHook(new Thread(process::destroy, "stop-operator"));
      return new OperatorProcess(process);
    } catch (IOException e) {
      throw new IllegalStateException("could not start the operator " + command + ": " + e.getMessage(), e);
    }
  }

  long pid() {
    return process.pid();
  }

  boolean alive() {
    return process.isAlive();
  }

  /** SIGTERM, then SIGKILL after 20 s. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
