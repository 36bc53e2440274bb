package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The real kubectl against the local cluster, as a user runs it. */
final class Kubectl {

  /** What one kubectl call printed and returned. */
  record Result(int exitCode, String stdout, String stderr) {
    Result assertOk() {
      assertThat(exitCode).as("kubectl failed: %s", stderr).isZero();
      return this;
    }
  }

  private Kubectl() { }

  static Result run(String... args) {
    return runWithInput(null, args);
  }

  static Result runWithInput(String stdin, String... args) {
    List<String> command = new ArrayList<>(List.of("kubectl", "--kubeconfig", LocalCluster.kubeconfig().toString()));
    command.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(command).start();
      if (stdin != null) {
        p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
      }
      p.getOutputStream().close();
      var out = p.getInputStream().readAllBytes();
      var err = p.getErrorStream().readAllBytes();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("kubectl timed out: " + command);
      }
      return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
