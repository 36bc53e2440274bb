package dev.stint.kubeclient;

import java.net.URI;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A WebSocket listener that hands each text message on whole, as one {@code String}, to the listener it wraps
 * (fabric8's), instead of the parts the JDK decodes it into.
 *
 * <p>Why: the JDK hands a text message over as {@link CharBuffer}s, and fabric8 appends each to a
 * {@code StringBuilder}, which copies a {@code CharSequence} one {@code charAt} at a time: a bounds-checked virtual
 * call per character of every watch event (3% of the operator's CPU at N = 500, JFR; docs/benchmarks.md). Copied here
 * from the buffer's array in one go, and handed on as one last part, fabric8's builder copies a {@code String}, which
 * is an array copy.
 */
final class WholeTextMessages implements WebSocket.Listener {
  private final WebSocket.Listener listener;
  private final StringBuilder parts = new StringBuilder();

  WholeTextMessages(WebSocket.Listener listener) {
    this.listener = listener;
  }

  @Override
  public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
    if (!last) {
      append(data);
      webSocket.request(1); // the wrapped listener asks for the next part itself only when it is given one
      return null;
    }
    String message;
    if (parts.length() == 0) {
      message = data.toString();
    } else {
      append(data);
      message = parts.toString();
      parts.setLength(0);
    }
    return listener.onText(webSocket, message, true);
  }

  private void append(CharSequence data) {
    if (data instanceof CharBuffer buffer && buffer.hasArray()) {
      parts.append(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
    } else {
      parts.append(data.toString()); // a buffer's toString copies in bulk; the JDK's parts are read-only buffers
    }
  }

  @Override
  public void onOpen(WebSocket webSocket) {
    listener.onOpen(webSocket);
  }

  @Override
  public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
    return listener.onBinary(webSocket, data, last);
  }

  @Override
  public CompletionStage<?> onPing(WebSocket webSocket, ByteBuffer message) {
    return listener.onPing(webSocket, message);
  }

  @Override
  public CompletionStage<?> onPong(WebSocket webSocket, ByteBuffer message) {
    return listener.onPong(webSocket, message);
  }

  @Override
  public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
    return listener.onClose(webSocket, statusCode, reason);
  }

  @Override
  public void onError(WebSocket webSocket, Throwable error) {
    listener.onError(webSocket, error);
  }

  /** A WebSocket builder whose listeners are given whole text messages. */
  static final class Builder implements WebSocket.Builder {
    private final WebSocket.Builder builder;

    Builder(WebSocket.Builder builder) {
      this.builder = builder;
    }

    @Override
    public WebSocket.Builder header(String name, String value) {
      builder.header(name, value);
      return this;
    }

    @Override
    public WebSocket.Builder connectTimeout(Duration timeout) {
      builder.connectTimeout(timeout);
      return this;
    }

    @Override
    public WebSocket.Builder subprotocols(String mostPreferred, String... lesserPreferred) {
      builder.subprotocols(mostPreferred, lesserPreferred);
      return this;
    }

    @Override
    public CompletableFuture<WebSocket> buildAsync(URI uri, WebSocket.Listener listener) {
      return builder.buildAsync(uri, new WholeTextMessages(listener));
    }
  }
}
