package dev.stint.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.concurrent.TimeUnit;

/** The operator under test, a separate process started from a command line; its output goes to a log file. */
final class OperatorProcess implements AutoCloseable {
  /** Log lines that say why a JVM or the operator ended: the last one is quoted when the process died. */
  private static final Pattern LAST_WORDS = Pattern.compile(
      "OutOfMemoryError|Terminating due to|Exiting|FATAL|Exception in thread|\\bERROR\\b");

  private final Process process;
  private final Path log;

  private OperatorProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  static OperatorProcess start(List<String> command, Path log) {
    try {
      ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      Process process = pb.start();
      // a driver stopped by a signal takes its operator with it
      Runtime.getRuntime().addShutdownHook(new Thread(process::destroy, "stop-operator"));
      return new OperatorProcess(process, log);
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

  /**
   * Why the process is gone, for the report: its exit code and the last line of its log that says why it ended
   * (an {@code OutOfMemoryError}, an exit the operator chose); empty while it runs.
   */
  String death() {
    if (process.isAlive()) {
      return "";
    }
    String why = lastWords();
    return "the operator died (exit code " + process.exitValue() + ")" + (why.isEmpty() ? "" : ": " + why)
        + "; see " + log;
  }

  private String lastWords() {
    try (Stream<String> lines = Files.lines(log)) {
      return lines.filter(l -> LAST_WORDS.matcher(l).find()).reduce((a, b) -> b).map(String::strip).orElse("");
    } catch (IOException | UncheckedIOException e) {
      return "";
    }
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
