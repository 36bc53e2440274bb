package dev.stint.operator;

import dev.stint.operator.OperatorOptions.ApiRateLimit;
import dev.stint.core.kube.ClientSerialization;
import dev.stint.core.metrics.ApiRequestMetrics;
import dev.stint.core.metrics.StintMetrics;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Utils;

/**
 * The client of {@code run}: its configuration, with one fix to fabric8 7.9's defaults, and its rate limit.
 *
 * <p>fabric8's {@code TokenRefreshInterceptor} refreshes the configuration once a minute, to pick up rotated tokens,
 * but it records a refresh only when the refreshed configuration holds a token. With a kubeconfig that authenticates
 * by client certificate there is none, so from the client's second minute on, <em>every request</em> first re-reads
 * and re-parses the kubeconfig ({@code Config.autoConfigure}: about 3 ms of CPU per request, a quarter of the
 * operator's CPU in the benchmark, docs/benchmarks.md). Such a configuration has nothing to refresh: it gets a token
 * provider without a token, which turns that refresh into a no-op. A configuration with a token (in-cluster service
 * account, exec plugin, OIDC) or with basic auth keeps fabric8's refresh as it is.
 */
final class ClientConfig {
  private ClientConfig() {
  }

  /**
   * The operator's client over {@code http}'s client: its requests are counted in {@code metrics} (unless null) and, with
   * {@code --kube-api-qps}, go through an {@link ApiRateLimiter}.
   */
  static KubernetesClient client(Config config, ApiRateLimit limit, StintMetrics metrics, HttpClientChoice http) {
    return client(config, limit.limited() ? new ApiRateLimiter(limit, System::nanoTime) : null, metrics, http);
  }

  /**
   * The operator's client over {@code http}'s client, its requests going through {@code limiter} and counted in
   * {@code metrics}, each unless null.
   */
  static KubernetesClient client(Config config, ApiRateLimiter limiter, StintMetrics metrics, HttpClientChoice http) {
    ApiRequestMetrics counter = metrics == null ? null : new ApiRequestMetrics(metrics.registry());
    // one consumer for both: a second withHttpClientBuilderConsumer would replace the first
    KubernetesClientBuilder builder = ClientSerialization.on(new KubernetesClientBuilder()).withConfig(config)
        .withHttpClientFactory(http.factory(config));
    return builder.withHttpClientBuilderConsumer(builderOfClient -> {
      if (limiter != null) {
        builderOfClient.addOrReplaceInterceptor(ApiRateLimiter.NAME, limiter);
      }
      if (counter != null) {
        builderOfClient.addOrReplaceInterceptor(ApiRequestMetrics.INTERCEPTOR_NAME, counter);
      }
    }).build();
  }

  static Config forRun(Config config) {
    if (!certificateOnly(config)) {
      return config;
    }
    return new ConfigBuilder(config).withOauthTokenProvider(() -> null).build();
  }

  /** A client certificate and nothing the refresh could renew: no token, token provider, auth provider or password. */
  static boolean certificateOnly(Config c) {
    boolean certificate = Utils.isNotNullOrEmpty(c.getClientCertData()) || Utils.isNotNullOrEmpty(c.getClientCertFile());
    return certificate && Utils.isNullOrEmpty(c.getOauthToken()) && Utils.isNullOrEmpty(c.getAutoOAuthToken())
        && c.getOauthTokenProvider() == null && c.getAuthProvider() == null && Utils.isNullOrEmpty(c.getUsername());
  }
}
