package dev.stint.kubeclient;

/**
 * The JDK's client with every watch read as an HTTP/1.1 response stream ({@link StreamedWatch};
 * {@code STINT_HTTP_CLIENT=jdk-streams}) instead of a WebSocket. Not the default: at N = 500 it cost the machine as
 * much and ended suspensions later (docs/benchmarks.md, "Watches as HTTP streams").
 */
public final class StreamedJdkClientFactory extends JdkClientFactory {
  /** Public and without arguments: the operator's {@code HttpClientChoice} makes every factory it names this way. */
  public StreamedJdkClientFactory() {
  }

  @Override
  protected boolean streamsWatches() {
    return true;
  }
}
