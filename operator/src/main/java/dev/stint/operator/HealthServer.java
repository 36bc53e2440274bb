package dev.stint.operator;

import dev.stint.operator.PlainHttpServer.Reply;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The kubelet's probes: {@code GET /healthz} (liveness: 200 {@code ok} while the operator runs, 503 otherwise) and
 * {@code GET /readyz} (readiness: 200 or 503 with the state in words, {@link Readiness}).
 */
final class HealthServer implements AutoCloseable {
  private final PlainHttpServer server;

  private HealthServer(PlainHttpServer server) {
    this.server = server;
  }

  /** Serves on every interface; port 0 picks a free port. */
  static HealthServer start(int port, BooleanSupplier live, Supplier<Readiness.State> ready) {
    return new HealthServer(PlainHttpServer.start(port, "--health-port", Map.of(
        "/healthz", () -> live.getAsBoolean() ? Reply.text(200, "ok\n") : Reply.text(503, "unhealthy\n"),
        "/readyz", () -> {
          Readiness.State state = ready.get();
          return Reply.text(state.ready() ? 200 : 503, state.description() + "\n");
        })));
  }

  int port() {
    return server.port();
  }

  @Override
  public void close() {
    server.close();
  }
}
