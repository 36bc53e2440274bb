package dev.stint.kubeclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@EnableKubernetesMockClient(crud = true)
class WholeTextMessagesTest {
  KubernetesClient mockClient;
  private final FakeWebSocket socket = new FakeWebSocket();
  private final List<String> received = new ArrayList<>();
  private final WholeTextMessages messages = new WholeTextMessages(new WebSocket.Listener() {
    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      assertThat(last).as("every message handed on is whole").isTrue();
      received.add(data.toString());
      return null;
    }
  });

  static Stream<Arguments> parts() {
    char[] around = "xx{\"a\":\"é€\"}yy".toCharArray();
    return Stream.of(
        Arguments.of("one part", List.<CharSequence>of(CharBuffer.wrap("{\"type\":\"ADDED\"}")),
            "{\"type\":\"ADDED\"}"),
        Arguments.of("three parts, characters beyond Latin-1", List.<CharSequence>of(CharBuffer.wrap("{\"a\":"),
            CharBuffer.wrap("\"é€"), CharBuffer.wrap("\"}")), "{\"a\":\"é€\"}"),
        Arguments.of("parts inside larger arrays, at an offset", List.<CharSequence>of(
            CharBuffer.wrap(around, 2, 5).slice(), CharBuffer.wrap(around, 7, 5)), "{\"a\":\"é€\"}"),
        Arguments.of("parts without an array", List.<CharSequence>of("{\"a\":", new StringBuilder("1}")),
            "{\"a\":1}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("parts")
  void theWrappedListenerGetsOneWholeMessageAndEveryPartIsAskedFor(String name, List<CharSequence> parts,
                                                                  String message) {
    for (int i = 0; i < parts.size(); i++) {
      messages.onText(socket, parts.get(i), i == parts.size() - 1);
    }
    messages.onText(socket, CharBuffer.wrap("{}"), true); // the next message starts afresh

    assertThat(received).containsExactly(message, "{}");
    assertThat(socket.requested).as("one request per part held back; the wrapped listener asks after a message")
        .isEqualTo(parts.size() - 1);
  }

  @Test
  void aWatchOverTheJdkClientDeliversLargeEventsWhole() {
    String big = "é€x".repeat(40_000); // larger than one frame part, and UTF-8 of two and three bytes
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(mockClient.getConfiguration())
        .withHttpClientFactory(new JdkClientFactory()).build()) {
      List<Pod> seen = new CopyOnWriteArrayList<>();
      try (Watch watch = client.pods().inNamespace("ns").watch(new Watcher<>() {
        @Override
        public void eventReceived(Action action, Pod pod) {
          seen.add(pod);
        }

        @Override
        public void onClose(WatcherException cause) {
        }
      })) {
        for (int i = 0; i < 3; i++) {
          client.pods().inNamespace("ns").resource(new PodBuilder().withNewMetadata().withName("p" + i)
              .addToAnnotations("big", big).endMetadata().build()).create();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> seen.size() == 3);
      }
      assertThat(seen).extracting(p -> p.getMetadata().getAnnotations().get("big")).containsOnly(big);
    }
  }

  /** Counts what the listener asks for; nothing else of a WebSocket is used. */
  private static final class FakeWebSocket implements WebSocket {
    int requested;

    @Override
    public void request(long n) {
      requested += (int) n;
    }

    @Override
    public CompletableFuture<WebSocket> sendText(CharSequence data, boolean last) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<WebSocket> sendBinary(ByteBuffer data, boolean last) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<WebSocket> sendPing(ByteBuffer message) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<WebSocket> sendPong(ByteBuffer message) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<WebSocket> sendClose(int statusCode, String reason) {
      throw new UnsupportedOperationException();
    }

    @Override
    public String getSubprotocol() {
      return "";
    }

    @Override
    public boolean isOutputClosed() {
      return false;
    }

    @Override
    public boolean isInputClosed() {
      return false;
    }

    @Override
    public void abort() {
    }
  }
}
