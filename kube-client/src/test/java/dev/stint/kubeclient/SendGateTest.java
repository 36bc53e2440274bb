package dev.stint.kubeclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A real JDK client against a real local server: what reaches the server when the gate shuts, and when. */
class SendGateTest {
  private static final String BODY = "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"w-0\"}}";

  private HttpServer server;
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final List<String> bodies = new CopyOnWriteArrayList<>();
  private final List<String> cutShort = new CopyOnWriteArrayList<>();

  @BeforeEach
  void serve() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
      try {
        byte[] body = exchange.getRequestBody().readAllBytes();
        if (body.length == Long.parseLong(exchange.getRequestHeaders().getFirst("Content-Length") == null ? "0"
            : exchange.getRequestHeaders().getFirst("Content-Length"))) {
          bodies.add(new String(body, StandardCharsets.UTF_8));
        } else {
          cutShort.add(exchange.getRequestURI().getPath());
        }
        exchange.sendResponseHeaders(201, -1);
      } catch (IOException e) {
        cutShort.add(exchange.getRequestURI().getPath());
      } finally {
        exchange.close();
      }
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void anOpenGateLetsTheWholeRequestThrough() throws Exception {
    HttpResponse<String> response = client((method, uri) -> null).send(post("/api/v1/pods"),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(201);
    assertThat(bodies).containsExactly(BODY);
  }

  @Test
  void aGateShutWhenTheRequestIsHandedOverSendsNothing() {
    HttpClient client = client((method, uri) -> new IllegalStateException("lease lost"));
    assertThatThrownBy(() -> client.send(post("/api/v1/pods"), HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("lease lost");
    assertThat(requests).isEmpty();
  }

  @Test
  void aGateShutBeforeTheBodyGoesLeavesTheServerNothingToCarryOut() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    HttpClient client = client((method, uri) -> asked.incrementAndGet() == 1 ? null : new IllegalStateException("lease lost since"));
    assertThatThrownBy(() -> client.send(post("/api/v1/pods"), HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("lease lost since");
    assertThat(asked).hasValue(2);
    assertThat(bodies).isEmpty();
    // the headers went before the body was asked for: the server saw a request whose body never came
    await().atMost(Duration.ofSeconds(30)).until(() -> !cutShort.isEmpty());
    assertThat(cutShort).containsExactly("/api/v1/pods");
  }

  @Test
  void readsPassAGateThatRefusesWrites() throws Exception {
    HttpClient client = client((method, uri) -> "GET".equals(method) ? null : new IllegalStateException("lease lost"));
    HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri("/api/v1/pods")).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(201);
    assertThat(requests).containsExactly("GET /api/v1/pods");
  }

  @Test
  void theGateIsAskedWithTheRequestsMethodAndUri() throws Exception {
    List<String> asked = new CopyOnWriteArrayList<>();
    client((method, uri) -> {
      asked.add(method + " " + uri.getPath());
      return null;
    }).send(post("/api/v1/namespaces/a/pods"), HttpResponse.BodyHandlers.ofString());
    assertThat(asked).containsExactly("POST /api/v1/namespaces/a/pods", "POST /api/v1/namespaces/a/pods");
  }

  private HttpClient client(SendGate gate) {
    return new JdkClientFactory().gatedBy(gate).createNewHttpClientBuilder().version(HttpClient.Version.HTTP_1_1)
        .build();
  }

  private HttpRequest post(String path) {
    return HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(BODY)).build();
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
  }
}
