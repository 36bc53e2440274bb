package dev.stint.kubeclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A {@link StreamedWatch} against a fake API server: a fabric8 watch through it, what is sent, what a refusal, a
 * timeout and a close do, and which requests are served as streams, at what address.
 */
class StreamedWatchConnectionTest {
  private static final String ADDED = "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\","
      + "\"metadata\":{\"name\":\"%s\",\"namespace\":\"ns\",\"resourceVersion\":\"%d\"}}}\n";

  /** What the fake API server does with each watch request, in turn; the last one repeats. */
  private final BlockingQueue<WatchAnswer> answers = new LinkedBlockingQueue<>();
  private final AtomicInteger watchRequests = new AtomicInteger();
  private final List<String> authorizations = new CopyOnWriteArrayList<>();
  private HttpServer server;

  @FunctionalInterface
  interface WatchAnswer {
    void answer(HttpExchange exchange) throws Exception;
  }

  @BeforeEach
  void startServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/api/v1/namespaces/ns/pods", exchange -> {
      try {
        if (exchange.getRequestURI().getQuery() == null || !exchange.getRequestURI().getQuery().contains("watch")) {
          send(exchange, 200, "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"1\"},"
              + "\"items\":[]}");
          return;
        }
        watchRequests.incrementAndGet();
        authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
        WatchAnswer answer = answers.size() > 1 ? answers.poll() : answers.peek();
        answer.answer(exchange);
      } catch (Exception e) {
        throw new IOException(e);
      } finally {
        exchange.close();
      }
    });
    server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
    server.start();
  }

  @AfterEach
  void stopServer() {
    server.stop(0);
  }

  private static void send(HttpExchange exchange, int code, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(code, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  /** Streams {@code events} in pieces of {@code pieceSize} bytes, each flushed on its own, then ends. */
  private static WatchAnswer stream(String events, int pieceSize) {
    return exchange -> {
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, 0); // chunked
      OutputStream body = exchange.getResponseBody();
      byte[] bytes = events.getBytes(StandardCharsets.UTF_8);
      for (int i = 0; i < bytes.length; i += pieceSize) {
        body.write(bytes, i, Math.min(pieceSize, bytes.length - i));
        body.flush();
      }
    };
  }

  private static WatchAnswer holdOpen(CountDownLatch until) {
    return exchange -> {
      exchange.sendResponseHeaders(200, 0);
      exchange.getResponseBody().flush();
      until.await(30, TimeUnit.SECONDS);
    };
  }

  /** Keeps the stream open with empty lines (which the watch skips) until the client leaves; then counts down. */
  private static WatchAnswer keepAliveUntilTheClientLeaves(CountDownLatch clientLeft) {
    return exchange -> {
      exchange.sendResponseHeaders(200, 0);
      OutputStream body = exchange.getResponseBody();
      try {
        for (int i = 0; i < 600; i++) { // 30 s at most
          body.write('\n');
          body.flush();
          Thread.sleep(50);
        }
      } catch (IOException gone) {
        clientLeft.countDown();
      }
    };
  }

  private KubernetesClient client() {
    Config config = new ConfigBuilder(Config.empty()).withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort())
        .withOauthToken("the-token").withNamespace("ns").build();
    return new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(new StreamedJdkClientFactory())
        .build();
  }

  @Test
  void aFabric8WatchGetsEveryEventOfTheStreamWholeAndWatchesAgainWhenTheServerEndsIt() throws Exception {
    String name = "pod-é€-" + "x".repeat(20_000); // many pieces long, with characters of two and three bytes
    answers.add(stream(ADDED.formatted(name, 2) + "\n" + ADDED.formatted("second", 3), 1000));
    CountDownLatch release = new CountDownLatch(1);
    answers.add(holdOpen(release));
    List<String> seen = new CopyOnWriteArrayList<>();
    try (KubernetesClient client = client();
         Watch ignored = client.pods().inNamespace("ns").watch(new Watcher<>() {
           @Override
           public void eventReceived(Action action, Pod pod) {
             seen.add(action + " " + pod.getMetadata().getName());
           }

           @Override
           public void onClose(WatcherException cause) {
           }
         })) {
      await().atMost(Duration.ofSeconds(20)).until(() -> seen.size() == 2 && watchRequests.get() == 2);
      assertThat(seen).containsExactly("ADDED " + name, "ADDED second");
      assertThat(authorizations).as("the client's credentials go with every watch").containsOnly("Bearer the-token");
    } finally {
      release.countDown();
    }
  }

  @Test
  void headersAnHttpRequestMayNotCarryAreLeftOutAndTheOthersSent() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    answers.add(exchange -> {
      seen.add(exchange.getRequestHeaders().getFirst("X-Watch-Test") + " " + exchange.getRequestHeaders()
          .getFirst("Upgrade"));
      stream(ADDED.formatted("a", 2), 100).answer(exchange);
    });
    HttpClient http = HttpClient.newHttpClient();
    RecordingListener listener = new RecordingListener();
    WebSocket watch = new StreamedWatch.Builder(http, http.newWebSocketBuilder()).header("Connection", "Upgrade")
        .header("Upgrade", "websocket").header("X-Watch-Test", "sent").buildAsync(watchUri(), listener)
        .get(10, TimeUnit.SECONDS);
    watch.request(1);
    await().atMost(Duration.ofSeconds(10)).until(() -> listener.events.size() == 3);
    assertThat(seen).containsExactly("sent null");
    assertThat(listener.events).element(1).asString().contains("\"name\":\"a\"");
  }

  @Test
  void aWatchTheServerRefusesFailsWithItsStatusCode() {
    answers.add(exchange -> send(exchange, 403, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
        + "\"message\":\"pods is forbidden\",\"reason\":\"Forbidden\",\"code\":403}"));
    try (KubernetesClient client = client()) {
      assertThatThrownBy(() -> client.pods().inNamespace("ns").watch(new Watcher<Pod>() {
        @Override
        public void eventReceived(Action action, Pod pod) {
        }

        @Override
        public void onClose(WatcherException cause) {
        }
      })).isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
    }
  }

  @Test
  void theListenerIsHandedOnlyWhatItAskedForAndTheEndAfterEveryLine() throws Exception {
    answers.add(stream(ADDED.formatted("a", 2) + ADDED.formatted("b", 3) + ADDED.formatted("c", 4), 7));
    RecordingListener listener = new RecordingListener();
    WebSocket watch = StreamedWatch.open(HttpClient.newHttpClient(), watchUri(), List.of(), null, listener)
        .get(10, TimeUnit.SECONDS);
    assertThat(listener.events).containsExactly("open");

    Thread.sleep(300); // the whole stream has likely arrived by now; none of it may be handed out unasked
    assertThat(listener.events).containsExactly("open");
    watch.request(2);
    await().atMost(Duration.ofSeconds(10)).until(() -> listener.events.size() == 3);
    Thread.sleep(300);
    assertThat(listener.events).hasSize(3);
    watch.request(1); // exactly the last line: the end is told without being asked for
    await().atMost(Duration.ofSeconds(10)).until(() -> listener.events.size() == 5);
    assertThat(listener.events).element(1).asString().contains("\"name\":\"a\"");
    assertThat(listener.events).element(3).asString().contains("\"name\":\"c\"");
    assertThat(listener.events).last().isEqualTo("close 1000");
    assertThat(watch.isInputClosed()).isTrue();
  }

  @Test
  void closingTheWatchEndsTheStreamAndTellsTheListenerOnce() throws Exception {
    CountDownLatch clientLeft = new CountDownLatch(1);
    answers.add(keepAliveUntilTheClientLeaves(clientLeft));
    RecordingListener listener = new RecordingListener();
    WebSocket watch = StreamedWatch.open(HttpClient.newHttpClient(), watchUri(), List.of(), null, listener)
        .get(10, TimeUnit.SECONDS);
    watch.request(1);
    assertThat(watch.sendClose(WebSocket.NORMAL_CLOSURE, "")).succeedsWithin(Duration.ofSeconds(10));
    await().atMost(Duration.ofSeconds(10)).until(() -> listener.events.contains("close 1000"));
    assertThat(clientLeft.await(20, TimeUnit.SECONDS)).as("the server saw the connection end").isTrue();
    watch.sendClose(WebSocket.NORMAL_CLOSURE, "");
    Thread.sleep(200);
    assertThat(listener.events).containsExactly("open", "close 1000");
    assertThat(watch.isOutputClosed()).isTrue();
  }

  @Test
  void aWatchWithoutAnAnswerInTimeFails() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    answers.add(exchange -> release.await(30, TimeUnit.SECONDS));
    try {
      CompletableFuture<WebSocket> opening = StreamedWatch.open(HttpClient.newHttpClient(), watchUri(), List.of(),
          Duration.ofMillis(200), new RecordingListener());
      assertThat(opening).failsWithin(Duration.ofSeconds(10)).withThrowableOfType(Exception.class)
          .havingRootCause().isInstanceOf(java.net.http.HttpTimeoutException.class);
    } finally {
      release.countDown();
    }
  }

  @Test
  void aRefusalFailsTheOpeningWithTheResponse() {
    answers.add(exchange -> send(exchange, 410, "{}"));
    CompletableFuture<WebSocket> opening = StreamedWatch.open(HttpClient.newHttpClient(), watchUri(), List.of(), null,
        new RecordingListener());
    assertThat(opening).failsWithin(Duration.ofSeconds(10)).withThrowableOfType(Exception.class)
        .havingRootCause().isInstanceOfSatisfying(WebSocketHandshakeException.class,
            e -> assertThat(e.getResponse().statusCode()).isEqualTo(410));
  }

  static Stream<Arguments> requestsServedAsStreams() {
    return Stream.of(
        Arguments.of("wss://h/api/v1/pods?allowWatchBookmarks=true&watch=true", false, true),
        Arguments.of("wss://h/api/v1/pods?watch=true&timeoutSeconds=10", false, true),
        Arguments.of("wss://h/api/v1/pods?watch=true", true, false), // a subprotocol: exec, attach, port-forward
        Arguments.of("wss://h/api/v1/namespaces/ns/pods/p/exec?command=ls", false, false),
        Arguments.of("wss://h/api/v1/pods?watch=truest", false, false),
        Arguments.of("wss://h/api/v1/pods", false, false));
  }

  @ParameterizedTest(name = "{0}, subprotocols {1}: {2}")
  @MethodSource("requestsServedAsStreams")
  void onlyWatchesAreServedAsStreams(String uri, boolean subprotocols, boolean stream) {
    assertThat(StreamedWatch.isWatch(URI.create(uri), subprotocols)).isEqualTo(stream);
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource({
      "wss://h:6443/api/v1/pods?watch=true&labelSelector=a%3Db%2Cc,"
          + "https://h:6443/api/v1/pods?watch=true&labelSelector=a%3Db%2Cc",
      "ws://127.0.0.1:8080/apis/kubeflow.org/v1/pytorchjobs?watch=true,"
          + "http://127.0.0.1:8080/apis/kubeflow.org/v1/pytorchjobs?watch=true",
      "https://h/api/v1/pods?watch=true, https://h/api/v1/pods?watch=true"})
  void aWebSocketAddressBecomesTheHttpOneWithItsQueryAsEncoded(String webSocket, String http) {
    assertThat(StreamedWatch.httpUri(URI.create(webSocket))).hasToString(http);
  }

  private URI watchUri() {
    return URI.create("ws://127.0.0.1:" + server.getAddress().getPort() + "/api/v1/namespaces/ns/pods?watch=true");
  }
}
