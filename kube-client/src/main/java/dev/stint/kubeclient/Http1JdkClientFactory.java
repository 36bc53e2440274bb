package dev.stint.kubeclient;

import java.net.http.HttpClient;

/**
 * The JDK's client on HTTP/1.1 ({@code STINT_HTTP_CLIENT=jdk-http1}): a pooled connection per request in flight,
 * where HTTP/2 multiplexes every request on one connection (what each choice measured: docs/benchmarks.md, "HTTP
 * clients").
 */
public final class Http1JdkClientFactory extends JdkClientFactory {
  /** Public and without arguments: the operator's {@code HttpClientChoice} makes every factory it names this way. */
  public Http1JdkClientFactory() {
  }

  @Override
  protected void additionalConfig(HttpClient.Builder builder) {
    builder.version(HttpClient.Version.HTTP_1_1);
  }
}
