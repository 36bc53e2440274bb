package dev.stint.e2e;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus (built by e2e/testbin.sh from its Go module) scraping one Stint process's {@code /metrics} every
 * second under the job {@value #JOB}, the job the alert rules select, and evaluating the given rule files as often.
 * Its data and log live in e2e/target; {@link #close()} stops it.
 */
final class LocalPrometheus implements AutoCloseable {
  static final String JOB = "stint-metrics";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Process process;
  private final Path log;
  private final String base;
  private final HttpClient http = HttpClient.newHttpClient();

  private LocalPrometheus(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.base = "http://127.0.0.1:" + port;
  }

  /** Starts Prometheus scraping 127.0.0.1:{@code metricsPort} with these rule files, and waits until it is ready. */
  static LocalPrometheus start(int metricsPort, Path... ruleFiles) throws IOException {
    Path dir = Files.createTempDirectory(Files.createDirectories(LocalCluster.ROOT.resolve("e2e/target")),
        "prometheus-");
    StringBuilder rules = new StringBuilder();
    for (Path file : ruleFiles) {
      rules.append("\n- '").append(file.toAbsolutePath()).append("'");
    }
    Path config = Files.writeString(dir.resolve("prometheus.yml"), """
        global: {scrape_interval: 1s, evaluation_interval: 1s}
        rule_files:%s
        scrape_configs:
        - job_name: %s
          static_configs: [{targets: ['127.0.0.1:%d']}]
        """.formatted(rules, JOB, metricsPort));
    int port = DeployedMetrics.freePort();
    Path log = dir.resolve("prometheus.log");
    Process process = new ProcessBuilder(Testbin.prometheus().toString(), "--config.file=" + config,
        "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    LocalPrometheus prometheus = new LocalPrometheus(process, log, port);
    try {
      await("Prometheus ready; " + log).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
          .until(() -> {
            if (!process.isAlive()) {
              throw new IllegalStateException("Prometheus exited: " + Files.readString(log));
            }
            return prometheus.status("/-/ready") == 200;
          });
    } catch (RuntimeException e) {
      prometheus.close();
      throw e;
    }
    return prometheus;
  }

  /** GET {@code path} of the HTTP API, parsed; {@code status} is "success" or "error" (a bad query: 400). */
  JsonNode api(String path) {
    try {
      HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
          HttpResponse.BodyHandlers.ofString());
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** An instant query, now. */
  JsonNode query(String promql) {
    return api("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
  }

  /** The names of the series of job {@value #JOB} that Prometheus holds, from the scrapes. */
  List<String> metricNames() {
    return JSON.convertValue(api("/api/v1/label/__name__/values?match[]="
        + URLEncoder.encode("{job=\"" + JOB + "\"}", StandardCharsets.UTF_8)).path("data"),
        JSON.getTypeFactory().constructCollectionType(List.class, String.class));
  }

  private int status(String path) throws InterruptedException {
    try {
      return http.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    }
  }

  Path logFile() {
    return log;
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
