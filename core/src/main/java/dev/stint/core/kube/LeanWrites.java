package dev.stint.core.kube;

import io.fabric8.kubernetes.api.model.DeleteOptions;
import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Creations and deletions of core/v1 objects whose response the engine never reads: the pods and services of a job
 * and its events. fabric8's typed calls turn every response into objects (a created pod comes back whole, a deleted
 * one too), and that parsing was about a third of the operator's CPU (docs/benchmarks.md); these calls go through the
 * client's raw API instead, which returns the body as text and fails as the typed calls do: a
 * {@link KubernetesClientException} with the API server's status code and {@code Status}.
 *
 * <p>A deletion sends what fabric8's {@code delete()} sends: background propagation, and with a resource version the
 * precondition that the object is still that version.
 */
public final class LeanWrites {
  private final KubernetesClient client;

  public LeanWrites(KubernetesClient client) {
    this.client = client;
  }

  /** Creates a core/v1 object ({@code plural}: pods, services, events) in the namespace. */
  public void create(String namespace, String plural, HasMetadata object) {
    client.raw(collection(namespace, plural), "POST", object);
  }

  /**
   * Deletes a core/v1 object by name, only while it has {@code resourceVersion} when that is not null; a missing
   * object, or one of another version, fails with 404, or 409.
   */
  public void delete(String namespace, String plural, String name, String resourceVersion) {
    DeleteOptionsBuilder options = new DeleteOptionsBuilder().withApiVersion("v1").withKind("DeleteOptions")
        .withPropagationPolicy("Background");
    if (resourceVersion != null) {
      options.withNewPreconditions().withResourceVersion(resourceVersion).endPreconditions();
    }
    DeleteOptions body = options.build();
    client.raw(collection(namespace, plural) + "/" + name, "DELETE", body);
  }

  private static String collection(String namespace, String plural) {
    return "/api/v1/namespaces/" + namespace + "/" + plural;
  }
}
