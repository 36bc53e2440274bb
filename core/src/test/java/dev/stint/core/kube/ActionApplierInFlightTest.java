package dev.stint.core.kube;

import static dev.stint.core.kube.ActionApplierTest.JOB;
import static dev.stint.core.kube.ActionApplierTest.createPods;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.stint.core.decision.Action;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How many requests a pass has in flight, on an API server that holds every pod creation's answer until as many as it
 * waits for have arrived: a wave goes out whole before any answer is awaited, and passes running side by side share
 * {@link ActionApplier#IN_FLIGHT} beyond each one's own request.
 */
class ActionApplierInFlightTest {
  private HttpServer server;
  private ExecutorService serverThreads;
  private KubernetesClient client;
  private ActionApplier applier;
  private EventRecorder events;
  private final Set<String> created = ConcurrentHashMap.newKeySet();
  private int holdUntil;
  private int inFlight;
  private int mostInFlight;
  private long holdEnds;

  @BeforeEach
  void setUp() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    serverThreads = Executors.newCachedThreadPool();
    server.setExecutor(serverThreads);
    server.createContext("/api/v1/namespaces/ns/pods", this::createPod);
    server.createContext("/api/v1/namespaces/ns/events", exchange -> answer(exchange, 201, "{}"));
    server.start();
    client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
        .withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort()).withRequestRetryBackoffLimit(0)
        .build()).build();
    applier = new ActionApplier(client);
    events = new EventRecorder(client, Clock.systemUTC(), "stint", new SimpleMeterRegistry());
  }

  @AfterEach
  void tearDown() {
    events.close();
    client.close();
    server.stop(0);
    serverThreads.shutdownNow();
  }

  @Test
  void aWaveIsSentWholeBeforeAnyAnswerIsAwaited() {
    holdUntil = ActionApplier.MAX_WAVE;
    applier.apply(JOB, createPods(ActionApplier.MAX_WAVE), events, true);

    assertThat(created).hasSize(ActionApplier.MAX_WAVE);
    assertThat(mostInFlight).as("every creation of the wave in flight at once").isEqualTo(ActionApplier.MAX_WAVE);
  }

  @Test
  void passesSideBySideShareTheBoundBeyondEachOnesOwnRequest() throws Exception {
    int bound = ActionApplier.IN_FLIGHT + 2;
    holdUntil = bound;
    ExecutorService reconcileThreads = Executors.newFixedThreadPool(2);
    try {
      Future<?> a = reconcileThreads.submit(() -> applier.apply(JOB, createPods(ActionApplier.MAX_WAVE), events, true));
      Future<?> b = reconcileThreads.submit(() -> applier.apply(JOB, renamed(ActionApplier.MAX_WAVE), events, true));
      a.get(2, TimeUnit.MINUTES);
      b.get(2, TimeUnit.MINUTES);
    } finally {
      reconcileThreads.shutdownNow();
    }

    assertThat(created).hasSize(2 * ActionApplier.MAX_WAVE);
    assertThat(mostInFlight).as("two passes' own requests and the shared bound").isEqualTo(bound);
  }

  /** A pass creating pods q0 .. q{n-1}. */
  private static List<Action> renamed(int n) {
    List<Action> pass = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      pass.add(new Action.CreatePod(ActionApplierTest.pod("q" + i)));
    }
    return pass;
  }

  /**
   * Holds every answer until {@link #holdUntil} creations are in flight, and a second longer, so that a request sent
   * beyond that bound would be seen in flight with them (a minute at most, so that a failing test ends); from then on
   * answers at once, with 201.
   */
  private void createPod(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    String name = body.replaceAll("(?s).*\"name\"\\s*:\\s*\"([^\"]+)\".*", "$1");
    synchronized (this) {
      long now = System.nanoTime();
      if (holdEnds == 0) {
        holdEnds = now + TimeUnit.MINUTES.toNanos(1);
      }
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      if (mostInFlight >= holdUntil && holdEnds - now > TimeUnit.SECONDS.toNanos(1)) {
        holdEnds = now + TimeUnit.SECONDS.toNanos(1);
      }
      while (System.nanoTime() < holdEnds) {
        try {
          wait(50);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      inFlight--;
    }
    created.add(name);
    answer(exchange, 201, "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\"}}");
  }

  private static void answer(HttpExchange exchange, int code, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(code, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }
}
