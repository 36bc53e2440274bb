package dev.stint.testkit;

import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads and writes a kind's manifests as the operator's client does, for tests that pin the JSON users send and read:
 * {@code KindManifests.read(Path.of("examples", "jaxjob.yaml"), JAXJob.class)}.
 */
public final class KindManifests {

  private KindManifests() { }

  /**
   * A serialization that knows the kind. Without the registration, fabric8 reads any document with a kind it does not
   * know as a {@code GenericKubernetesResource}.
   */
  public static KubernetesSerialization serialization(Class<? extends KubernetesResource> kind) {
    KubernetesSerialization serialization = new KubernetesSerialization();
    serialization.registerKubernetesResource(kind);
    return serialization;
  }

  /** The manifest in a file (YAML or JSON), read as the kind. */
  public static <J extends KubernetesResource> J read(Path manifest, Class<J> kind) throws IOException {
    try (InputStream in = Files.newInputStream(manifest)) {
      return serialization(kind).unmarshal(in, kind);
    }
  }
}
