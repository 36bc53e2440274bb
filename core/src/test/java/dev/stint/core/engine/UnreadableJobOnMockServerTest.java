package dev.stint.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.core.testing.TestCrds;
import dev.stint.core.testing.TestFramework;
import dev.stint.core.testing.TestJobs;
import dev.stint.kubeclient.ClientSerialization;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A job the operator cannot read (a number beyond its field's 32 bits, stored under an older CRD) is left alone and
 * said once, naming the field, while every other job of its kind is served; fixed, it is served too. Before, the
 * informer's list failed on it and no job of the kind was served.
 */
@EnableKubernetesMockClient(crud = true)
class UnreadableJobOnMockServerTest extends OperatorOnMockServer {
  private KubernetesClient ours;

  @Test
  void anUnreadableJobIsLeftAloneAndSaidOnceWhileTheOthersAreServed() {
    client.apiextensions().v1().customResourceDefinitions().resource(TestCrds.of(TestJob.class)).create();
    String json = Serialization.asJson(TestJobs.job("bad").workers(1).runPolicy(p -> p.setBackoffLimit(7)).build())
        .replace("\"backoffLimit\":7", "\"backoffLimit\":3000000000");
    assertThat(json).contains("3000000000");
    client.genericKubernetesResources("test.stint.dev/v1", "TestJob").inNamespace("default")
        .resource(Serialization.unmarshal(json, GenericKubernetesResource.class)).create();
    client.resource(TestJobs.job("fine").workers(1).build()).create();

    // the operator's own client, with the serialization it runs with
    ours = ClientSerialization.on(new KubernetesClientBuilder().withConfig(client.getConfiguration())).build();
    operator = onMockServer(ours, FrameworkRegistry.of(new TestFramework())).build();
    operator.start();

    await().untilAsserted(() -> assertThat(pods("fine")).hasSize(1));
    await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      assertThat(pods("bad")).isEmpty();
      assertThat(events("TestJobUnreadable")).singleElement().satisfies(e -> {
        assertThat(e.getType()).isEqualTo("Warning");
        assertThat(e.getInvolvedObject().getName()).isEqualTo("bad");
        assertThat(e.getMessage()).startsWith("TestJob cannot be read by this operator: spec.runPolicy.backoffLimit: ")
            .contains("3000000000");
      });
    });

    client.genericKubernetesResources("test.stint.dev/v1", "TestJob").inNamespace("default").withName("bad")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"runPolicy\":{\"backoffLimit\":3}}}");

    await().untilAsserted(() -> assertThat(pods("bad")).hasSize(1));
  }

  @Override
  void afterOperatorStopped() {
    if (ours != null) {
      ours.close();
    }
  }

  private List<Pod> pods(String job) {
    return client.pods().inNamespace("default").withLabel("training.kubeflow.org/job-name", job).list().getItems();
  }

  private List<Event> events(String reason) {
    assertThat(operator.awaitEventsSent(Duration.ofSeconds(30))).as("events sent").isTrue();
    return client.v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> reason.equals(e.getReason())).toList();
  }
}
