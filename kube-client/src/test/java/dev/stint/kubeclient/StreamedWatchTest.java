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
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StreamedWatchTest {
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

  /**
   * The body's thread queues lines and ends the stream while the listener, on threads of its own, asks for one line
   * at a time: in every round each line is handed out once, in order, and the end after the last.
   */
  @Test
  void linesAndTheEndAreHandedOutInOrderWhateverTheThreads() throws Exception {
    java.util.concurrent.ExecutorService askers = java.util.concurrent.Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 200; round++) {
        List<String> told = new CopyOnWriteArrayList<>();
        CountDownLatch ended = new CountDownLatch(1);
        WebSocket.Listener listener = new WebSocket.Listener() {
          @Override
          public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            told.add(data.toString());
            askers.execute(() -> webSocket.request(1));
            return null;
          }

          @Override
          public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            told.add("close");
            ended.countDown();
            return null;
          }
        };
        StreamedWatch watch = new StreamedWatch(listener, Runnable::run);
        FakeSubscription subscription = new FakeSubscription();
        watch.onSubscribe(subscription);
        askers.execute(() -> watch.request(1));
        for (int chunk = 0; chunk < 5; chunk++) {
          subscription.awaitAsked(chunk + 1);
          watch.onNext(List.of(ByteBuffer.wrap(("{\"n\":" + (2 * chunk) + "}\n{\"n\":" + (2 * chunk + 1) + "}\n")
              .getBytes(StandardCharsets.UTF_8))));
        }
        watch.onComplete();
        assertThat(ended.await(10, TimeUnit.SECONDS)).as("round " + round + ": " + told).isTrue();
        assertThat(told).as("round " + round).containsExactly("{\"n\":0}", "{\"n\":1}", "{\"n\":2}", "{\"n\":3}",
            "{\"n\":4}", "{\"n\":5}", "{\"n\":6}", "{\"n\":7}", "{\"n\":8}", "{\"n\":9}", "close");
      }
    } finally {
      askers.shutdownNow();
    }
  }

  /**
   * The body's last lines and its end arrive on another thread just as the handing out found no line left: the end
   * is told only after those lines.
   */
  @Test
  void theEndArrivingWithTheLastLinesIsToldAfterThem() {
    RecordingListener listener = new RecordingListener();
    AtomicReference<Runnable> arrival = new AtomicReference<>();
    Queue<String> lines = new java.util.concurrent.ConcurrentLinkedQueue<>() {
      @Override
      public boolean isEmpty() {
        boolean empty = super.isEmpty();
        Runnable arriving = arrival.getAndSet(null);
        if (empty && arriving != null) {
          arriving.run(); // after the look, before the end is read
        }
        return empty;
      }
    };
    StreamedWatch watch = new StreamedWatch(listener, Runnable::run, lines);
    watch.onSubscribe(new FakeSubscription());
    watch.request(5);
    arrival.set(() -> {
      watch.onNext(List.of(ByteBuffer.wrap("{\"last\":1}\n".getBytes(StandardCharsets.UTF_8))));
      watch.onComplete();
    });
    watch.request(1); // looks at the lines: none yet
    assertThat(listener.events).containsExactly("{\"last\":1}", "close 1000");
  }

  @Test
  void aListenerThatThrowsEndsTheWatchWithAnErrorToldOnce() {
    RecordingListener listener = new RecordingListener() {
      @Override
      public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        throw new IllegalStateException("the listener broke");
      }
    };
    StreamedWatch watch = new StreamedWatch(listener, Runnable::run);
    FakeSubscription subscription = new FakeSubscription();
    watch.onSubscribe(subscription);
    watch.onNext(List.of(ByteBuffer.wrap("{}\n{}\n".getBytes(StandardCharsets.UTF_8))));
    watch.request(2);
    watch.onComplete();
    assertThat(listener.events).containsExactly("error java.lang.IllegalStateException: the listener broke");
    assertThat(subscription.cancelled).isTrue();
    assertThat(watch.isInputClosed()).isTrue();
  }

  @Test
  void aStreamWithoutNewlinesEndsInAnErrorInsteadOfGrowingWithoutBound() {
    Queue<String> out = new ArrayDeque<>();
    StreamLines splitter = new StreamLines(out, 100);
    splitter.accept(ByteBuffer.wrap(new byte[60]));
    assertThatThrownBy(() -> splitter.accept(ByteBuffer.wrap(new byte[60])))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("longer than 100 bytes without a newline");
    assertThat(out).isEmpty();
  }

  /** A body's subscription that counts what was asked for and whether it was cancelled. */
  private static final class FakeSubscription implements java.util.concurrent.Flow.Subscription {
    private final java.util.concurrent.atomic.AtomicLong asked = new java.util.concurrent.atomic.AtomicLong();
    volatile boolean cancelled;

    @Override
    public void request(long n) {
      asked.addAndGet(n);
    }

    @Override
    public void cancel() {
      cancelled = true;
    }

    void awaitAsked(long count) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (asked.get() < count) {
        assertThat(System.nanoTime()).as("asked for chunk " + count + " within 10 s").isLessThan(deadline);
        java.util.concurrent.locks.LockSupport.parkNanos(20_000);
      }
    }
  }

  static Stream<Arguments> pieces() {
    byte[] accented = "{\"a\":\"é€\"}\n".getBytes(StandardCharsets.UTF_8); // é is 2 bytes, € is 3
    return Stream.of(
        Arguments.of("one line in one piece", pieces("{\"a\":1}\n"), List.of("{\"a\":1}"), 0),
        Arguments.of("two lines in one piece", pieces("{}\n{\"b\":2}\n"), List.of("{}", "{\"b\":2}"), 0),
        Arguments.of("a line in three pieces", pieces("{\"a\"", ":1", "}\n"), List.of("{\"a\":1}"), 0),
        Arguments.of("characters cut between pieces", List.of(Arrays.copyOfRange(accented, 0, 8),
            Arrays.copyOfRange(accented, 8, 10), Arrays.copyOfRange(accented, 10, accented.length)),
            List.of("{\"a\":\"é€\"}"), 0),
        Arguments.of("a line's end and the next's start in one piece", pieces("{\"a\"", ":1}\n{\"b\"", ":2}\n"),
            List.of("{\"a\":1}", "{\"b\":2}"), 0),
        Arguments.of("empty lines skipped", pieces("\n{}\n\n"), List.of("{}"), 0),
        Arguments.of("a line not yet ended is held", pieces("{}\n{\"b\""), List.of("{}"), 4));
  }

  private static List<byte[]> pieces(String... pieces) {
    return Stream.of(pieces).map(piece -> piece.getBytes(StandardCharsets.UTF_8)).toList();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pieces")
  void linesAreCutOnNewlinesAndDecodedOnce(String name, List<byte[]> pieces, List<String> lines, int pending) {
    for (boolean direct : new boolean[] {false, true}) {
      Queue<String> out = new ArrayDeque<>();
      StreamLines splitter = new StreamLines(out);
      for (byte[] piece : pieces) {
        splitter.accept(buffer(piece, direct));
      }
      assertThat(new ArrayList<>(out)).as("direct buffers: " + direct).containsExactlyElementsOf(lines);
      assertThat(splitter.pending()).isEqualTo(pending);
    }
  }

  /** The piece's bytes, inside a larger buffer at an offset (or a direct one), as the HTTP client hands them. */
  private static ByteBuffer buffer(byte[] piece, boolean direct) {
    byte[] bytes = new byte[piece.length + 2];
    System.arraycopy(piece, 0, bytes, 2, piece.length);
    if (direct) {
      ByteBuffer buffer = ByteBuffer.allocateDirect(bytes.length);
      buffer.put(bytes).flip();
      return buffer.position(2).slice();
    }
    return ByteBuffer.wrap(bytes, 2, piece.length).slice();
  }

  private URI watchUri() {
    return URI.create("ws://127.0.0.1:" + server.getAddress().getPort() + "/api/v1/namespaces/ns/pods?watch=true");
  }

  /** Records what a WebSocket listener is told, and never asks for more itself. */
  private static class RecordingListener implements WebSocket.Listener {
    final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void onOpen(WebSocket webSocket) {
      events.add("open");
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      events.add(data.toString());
      return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
      events.add("close " + statusCode);
      return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
      events.add("error " + error);
    }
  }
}
