package dev.stint.operator;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stint.core.decision.KueueSettings;
import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.operator.testkind.SleepFramework;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class ClusterPreflightTest {
  private static final FrameworkRegistry REGISTRY = FrameworkRegistry.of(new SleepFramework());

  KubernetesClient client;

  @Test
  void aMissingCrdIsNamedWithTheCommandThatInstallsIt() {
    assertThatThrownBy(() -> ClusterPreflight.check(client, REGISTRY)).isInstanceOf(CommandFailure.class)
        .hasMessage("CRD sleepjobs.test.stint.dev is not installed: kubectl apply --server-side -f crds/");
  }

  @Test
  void installedCrdsPass() {
    client.apiextensions().v1().customResourceDefinitions().resource(SleepFramework.crd()).create();

    assertThatCode(() -> ClusterPreflight.check(client, REGISTRY)).doesNotThrowAnyException();
  }

  @Test
  void nativeKueueWithoutKueueNamesWhatIsMissing() {
    client.apiextensions().v1().customResourceDefinitions().resource(SleepFramework.crd()).create();
    KueueSettings nativeKueue = new KueueSettings(KueueSettings.Mode.NATIVE, false);

    assertThatCode(() -> ClusterPreflight.check(client, REGISTRY)).doesNotThrowAnyException();
    assertThatThrownBy(() -> ClusterPreflight.check(client, REGISTRY, nativeKueue))
        .isInstanceOf(CommandFailure.class).hasMessage(
            "--kueue=native needs Kueue v0.16 or later installed: the API server serves no kueue.x-k8s.io/v1beta2 "
                + "workloads\n--kueue=native needs Kueue v0.16 or later installed: the API server serves no "
                + "kueue.x-k8s.io/v1beta2 resourceflavors");
  }

  @Test
  void anUnreachableServerIsAClearFailure() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    try (KubernetesClient unreachable = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
        .withMasterUrl("http://127.0.0.1:" + closedPort).withRequestRetryBackoffLimit(0).build()).build()) {
      assertThatThrownBy(() -> ClusterPreflight.check(unreachable, REGISTRY)).isInstanceOf(CommandFailure.class)
          .hasMessageStartingWith("cannot reach the Kubernetes API server at http://127.0.0.1:" + closedPort);
    }
  }
}
