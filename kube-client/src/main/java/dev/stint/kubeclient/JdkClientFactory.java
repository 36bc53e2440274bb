package dev.stint.kubeclient;

import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * fabric8's JDK client ({@code STINT_HTTP_CLIENT=jdk}, the default), whose watches hand each event on as one string
 * ({@link WholeTextMessages}), or, in {@link StreamedJdkClientFactory}, read each watch as an HTTP stream
 * ({@link StreamedWatch}). Everything else is the JDK's client as fabric8 configures it.
 */
public class JdkClientFactory extends JdkHttpClientFactory {
  private volatile SendGate gate = SendGate.OPEN;

  /** Public and without arguments: the operator's {@code HttpClientChoice} makes every factory it names this way. */
  public JdkClientFactory() {
  }

  /**
   * Every client this factory makes, from now on or before, sends a request only while {@code gate} lets it:
   * asked when fabric8 hands the request over and again when its body is about to go ({@link SendGate}).
   */
  public JdkClientFactory gatedBy(SendGate gate) {
    this.gate = gate;
    return this;
  }

  /** Whether watches are read as HTTP streams ({@link StreamedWatch}) rather than over WebSockets. */
  protected boolean streamsWatches() {
    return false;
  }

  @Override
  protected HttpClient.Builder createNewHttpClientBuilder() {
    return new WholeMessagesClientBuilder(super.createNewHttpClientBuilder(), this);
  }

  /** Builds the JDK's client as asked, then wraps it. */
  private record WholeMessagesClientBuilder(HttpClient.Builder builder, JdkClientFactory factory)
      implements HttpClient.Builder {
    @Override
    public HttpClient.Builder cookieHandler(CookieHandler cookieHandler) {
      builder.cookieHandler(cookieHandler);
      return this;
    }

    @Override
    public HttpClient.Builder connectTimeout(Duration duration) {
      builder.connectTimeout(duration);
      return this;
    }

    @Override
    public HttpClient.Builder sslContext(SSLContext sslContext) {
      builder.sslContext(sslContext);
      return this;
    }

    @Override
    public HttpClient.Builder sslParameters(SSLParameters sslParameters) {
      builder.sslParameters(sslParameters);
      return this;
    }

    @Override
    public HttpClient.Builder executor(Executor executor) {
      builder.executor(executor);
      return this;
    }

    @Override
    public HttpClient.Builder followRedirects(HttpClient.Redirect policy) {
      builder.followRedirects(policy);
      return this;
    }

    @Override
    public HttpClient.Builder version(HttpClient.Version version) {
      builder.version(version);
      return this;
    }

    @Override
    public HttpClient.Builder priority(int priority) {
      builder.priority(priority);
      return this;
    }

    @Override
    public HttpClient.Builder proxy(ProxySelector proxySelector) {
      builder.proxy(proxySelector);
      return this;
    }

    @Override
    public HttpClient.Builder authenticator(Authenticator authenticator) {
      builder.authenticator(authenticator);
      return this;
    }

    @Override
    public HttpClient build() {
      return new WholeMessagesClient(builder.build(), factory);
    }
  }

  /**
   * The JDK's client, whose WebSocket listeners get whole text messages and whose requests pass the factory's
   * {@link SendGate}. fabric8 calls {@code sendAsync}, {@code newWebSocketBuilder} and {@code executor} on it; the rest
   * is passed through as well.
   */
  private static final class WholeMessagesClient extends HttpClient {
    private final HttpClient client;
    private final JdkClientFactory factory;

    WholeMessagesClient(HttpClient client, JdkClientFactory factory) {
      this.client = client;
      this.factory = factory;
    }

    /**
     * {@code request} sent by {@code send} behind the factory's gate: refused now, or its body refused when the
     * client asks for it. Then the answer fails at once with the gate's reason, whatever the JDK's own path does with
     * the failed body (HTTP/1.1 closes the connection, HTTP/2 resets the stream; an h2c upgrade's exchange was seen never
     * to end, and cancelling it left the connection open with the server waiting for the body).
     */
    private <T> CompletableFuture<HttpResponse<T>> gated(HttpRequest request,
        Function<HttpRequest, CompletableFuture<HttpResponse<T>>> send) {
      SendGate gate = factory.gate;
      if (gate == SendGate.OPEN) {
        return send.apply(request);
      }
      RuntimeException refusal = gate.refusal(request.method(), request.uri());
      if (refusal != null) {
        return CompletableFuture.failedFuture(refusal);
      }
      if (request.bodyPublisher().isEmpty()) {
        return send.apply(request);
      }
      CompletableFuture<HttpResponse<T>> answer = new CompletableFuture<>();
      GatedBody body = new GatedBody(request.bodyPublisher().get(),
          () -> gate.refusal(request.method(), request.uri()), answer::completeExceptionally);
      CompletableFuture<HttpResponse<T>> sent =
          send.apply(HttpRequest.newBuilder(request, (name, value) -> true).method(request.method(), body).build());
      sent.whenComplete((response, failure) -> {
        if (failure == null) {
          answer.complete(response);
        } else {
          answer.completeExceptionally(failure);
        }
      });
      // a caller that cancels (fabric8 on its own timeout) cancels the exchange, as it would the JDK's own future
      answer.whenComplete((response, failure) -> {
        if (answer.isCancelled()) {
          sent.cancel(true);
        }
      });
      return answer;
    }

    @Override
    public WebSocket.Builder newWebSocketBuilder() {
      WebSocket.Builder webSockets = new WholeTextMessages.Builder(client.newWebSocketBuilder());
      return factory.streamsWatches() ? new StreamedWatch.Builder(client, webSockets) : webSockets;
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
                                                            HttpResponse.BodyHandler<T> handler) {
      return gated(request, gatedRequest -> client.sendAsync(gatedRequest, handler));
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
                                                            HttpResponse.PushPromiseHandler<T> pushPromises) {
      return gated(request, gatedRequest -> client.sendAsync(gatedRequest, handler, pushPromises));
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
        throws IOException, InterruptedException {
      try {
        return sendAsync(request, handler).get();
      } catch (ExecutionException e) {
        if (e.getCause() instanceof RuntimeException refusal) {
          throw refusal;
        }
        throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
      }
    }

    @Override
    public Optional<Executor> executor() {
      return client.executor();
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
      return client.cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
      return client.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
      return client.followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
      return client.proxy();
    }

    @Override
    public SSLContext sslContext() {
      return client.sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
      return client.sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
      return client.authenticator();
    }

    @Override
    public Version version() {
      return client.version();
    }
  }
}
