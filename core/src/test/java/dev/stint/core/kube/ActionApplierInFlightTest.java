package dev.stint.core.kube;

import static dev.stint.core.kube.ActionApplierTest.JOB;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.stint.core.model.Action;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How many requests a pass has in flight, on an API server that holds every pod creation's or deletion's answer until
 * as many as it waits for have arrived: a wave of deletions goes out whole before any answer is awaited, creations
 * take at most {@link RequestsInFlight#CREATIONS_IN_FLIGHT} beyond the pass's own request, and passes running side by
 * side share the bounds.
 */
class ActionApplierInFlightTest {
  private HttpServer server;
  private ExecutorService serverThreads;
  private KubernetesClient client;
  private ActionApplier applier;
  private EventRecorder events;
  private final Set<String> done = ConcurrentHashMap.newKeySet();
  private int holdUntil;
  private int inFlight;
  private int mostInFlight;
  private long holdEnds;

  @BeforeEach
  void setUp() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    serverThreads = Executors.newCachedThreadPool();
    server.setExecutor(serverThreads);
    server.createContext("/api/v1/namespaces/ns/pods", this::podRequest);
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
  void aWaveOfDeletionsIsSentWholeBeforeAnyAnswerIsAwaited() {
    holdUntil = ActionApplier.MAX_WAVE;
    applier.apply(JOB, deletePods("p", ActionApplier.MAX_WAVE), events);

    assertThat(done).hasSize(ActionApplier.MAX_WAVE);
    assertThat(mostInFlight).as("every deletion of the wave in flight at once").isEqualTo(ActionApplier.MAX_WAVE);
  }

  @Test
  void creationsTakeNoMoreThanTheirOwnBound() {
    holdUntil = RequestsInFlight.CREATIONS_IN_FLIGHT + 1;
    applier.apply(JOB, createPods("p", ActionApplier.MAX_WAVE), events, true);

    assertThat(done).hasSize(ActionApplier.MAX_WAVE);
    assertThat(mostInFlight).as("the pass's own creation and the creations' bound")
        .isEqualTo(RequestsInFlight.CREATIONS_IN_FLIGHT + 1);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"deletions", "creations"})
  void passesSideBySideShareTheBoundBeyondEachOnesOwnRequest(String what) throws Exception {
    boolean deletions = what.equals("deletions");
    int bound = (deletions ? RequestsInFlight.IN_FLIGHT : RequestsInFlight.CREATIONS_IN_FLIGHT) + 2;
    holdUntil = bound;
    ExecutorService reconcileThreads = Executors.newFixedThreadPool(2);
    try {
      List<Future<?>> passes = new ArrayList<>();
      for (String prefix : List.of("p", "q")) {
        List<Action> pass = deletions ? deletePods(prefix, ActionApplier.MAX_WAVE)
            : createPods(prefix, ActionApplier.MAX_WAVE);
        passes.add(reconcileThreads.submit(() -> applier.apply(JOB, pass, events, true)));
      }
      for (Future<?> pass : passes) {
        pass.get(2, TimeUnit.MINUTES);
      }
    } finally {
      reconcileThreads.shutdownNow();
    }

    assertThat(done).hasSize(2 * ActionApplier.MAX_WAVE);
    assertThat(mostInFlight).as("two passes' own requests and the shared bound").isEqualTo(bound);
  }

  /** A pass creating pods {prefix}0 .. {prefix}{n-1}. */
  private static List<Action> createPods(String prefix, int n) {
    List<Action> pass = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      pass.add(new Action.CreatePod(ActionApplierTest.pod(prefix + i)));
    }
    return pass;
  }

  /** A pass deleting pods {prefix}0 .. {prefix}{n-1}. */
  private static List<Action> deletePods(String prefix, int n) {
    List<Action> pass = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      pass.add(new Action.DeletePod(prefix + i, "suspended"));
    }
    return pass;
  }

  /**
   * Holds every answer until {@link #holdUntil} creations or deletions are in flight, and a second longer, so that a
   * request sent beyond that bound would be seen in flight with them (a minute at most, so that a failing test ends);
   * from then on answers at once, with the pod (201 for a creation, 200 for a deletion).
   */
  private void podRequest(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    boolean deletion = exchange.getRequestMethod().equals("DELETE");
    String path = exchange.getRequestURI().getPath();
    String name = deletion ? path.substring(path.lastIndexOf('/') + 1)
        : body.replaceAll("(?s).*\"name\"\\s*:\\s*\"([^\"]+)\".*", "$1");
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
    done.add(name);
    answer(exchange, deletion ? 200 : 201,
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\"}}");
  }

  private static void answer(HttpExchange exchange, int code, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(code, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }
}
