package dev.stint.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterDetectionTest {
  @TempDir Path home;

  @Test
  void nothingConfiguredMeansNoCluster() {
    assertThat(ClusterDetection.clusterConfigured(Map.of("KUBECONFIG", " "), home)).isFalse();
  }

  @Test
  void aKubeconfigVariableMeansACluster() {
    assertThat(ClusterDetection.clusterConfigured(Map.of("KUBECONFIG", "/x/config"), home)).isTrue();
  }

  @Test
  void runningInAPodMeansACluster() {
    assertThat(ClusterDetection.clusterConfigured(Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1"), home)).isTrue();
  }

  @Test
  void aKubeConfigFileMeansACluster() throws IOException {
    Files.createDirectories(home.resolve(".kube"));
    Files.writeString(home.resolve(".kube/config"), "apiVersion: v1\n");

    assertThat(ClusterDetection.clusterConfigured(Map.of(), home)).isTrue();
  }
}
