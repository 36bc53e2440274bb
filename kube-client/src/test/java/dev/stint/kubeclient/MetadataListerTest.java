package dev.stint.kubeclient;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.Map;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class MetadataListerTest {
  KubernetesClient client;

  @Test
  void listsNamesAndVersionsInOneNamespaceOrInAllWithTheInformersSelector() {
    pod("a", "p1", "job-a");
    pod("a", "p2", "other");
    pod("b", "p3", "job-a");
    MetadataLister pods = new MetadataLister(client, "", "v1", "pods", "job=job-a");

    Map<String, String> inA = pods.list("a");
    Map<String, String> everywhere = pods.list(null);

    assertThat(inA).containsOnlyKeys("a/p1");
    assertThat(everywhere).containsOnlyKeys("a/p1", "b/p3");
    assertThat(everywhere.get("b/p3")).isEqualTo(client.pods().inNamespace("b").withName("p3").get().getMetadata()
        .getResourceVersion());
  }

  @Test
  void urlsAskTheWatchCacheForTheKindsPath() {
    MetadataLister jobs = new MetadataLister(client, "kubeflow.org", "v1", "pytorchjobs", null);
    MetadataLister pods = new MetadataLister(client, "", "v1", "pods", "a=b,c in (d)");

    assertThat(jobs.url("ns")).endsWith("/apis/kubeflow.org/v1/namespaces/ns/pytorchjobs?resourceVersion=0");
    assertThat(pods.url(null)).endsWith("/api/v1/pods?resourceVersion=0&labelSelector=a%3Db%2Cc+in+%28d%29");
  }

  @Test
  void readsAPartialObjectMetadataList() throws Exception {
    String body = """
        {"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"90"},
         "items":[{"metadata":{"name":"x","namespace":"n","resourceVersion":"12"}},
                  {"metadata":{"name":"y","namespace":"n","resourceVersion":"15"}}]}""";

    assertThat(MetadataLister.versions(new JsonFactory().createParser(body))).containsExactlyInAnyOrderEntriesOf(
        Map.of("n/x", "12", "n/y", "15"));
  }

  /** What an API server sends: managedFields, labels and owners in the metadata, fields after it, an empty list. */
  @Test
  void skipsWhatItDoesNotRead() throws Exception {
    String body = """
        {"kind":"PartialObjectMetadataList","metadata":{"resourceVersion":"90","continue":""},
         "items":[{"kind":"PartialObjectMetadata","metadata":{"name":"x","namespace":"n","labels":{"a":"b"},
                     "managedFields":[{"manager":"kwok","fieldsV1":{"f:status":{"f:phase":{}}}}],
                     "ownerReferences":[{"name":"job","uid":"u","controller":true}],"generation":3,
                     "resourceVersion":"12"},"apiVersion":"meta.k8s.io/v1"},
                  {"metadata":{"resourceVersion":"7","name":"cluster-scoped"}}],
         "trailing":[1,2,{"items":[]}]}""";

    assertThat(MetadataLister.versions(new JsonFactory().createParser(body))).containsExactlyInAnyOrderEntriesOf(
        Map.of("n/x", "12", "null/cluster-scoped", "7"));
    assertThat(MetadataLister.versions(new JsonFactory().createParser("{\"items\":[]}"))).isEmpty();
  }

  private void pod(String namespace, String name, String job) {
    client.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName(name)
        .withNamespace(namespace).addToLabels("job", job).endMetadata().build()).create();
  }
}
