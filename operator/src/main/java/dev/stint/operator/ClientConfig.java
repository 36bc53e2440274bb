package dev.stint.operator;

import dev.stint.operator.OperatorOptions.ApiRateLimit;
import dev.stint.core.LeaseFence;
import dev.stint.core.metrics.ApiRequestMetrics;
import dev.stint.core.metrics.StintMetrics;
import dev.stint.kubeclient.ClientSerialization;
import dev.stint.kubeclient.JdkClientFactory;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;

/**
 * The client of {@code run}: fabric8's client over the chosen HTTP client, with the operator's serialization
 * ({@link ClientSerialization}), its rate limit, its request metrics and its lease fence. The fixes to fabric8's
 * configuration defaults are kube-client's {@link dev.stint.kubeclient.ClientConfigFixes}.
 */
final class ClientConfig {
  private ClientConfig() {
  }

  /**
   * The operator's client over {@code http}'s client: its requests are counted in {@code metrics} (unless null) and, with
   * {@code --kube-api-qps}, go through an {@link ApiRateLimiter}.
   */
  static KubernetesClient client(Config config, ApiRateLimit limit, StintMetrics metrics, HttpClientChoice http) {
    return client(config, limit, metrics, http, null);
  }

  /** As {@link #client(Config, ApiRateLimit, StintMetrics, HttpClientChoice)}, its writes behind {@code fence}. */
  static KubernetesClient client(Config config, ApiRateLimit limit, StintMetrics metrics, HttpClientChoice http,
                                 LeaseFence fence) {
    return client(config, limit.limited() ? new ApiRateLimiter(limit, System::nanoTime) : null, metrics, http, fence);
  }

  /**
   * The operator's client over {@code http}'s client, its requests going through {@code limiter} and counted in
   * {@code metrics}, each unless null.
   */
  static KubernetesClient client(Config config, ApiRateLimiter limiter, StintMetrics metrics, HttpClientChoice http) {
    return client(config, limiter, metrics, http, null);
  }

  /**
   * As {@link #client(Config, ApiRateLimiter, StintMetrics, HttpClientChoice)}, with {@code fence} (unless null) as
   * the last interceptor: after the rate limiter's wait, so that a request that waited is judged when it goes.
   */
  static KubernetesClient client(Config config, ApiRateLimiter limiter, StintMetrics metrics, HttpClientChoice http,
                                 LeaseFence fence) {
    ApiRequestMetrics counter = metrics == null ? null : new ApiRequestMetrics(metrics.registry());
    // one consumer for both: a second withHttpClientBuilderConsumer would replace the first
    HttpClient.Factory factory = http.factory(config);
    if (fence != null && factory instanceof JdkClientFactory jdk) {
      jdk.gatedBy(fence); // asked again just before a body goes: the other clients have only the interceptor
    }
    KubernetesClientBuilder builder = ClientSerialization.on(new KubernetesClientBuilder()).withConfig(config)
        .withHttpClientFactory(factory);
    return builder.withHttpClientBuilderConsumer(builderOfClient -> {
      if (limiter != null) {
        builderOfClient.addOrReplaceInterceptor(ApiRateLimiter.NAME, limiter);
      }
      if (counter != null) {
        builderOfClient.addOrReplaceInterceptor(ApiRequestMetrics.INTERCEPTOR_NAME, counter);
      }
      if (fence != null) {
        builderOfClient.addOrReplaceInterceptor(LeaseFence.NAME, fence);
      }
    }).build();
  }
}
