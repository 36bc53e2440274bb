package dev.stint.kubeclient;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.utils.Utils;
import java.util.function.UnaryOperator;

/**
 * Two fixes to fabric8 7.9's defaults for the operator's client configuration.
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
public final class ClientConfigFixes {
  /** The first wait before a watch the API server ended is started again. */
  static final int WATCH_RECONNECT_MILLIS = 100;

  private ClientConfigFixes() {
  }

  /** {@code config} with both fixes, reading the reconnect setting as fabric8 does. */
  public static Config forRun(Config config) {
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
