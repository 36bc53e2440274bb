package dev.stint.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Faults in the local control plane itself, through {@code e2e/cluster.sh} (which finds the cluster through
 * {@code STINT_CLUSTER_DIR}, inherited from the test's environment like {@link LocalCluster#kubeconfig()}).
 */
final class ClusterControl {
  private static final Path SCRIPT = LocalCluster.ROOT.resolve("e2e/cluster.sh");

  private ClusterControl() { }

  /**
   * Stops kube-apiserver (SIGKILL when {@code crash}, else SIGTERM) and starts it again on the same port, certificates
   * and etcd data; returns once {@code /readyz} answers, with the time it took.
   */
  static Duration restartApiServer(boolean crash) {
    return restart("restart-apiserver", crash);
  }

  /**
   * Stops etcd (SIGKILL when {@code crash}, else SIGTERM) and starts it again on the same ports and data, the API
   * server running on; returns once the API server's {@code /readyz} answers again, with the time it took.
   */
  static Duration restartEtcd(boolean crash) {
    return restart("restart-etcd", crash);
  }

  /** {@code cluster.sh <command> [--kill]}, timed. */
  private static Duration restart(String command, boolean crash) {
    long t0 = System.nanoTime();
    if (crash) {
      run(command, "--kill");
    } else {
      run(command);
    }
    return Duration.ofNanos(System.nanoTime() - t0);
  }

  /** Compacts etcd to its current revision (watches from before it get 410 Gone); returns that revision. */
  static long compactEtcd() {
    return Long.parseLong(run("compact-etcd").strip());
  }

  /**
   * Starts Kueue on the local cluster unless it runs already ({@code cluster.sh kueue up}, idempotent); returns once
   * its readiness probe answers. {@code cluster.sh down} stops it with the cluster.
   */
  static void kueueUp() {
    run("kueue", "up");
  }

  /**
   * Starts Kueue with its own {@code kubeflow.org/pytorchjob} integration on ({@code cluster.sh kueue up kubeflow}),
   * restarting it if it runs with Stint's kinds external; {@link #kueueUp()} restarts it back.
   */
  static void kueueUpWithPyTorchJobIntegration() {
    run("kueue", "up", "kubeflow");
  }

  /**
   * Starts Kueue with Stint's kinds external and {@code manageJobsWithoutQueueName: true}
   * ({@code cluster.sh kueue up external-all}), restarting it if it runs otherwise; {@link #kueueUp()} restarts it
   * back.
   */
  static void kueueUpManagingEveryJob() {
    run("kueue", "up", "external-all");
  }

  /** Stops Kueue and starts it again with the same configuration (its objects stay); returns once it is ready. */
  static void kueueRestart() {
    run("kueue", "restart");
  }

  private static String run(String... args) {
    List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
    command.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getOutputStream().close();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(300, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("timed out: " + command);
      }
      String text = new String(out, StandardCharsets.UTF_8);
      if (p.exitValue() != 0) {
        throw new IllegalStateException(command + " failed (" + p.exitValue() + "):\n" + text);
      }
      // the last line is the command's answer; the lines before it are cluster.sh's log
      String[] lines = text.strip().split("\n");
      return lines.length == 0 ? "" : lines[lines.length - 1];
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
