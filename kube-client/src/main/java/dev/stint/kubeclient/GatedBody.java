package dev.stint.kubeclient;

import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A request body that asks its {@link SendGate} once more when the HTTP client first asks for bytes: the JDK client
 * subscribes to a body only after it has written the headers, so this is the last check before the request can take
 * effect. Refused, the body fails instead of starting: the JDK client then abandons the request (HTTP/1.1 closes the
 * connection, HTTP/2 resets the stream), the API server sees a body cut short and carries nothing out, and the caller
 * gets the gate's failure.
 *
 * <p>Why it is needed (issue 47): a check made when a write is handed to the client leaves a window up to the moment
 * the bytes leave; a process frozen in it (SIGSTOP, a stalled VM) sends the write when it wakes, possibly long after
 * it lost its Lease. This narrows the window to the hand-over of the first buffer to the socket.
 */
final class GatedBody implements HttpRequest.BodyPublisher {
  private final HttpRequest.BodyPublisher body;
  private final Supplier<RuntimeException> refusal;
  private final Consumer<RuntimeException> refused;

  /**
   * @param body the body to send
   * @param refusal the failure to give instead of the body now, or null when it may go
   * @param refused told of a refusal, before the client is
   */
  GatedBody(HttpRequest.BodyPublisher body, Supplier<RuntimeException> refusal, Consumer<RuntimeException> refused) {
    this.body = body;
    this.refusal = refusal;
    this.refused = refused;
  }

  @Override
  public long contentLength() {
    return body.contentLength();
  }

  @Override
  public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
    body.subscribe(new GatedSubscriber(subscriber));
  }

  /** Passes everything through, except that the first demand is refused when the gate is shut by then. */
  private final class GatedSubscriber implements Flow.Subscriber<ByteBuffer> {
    private final Flow.Subscriber<? super ByteBuffer> downstream;
    private final AtomicBoolean asked = new AtomicBoolean();
    private volatile boolean shut;

    GatedSubscriber(Flow.Subscriber<? super ByteBuffer> downstream) {
      this.downstream = downstream;
    }

    @Override
    public void onSubscribe(Flow.Subscription upstream) {
      downstream.onSubscribe(new Flow.Subscription() {
        @Override
        public void request(long n) {
          if (shut) {
            return;
          }
          if (asked.compareAndSet(false, true)) {
            RuntimeException failure = refusal.get();
            if (failure != null) {
              shut = true;
              upstream.cancel();
              refused.accept(failure); // first: the client's own failure would be an IOException, which fabric8 retries
              downstream.onError(failure); // the client closes the connection (HTTP/1.1) or resets the stream (HTTP/2)
              return;
            }
          }
          upstream.request(n);
        }

        @Override
        public void cancel() {
          upstream.cancel();
        }
      });
    }

    @Override
    public void onNext(ByteBuffer item) {
      if (!shut) {
        downstream.onNext(item);
      }
    }

    @Override
    public void onError(Throwable throwable) {
      if (!shut) {
        downstream.onError(throwable);
      }
    }

    @Override
    public void onComplete() {
      if (!shut) {
        downstream.onComplete();
      }
    }
  }
}
