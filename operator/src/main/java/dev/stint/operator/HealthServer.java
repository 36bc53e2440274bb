package dev.stint.operator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * {@code GET /healthz} for the kubelet's liveness probe (200 {@code ok} while the operator is healthy, 503 otherwise)
 * and {@code GET /metrics} in the Prometheus text format, on the JDK's built-in HTTP server so that it costs no
 * dependency.
 */
public final class HealthServer implements AutoCloseable {
  private final HttpServer server;

  private HealthServer(HttpServer server) {
    this.server = server;
  }

  /** Serves on every interface; port 0 picks a free port. */
  public static HealthServer start(int port, BooleanSupplier healthy) {
    return start(port, healthy, () -> "");
  }

  /** Also serves {@code metrics} at {@code /metrics}. */
  public static HealthServer start(int port, BooleanSupplier healthy, Supplier<String> metrics) {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
      server.createContext("/healthz", exchange -> answer(exchange, healthy.getAsBoolean()));
      server.createContext("/metrics", exchange -> reply(exchange, 200, metrics.get(), "text/plain; version=0.0.4"));
      server.start();
      return new HealthServer(server);
    } catch (IOException e) {
      throw new CommandFailure("cannot serve /healthz on port " + port + ": " + e.getMessage()
          + " (choose another with --health-port=N, or turn it off with --health-port=0)");
    }
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private static void answer(HttpExchange exchange, boolean healthy) {
    reply(exchange, healthy ? 200 : 503, healthy ? "ok\n" : "unhealthy\n", "text/plain");
  }

  private static void reply(HttpExchange exchange, int code, String text, String contentType) {
    byte[] body = text.getBytes(StandardCharsets.UTF_8);
    try (exchange; OutputStream out = exchange.getResponseBody()) {
      exchange.getResponseHeaders().set("Content-Type", contentType + "; charset=utf-8");
      exchange.sendResponseHeaders(code, body.length);
      out.write(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
