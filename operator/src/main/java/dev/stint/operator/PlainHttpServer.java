package dev.stint.operator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A few plain-text GET endpoints on the JDK's built-in HTTP server, so that probes and metrics cost no dependency.
 * Each answer is computed per request.
 */
final class PlainHttpServer implements AutoCloseable {
  /** One answer. */
  record Reply(int code, String body, String contentType) {
    static Reply text(int code, String body) {
      return new Reply(code, body, "text/plain");
    }
  }

  private final HttpServer server;

  private PlainHttpServer(HttpServer server) {
    this.server = server;
  }

  /**
   * Serves the endpoints on every interface; port 0 picks a free port.
   *
   * @param option the option that chose the port, named when it cannot be used
   */
  static PlainHttpServer start(int port, String option, Map<String, Supplier<Reply>> endpoints) {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
      endpoints.forEach((path, answer) -> server.createContext(path, exchange -> reply(exchange, answer.get())));
      server.start();
      return new PlainHttpServer(server);
    } catch (IOException e) {
      throw new CommandFailure("cannot serve " + String.join(" and ", endpoints.keySet()) + " on port " + port + ": "
          + e.getMessage() + " (choose another with " + option + "=N, or turn it off with " + option + "=0)");
    }
  }

  int port() {
    return server.getAddress().getPort();
  }

  private static void reply(HttpExchange exchange, Reply reply) {
    byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
    try (exchange; OutputStream out = exchange.getResponseBody()) {
      exchange.getResponseHeaders().set("Content-Type", reply.contentType() + "; charset=utf-8");
      exchange.sendResponseHeaders(reply.code(), body.length);
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
