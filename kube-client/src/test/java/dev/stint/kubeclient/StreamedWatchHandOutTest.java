package dev.stint.kubeclient;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * How a {@link StreamedWatch} hands the body's lines and its end to the listener, driven directly as the HTTP client
 * drives it (no server): in order whatever the threads, and a listener that throws ends it once.
 */
class StreamedWatchHandOutTest {
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
}
