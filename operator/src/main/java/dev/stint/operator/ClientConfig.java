package dev.stint.operator;

import dev.stint.operator.OperatorOptions.ApiRateLimit;
import dev.stint.core.LeaseFence;
import dev.stint.core.kube.ClientSerialization;
import dev.stint.core.metrics.ApiRequestMetrics;
import dev.stint.core.metrics.StintMetrics;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Utils;
import java.util.function.UnaryOperator;

/**
 * The client of {@code run}: its configuration, with two fixes to fabric8 7.9's defaults, and its rate limit.
 *
 * <p>fabric8's {@code TokenRefreshInterceptor} refreshes the configuration once a minute, to pick up rotated tokens,
 * but it records a refresh only when the refreshed configuration holds a token. With a kubeconfig that authenticates
 * by client certificate there is none, so from the client's second minute on, <em>every request</em> first re-reads
 * and re-parses the kubeconfig ({@code Config.autoConfigure}: about 3 ms of CPU per request, a quarter of the
 * operator's CPU in the benchmark, docs/benchmarks.md). Such a configuration has nothing to refresh: it gets a token
 * provider without a token, which turns that refresh into a no-op. A configuration with a token (in-cluster service
 * account, exec plugin, OIDC) or with basic auth keeps fabric8's refresh as it is.
 *
 * <p>fabric8 waits {@code watchReconnectInterval} (1 s by default) before it watches again after the API server ended
 * a watch, then twice as long at each attempt that receives nothing. The API server ends the watches of any client
 * whose events it cannot hand over fast enough, and under a burst that is every client in turn: in a burst of 500
 * jobs it ended the operator's pod watch 11 times, and the operator was deaf to pods for 11.6 s of 70 (client-go's
 * informers, the Kubeflow operator's among them, watch again at once: 0.03 to 0.15 s). The run's client waits
 * {@link #WATCH_RECONNECT_MILLIS} instead, unless {@code kubernetes.watch.reconnectInterval} (or its environment
 * variable) says otherwise; the doubling still spaces the attempts out while the API server is away (at most 32
 * times the first wait).
 */
final class ClientConfig {
  /** The first wait before a watch the API server ended is started again. */
  static final int WATCH_RECONNECT_MILLIS = 100;

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
    KubernetesClientBuilder builder = ClientSerialization.on(new KubernetesClientBuilder()).withConfig(config)
        .withHttpClientFactory(http.factory(config));
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

  static Config forRun(Config config) {
    return forRun(config, Utils::getSystemPropertyOrEnvVar);
  }

  /** {@code settings} reads a system property or its environment variable, as fabric8 does. */
  static Config forRun(Config config, UnaryOperator<String> settings) {
    if (settings.apply(Config.KUBERNETES_WATCH_RECONNECT_INTERVAL_SYSTEM_PROPERTY) == null) {
      config.setWatchReconnectInterval(WATCH_RECONNECT_MILLIS);
    }
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
