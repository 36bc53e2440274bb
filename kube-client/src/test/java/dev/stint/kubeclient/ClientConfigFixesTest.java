package dev.stint.kubeclient;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import org.junit.jupiter.api.Test;

class ClientConfigFixesTest {
  private static final String KUBECONFIG = """
      apiVersion: v1
      kind: Config
      clusters: [{name: c, cluster: {server: "https://127.0.0.1:6443", certificate-authority-data: Y2E=}}]
      users: [{name: u, user: {%s}}]
      contexts: [{name: c, context: {cluster: c, user: u}}]
      current-context: c
      """;

  @Test
  void aCertificateOnlyConfigGetsATokenProviderWithoutAToken() {
    Config config = Config.fromKubeconfig(KUBECONFIG.formatted("client-certificate-data: Y2VydA==, client-key-data: a2V5"));
    Config run = ClientConfigFixes.forRun(config);
    assertThat(run.getOauthTokenProvider()).isNotNull();
    assertThat(run.getOauthTokenProvider().getToken()).isNull();
    assertThat(run.getClientCertData()).isEqualTo("Y2VydA==");
    assertThat(run.getMasterUrl()).isEqualTo(config.getMasterUrl());
  }

  @Test
  void aConfigWithATokenKeepsFabric8sRefresh() {
    Config config = Config.fromKubeconfig(KUBECONFIG.formatted("token: abc"));
    assertThat(ClientConfigFixes.forRun(config)).isSameAs(config);
  }

  @Test
  void aCertificateWithATokenKeepsFabric8sRefresh() {
    Config config = Config.fromKubeconfig(
        KUBECONFIG.formatted("client-certificate-data: Y2VydA==, client-key-data: a2V5, token: abc"));
    assertThat(ClientConfigFixes.forRun(config)).isSameAs(config);
  }

  @Test
  void aWatchTheApiServerEndedIsStartedAgainWithinATenthOfASecond() {
    Config config = Config.fromKubeconfig(KUBECONFIG.formatted("token: abc"));
    assertThat(config.getWatchReconnectInterval()).isEqualTo(1000);
    assertThat(ClientConfigFixes.forRun(config, name -> null).getWatchReconnectInterval())
        .isEqualTo(ClientConfigFixes.WATCH_RECONNECT_MILLIS).isEqualTo(100);
  }

  @Test
  void aCertificateOnlyConfigKeepsTheShorterWatchReconnect() {
    Config config = Config.fromKubeconfig(KUBECONFIG.formatted("client-certificate-data: Y2VydA==, client-key-data: a2V5"));
    assertThat(ClientConfigFixes.forRun(config, name -> null).getWatchReconnectInterval()).isEqualTo(100);
  }

  @Test
  void aWatchReconnectIntervalTheUserSetIsKept() {
    Config config = Config.fromKubeconfig(KUBECONFIG.formatted("token: abc"));
    config.setWatchReconnectInterval(2500);
    Config run = ClientConfigFixes.forRun(config,
        name -> Config.KUBERNETES_WATCH_RECONNECT_INTERVAL_SYSTEM_PROPERTY.equals(name) ? "2500" : null);
    assertThat(run.getWatchReconnectInterval()).isEqualTo(2500);
  }
}
