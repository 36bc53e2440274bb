package dev.stint.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The tools e2e/testbin.sh builds beside the control plane (helm, promtool, prometheus), where e2e/versions.sh says
 * they are, and a way to run them. Without one a test skips with a one-line reason, unless {@code stint.e2e.required}
 * is set, as it is in the build: then it fails.
 */
final class Testbin {
  /** What one command printed and returned. */
  record Result(List<String> command, int exitCode, String stdout, String stderr) {
    Result assertOk() {
      if (exitCode != 0) {
        throw new AssertionError(String.join(" ", command) + " exited " + exitCode + ":\n" + stderr + stdout);
      }
      return this;
    }
  }

  private Testbin() { }

  static Path helm() {
    return tool("STINT_HELM_BIN", "helm");
  }

  static Path promtool() {
    return tool("STINT_PROMETHEUS_BIN", "promtool");
  }

  static Path prometheus() {
    return tool("STINT_PROMETHEUS_BIN", "prometheus");
  }

  /** A binary in the folder that e2e/versions.sh names by {@code variable}; built by {@code e2e/testbin.sh}. */
  private static Path tool(String variable, String name) {
    Path dir = Path.of(run(List.of("bash", "-c", ". '" + LocalCluster.ROOT.resolve("e2e/versions.sh") + "' && echo \"$"
        + variable + "\""), null, null).assertOk().stdout().trim());
    Path binary = dir.resolve(name);
    boolean present = Files.isExecutable(binary);
    if (Boolean.getBoolean("stint.e2e.required") && !present) {
      throw new IllegalStateException(binary + " is missing; run e2e/testbin.sh");
    }
    assumeTrue(present, "no " + name + " (" + binary + "); build it with e2e/testbin.sh");
    return binary;
  }

  /** Runs a command in the repository's root, with {@code stdin} as its input (or none), waiting up to 5 minutes. */
  static Result run(List<String> command, String stdin, Path workDir) {
    try {
      Process p = new ProcessBuilder(command).directory((workDir == null ? LocalCluster.ROOT : workDir).toFile())
          .start();
      if (stdin != null) {
        p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
      }
      p.getOutputStream().close();
      // stderr on a thread of its own: a command that fills one pipe while we read the other would never end
      var err = new java.util.concurrent.CompletableFuture<byte[]>();
      Thread reader = new Thread(() -> {
        try {
          err.complete(p.getErrorStream().readAllBytes());
        } catch (IOException e) {
          err.completeExceptionally(e);
        }
      });
      reader.start();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(5, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IllegalStateException("timed out: " + command);
      }
      return new Result(command, p.exitValue(), new String(out, StandardCharsets.UTF_8),
          new String(err.get(), StandardCharsets.UTF_8));
    } catch (IOException | java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** {@code helm ARGS...} in the repository's root. */
  static Result helm(String... args) {
    List<String> command = new ArrayList<>(List.of(helm().toString()));
    command.addAll(List.of(args));
    return run(command, null, null);
  }
}
