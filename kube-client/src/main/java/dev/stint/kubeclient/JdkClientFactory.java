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
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * fabric8's JDK client ({@code STINT_HTTP_CLIENT=jdk}, the default), whose watches hand each event on as one string
 * ({@link WholeTextMessages}), or, in {@link StreamedJdkClientFactory}, read each watch as an HTTP stream
 * ({@link StreamedWatch}). Everything else is the JDK's client as fabric8 configures it.
 */
public class JdkClientFactory extends JdkHttpClientFactory {
  /** Public and without arguments: the operator's {@code HttpClientChoice} makes every factory it names this way. */
  public JdkClientFactory() {
  }

  /** Whether watches are read as HTTP streams ({@link StreamedWatch}) rather than over WebSockets. */
  protected boolean streamsWatches() {
    return false;
  }

  @Override
  protected HttpClient.Builder createNewHttpClientBuilder() {
    return new WholeMessagesClientBuilder(super.createNewHttpClientBuilder(), streamsWatches());
  }

  /** Builds the JDK's client as asked, then wraps it. */
  private record WholeMessagesClientBuilder(HttpClient.Builder builder, boolean streams)
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
      return new WholeMessagesClient(builder.build(), streams);
    }
  }

  /**
   * The JDK's client, whose WebSocket listeners get whole text messages. fabric8 calls {@code sendAsync},
   * {@code newWebSocketBuilder} and {@code executor} on it; the rest is passed through as well.
   */
  private static final class WholeMessagesClient extends HttpClient {
    private final HttpClient client;
    private final boolean streams;

    WholeMessagesClient(HttpClient client, boolean streams) {
      this.client = client;
      this.streams = streams;
    }

    @Override
    public WebSocket.Builder newWebSocketBuilder() {
      WebSocket.Builder webSockets = new WholeTextMessages.Builder(client.newWebSocketBuilder());
      return streams ? new StreamedWatch.Builder(client, webSockets) : webSockets;
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
                                                            HttpResponse.BodyHandler<T> handler) {
      return client.sendAsync(request, handler);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
                                                            HttpResponse.PushPromiseHandler<T> pushPromises) {
      return client.sendAsync(request, handler, pushPromises);
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
        throws IOException, InterruptedException {
      return client.send(request, handler);
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
