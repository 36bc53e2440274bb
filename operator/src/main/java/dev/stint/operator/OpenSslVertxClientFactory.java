package dev.stint.operator;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.internal.SSLUtils;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.OpenSSLEngineOptions;
import io.vertx.core.net.TrustOptions;
import io.vertx.ext.web.client.WebClientOptions;
import java.security.GeneralSecurityException;
import java.io.IOException;
import javax.net.ssl.KeyManager;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509KeyManager;

/**
 * fabric8's Vert.x client with its TLS done by Netty's BoringSSL ({@code netty-tcnative-boringssl-static}) instead of
 * the JDK's {@code SSLEngine}: {@code STINT_HTTP_CLIENT=vertx-openssl}, in a jar built with {@code -Phttp-vertx}.
 *
 * <p>fabric8 hands Vert.x a JDK {@code SSLContext}, which the OpenSSL engine cannot use, so the key and trust managers
 * are made again from the same configuration.
 */
public final class OpenSslVertxClientFactory extends VertxHttpClientFactory {
  private final Config config;

  OpenSslVertxClientFactory(Config config) {
    this.config = config;
  }

  @Override
  protected void additionalConfig(WebClientOptions options) {
    if (!OpenSSLEngineOptions.isAvailable()) {
      throw new IllegalStateException("Netty's OpenSSL is not available: this jar lacks netty-tcnative-boringssl-static"
          + " for this platform");
    }
    options.setSslEngineOptions(new OpenSSLEngineOptions());
    try {
      TrustManager[] trust = SSLUtils.trustManagers(config);
      if (trust != null && trust.length > 0) {
        options.setTrustOptions(TrustOptions.wrap(trust[0]));
      }
      KeyManager[] keys = SSLUtils.keyManagers(config);
      if (keys != null && keys.length > 0 && keys[0] instanceof X509KeyManager key) {
        options.setKeyCertOptions(KeyCertOptions.wrap(key));
      }
    } catch (GeneralSecurityException | IOException e) {
      throw KubernetesClientException.launderThrowable(e);
    }
  }
}
