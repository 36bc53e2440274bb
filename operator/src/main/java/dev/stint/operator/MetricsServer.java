package dev.stint.operator;

import dev.stint.operator.PlainHttpServer.Reply;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code GET /metrics} in the Prometheus text format, on a port of its own ({@code --metrics-port}): the scrape is
 * apart from the probes, so a NetworkPolicy or a Service can open one without the other.
 */
final class MetricsServer implements AutoCloseable {
  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4";
  private final PlainHttpServer server;

  private MetricsServer(PlainHttpServer server) {
    this.server = server;
  }

  /** Serves {@code scrape} on every interface; port 0 picks a free port. */
  static MetricsServer start(int port, Supplier<String> scrape) {
    return new MetricsServer(PlainHttpServer.start(port, "--metrics-port",
        Map.of("/metrics", () -> new Reply(200, scrape.get(), PROMETHEUS_TEXT))));
  }

  int port() {
    return server.port();
  }

  @Override
  public void close() {
    server.close();
  }
}
