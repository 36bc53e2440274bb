package dev.stint.kubeclient;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A watch read as the API server's HTTP response stream, one JSON event per line (as client-go and kubectl watch),
 * behind the JDK's {@link WebSocket} interface that fabric8's watch manager drives: each line is one whole text
 * message, the stream's end a normal close, a response other than 200 a failed handshake.
 *
 * <p>Each line is decoded once, from bytes to a string, where the JDK's WebSocket decodes a message to characters
 * that are then copied into a string (and fabric8's own HTTP watch decodes a character at a time), and the API server
 * writes chunks instead of WebSocket frames. The end of the stream is told as soon as every line before it is out,
 * whether or not the listener asked for more: the JDK's WebSocket tells a close only when the next message is asked
 * for, one way a watch went deaf (docs/fault-tests.md). Measured against WebSockets, it is not the default
 * (docs/benchmarks.md, "Watches as HTTP streams"); {@code STINT_HTTP_CLIENT=jdk-streams} chooses it.
 *
 * <p>Back pressure is the WebSocket's: the listener is given a line only when it has asked for one
 * ({@link #request}), and the body is asked for more only when every line read is handed out.
 */
final class StreamedWatch implements WebSocket, Flow.Subscriber<List<ByteBuffer>> {
  private final WebSocket.Listener listener;
  private final Executor executor;
  private final Queue<String> lines;
  private final StreamLines splitter;
  private final AtomicLong demand = new AtomicLong();
  /** Non-zero while a thread hands out lines; counts the calls that asked it to look again. */
  private final AtomicInteger handing = new AtomicInteger();
  private final AtomicBoolean endTold = new AtomicBoolean();
  private volatile Flow.Subscription subscription;
  private volatile boolean moreAsked;
  private volatile boolean ended;
  private volatile Throwable failure;
  private volatile boolean outputClosed;
  /** Keeps the subscription's calls serial (Flow's rule 2.7): asking for more, and cancelling. */
  private final Object subscriptionLock = new Object();

  StreamedWatch(WebSocket.Listener listener, Executor executor) {
    this(listener, executor, new ConcurrentLinkedQueue<>());
  }

  /** With the queue the lines wait in (tests). */
  StreamedWatch(WebSocket.Listener listener, Executor executor, Queue<String> lines) {
    this.listener = listener;
    this.executor = executor;
    this.lines = lines;
    this.splitter = new StreamLines(lines);
  }

  /** Whether a WebSocket request to {@code uri} is a watch this class can serve as a stream. */
  static boolean isWatch(URI uri, boolean subprotocols) {
    String query = uri.getRawQuery();
    return !subprotocols && query != null && ("&" + query + "&").contains("&watch=true&");
  }

  /**
   * Opens the watch: the future completes with it once the API server answered 200, after {@code listener}'s
   * {@code onOpen}; it fails with a {@link WebSocketHandshakeException} holding the response when the answer is
   * another, with an {@link HttpTimeoutException} when no answer came within {@code timeout} (the request is then
   * cancelled, and an answer that still comes is closed unread), or with what the request failed of.
   *
   * @param headers each a name and a value; those an HTTP request may not carry (the JDK refuses {@code Connection},
   *                {@code Host}, {@code Upgrade} and the like, which a WebSocket builder takes) are left out
   */
  static CompletableFuture<WebSocket> open(HttpClient client, URI uri, List<String[]> headers, Duration timeout,
                                           WebSocket.Listener listener) {
    // HTTP/1.1, a connection per watch as a WebSocket has: on the client's one HTTP/2 connection, beside the answers
    // to its writes, a suspension's status came about a second later at p99 (N = 100, docs/benchmarks.md)
    HttpRequest.Builder request = HttpRequest.newBuilder(httpUri(uri)).version(HttpClient.Version.HTTP_1_1).GET();
    for (String[] header : headers) {
      try {
        request.header(header[0], header[1]);
      } catch (IllegalArgumentException refused) {
        // a header of the WebSocket's handshake; the stream's connection is the client's to manage
      }
    }
    StreamedWatch watch = new StreamedWatch(listener, client.executor().orElse(ForkJoinPool.commonPool()));
    CompletableFuture<WebSocket> opened = new CompletableFuture<>();
    // the response's future completes when its stream ends; it tells only of a refusal or a failure to open
    CompletableFuture<HttpResponse<Void>> sent = client.sendAsync(request.build(), response -> {
      if (response.statusCode() != 200) {
        return HttpResponse.BodySubscribers.discarding(); // fabric8 reads a refusal's code and headers only
      }
      if (opened.isDone()) { // given up on: its stream is cancelled as soon as it starts
        watch.outputClosed = true;
      } else {
        listener.onOpen(watch);
        opened.complete(watch);
      }
      return HttpResponse.BodySubscribers.fromSubscriber(watch);
    });
    sent.whenComplete((response, error) -> {
      if (error != null) {
        opened.completeExceptionally(error);
      } else if (response.statusCode() != 200) {
        opened.completeExceptionally(new WebSocketHandshakeException(response));
      }
    });
    if (timeout != null) {
      CompletableFuture.delayedExecutor(timeout.toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
        if (opened.completeExceptionally(new HttpTimeoutException("no answer to the watch within " + timeout))) {
          sent.cancel(true);
        }
      });
    }
    return opened;
  }

  static URI httpUri(URI uri) {
    String scheme = uri.getScheme();
    if (scheme.equals("wss") || scheme.equals("ws")) {
      return URI.create((scheme.equals("wss") ? "https" : "http") + uri.toString().substring(scheme.length()));
    }
    return uri;
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    synchronized (subscriptionLock) {
      this.subscription = subscription;
    }
    if (outputClosed) { // closed while it opened
      cancel();
      return;
    }
    handOut();
  }

  @Override
  public void onNext(List<ByteBuffer> item) {
    try {
      for (ByteBuffer buffer : item) {
        splitter.accept(buffer);
      }
    } catch (IllegalStateException e) {
      fail(e);
      return;
    }
    moreAsked = false;
    handOut();
  }

  @Override
  public void onError(Throwable throwable) {
    failure = throwable;
    ended = true;
    handOut();
  }

  @Override
  public void onComplete() {
    ended = true;
    handOut();
  }

  /**
   * Hands the listener the lines it asked for, then the end once every line is out; else asks the body for more. One
   * thread at a time hands out; a call meanwhile makes it look again before it stops.
   */
  private void handOut() {
    if (handing.getAndIncrement() != 0) {
      return;
    }
    try {
      do {
        handOutOnce();
      } while (handing.decrementAndGet() != 0);
    } catch (RuntimeException e) { // the listener threw, or the client refused a request: the watch is over
      handing.set(0);
      fail(e);
    }
  }

  private void handOutOnce() {
    String line;
    while (demand.get() > 0 && (line = lines.poll()) != null) {
      demand.decrementAndGet();
      listener.onText(this, line, true);
    }
    boolean done = ended; // read before the lines: the last lines are queued before the end is marked
    if (!lines.isEmpty()) {
      return; // waiting for the listener to ask
    }
    if (done) {
      tellEnd();
    } else if (!moreAsked) {
      synchronized (subscriptionLock) {
        if (subscription != null && !outputClosed) {
          moreAsked = true;
          subscription.request(1);
        }
      }
    }
  }

  /** Ends the watch on an error of its own: the stream is cancelled and the listener told, once. */
  private void fail(Throwable error) {
    outputClosed = true;
    cancel();
    lines.clear();
    failure = error;
    ended = true;
    tellEnd();
  }

  private void tellEnd() {
    if (!endTold.compareAndSet(false, true)) {
      return;
    }
    Throwable error = failure;
    if (error == null) {
      listener.onClose(this, NORMAL_CLOSURE, "");
    } else {
      listener.onError(this, error);
    }
  }

  @Override
  public void request(long n) {
    if (n <= 0) {
      throw new IllegalArgumentException("a request must be for at least one message, not " + n);
    }
    demand.accumulateAndGet(n, (asked, more) -> asked + more < 0 ? Long.MAX_VALUE : asked + more);
    handOut();
  }

  /**
   * Ends the stream. As a WebSocket's close is answered by the server's, the returned future and then the listener's
   * {@code onClose} complete on another thread: fabric8 closes while holding its watch's lock, and its watch must
   * count as ended only after that close returned.
   */
  @Override
  public CompletableFuture<WebSocket> sendClose(int statusCode, String reason) {
    outputClosed = true;
    cancel();
    lines.clear();
    ended = true;
    CompletableFuture<WebSocket> closed = new CompletableFuture<>();
    Runnable answer = () -> {
      closed.complete(this);
      handOut();
    };
    try {
      executor.execute(answer);
    } catch (RejectedExecutionException e) { // the client is shutting down
      answer.run();
    }
    return closed;
  }

  @Override
  public void abort() {
    outputClosed = true;
    endTold.set(true);
    cancel();
  }

  private void cancel() {
    synchronized (subscriptionLock) {
      if (subscription != null) {
        subscription.cancel();
      }
    }
  }

  @Override
  public CompletableFuture<WebSocket> sendText(CharSequence data, boolean last) {
    return nothingToSend();
  }

  @Override
  public CompletableFuture<WebSocket> sendBinary(ByteBuffer data, boolean last) {
    return nothingToSend();
  }

  @Override
  public CompletableFuture<WebSocket> sendPing(ByteBuffer message) {
    return nothingToSend();
  }

  @Override
  public CompletableFuture<WebSocket> sendPong(ByteBuffer message) {
    return nothingToSend();
  }

  private static CompletableFuture<WebSocket> nothingToSend() {
    return CompletableFuture.failedFuture(new IllegalStateException("a watch's stream carries nothing to the server"));
  }

  @Override
  public String getSubprotocol() {
    return "";
  }

  @Override
  public boolean isOutputClosed() {
    return outputClosed;
  }

  @Override
  public boolean isInputClosed() {
    return endTold.get();
  }

  /** A WebSocket builder that opens watches as streams and leaves every other WebSocket to the JDK's. */
  static final class Builder implements WebSocket.Builder {
    private final HttpClient client;
    private final WebSocket.Builder webSockets;
    private final List<String[]> headers = new ArrayList<>();
    private boolean subprotocols;
    private Duration timeout;

    Builder(HttpClient client, WebSocket.Builder webSockets) {
      this.client = client;
      this.webSockets = webSockets;
    }

    @Override
    public WebSocket.Builder header(String name, String value) {
      webSockets.header(name, value);
      headers.add(new String[] {name, value});
      return this;
    }

    @Override
    public WebSocket.Builder connectTimeout(Duration timeout) {
      webSockets.connectTimeout(timeout);
      this.timeout = timeout;
      return this;
    }

    @Override
    public WebSocket.Builder subprotocols(String mostPreferred, String... lesserPreferred) {
      subprotocols = true;
      webSockets.subprotocols(mostPreferred, lesserPreferred);
      return this;
    }

    @Override
    public CompletableFuture<WebSocket> buildAsync(URI uri, WebSocket.Listener listener) {
      if (isWatch(uri, subprotocols)) {
        return open(client, uri, headers, timeout, listener);
      }
      return webSockets.buildAsync(uri, listener);
    }
  }
}
