package dev.stint.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.core.StintOperator;
import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.core.testing.TestFramework;
import dev.stint.core.testing.TestJobs;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Volcano gang scheduling through the operator: PodGroup first, pods once admitted, PodGroup gone on suspension. */
@EnableKubernetesMockClient(crud = true)
class GangOnMockServerTest extends MockServerEngineTest {

  @Override
  StintOperator newOperator() {
    // Volcano's CRD, so that API discovery knows PodGroup (the operator watches it only with gang scheduling on)
    client.apiextensions().v1().customResourceDefinitions().resource(new CustomResourceDefinitionBuilder()
        .withNewMetadata().withName("podgroups.scheduling.volcano.sh").endMetadata()
        .withNewSpec().withGroup("scheduling.volcano.sh").withScope("Namespaced")
        .withNewNames().withKind("PodGroup").withPlural("podgroups").withSingular("podgroup").endNames()
        .addNewVersion().withName("v1beta1").withServed(true).withStorage(true)
        .withNewSchema().withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true)
        .endOpenAPIV3Schema().endSchema().endVersion().endSpec().build()).createOr(existing -> existing.update());
    return onMockServer(client, FrameworkRegistry.of(new TestFramework())).gangScheduler("volcano").build();
  }

  GenericKubernetesResource podGroup(String name) {
    return client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup").inNamespace("default")
        .withName(name).get();
  }

  @Test
  void podGroupComesFirstPodsFollowAdmissionAndSuspensionRemovesIt() {
    create(TestJobs.job("gang").workers(2).build());
    await().untilAsserted(() -> assertThat(podGroup("gang")).isNotNull());
    assertThat(pods("gang")).isEmpty();

    GenericKubernetesResource group = podGroup("gang");
    group.setAdditionalProperty("status", Map.of("phase", "Inqueue"));
    client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup").inNamespace("default")
        .resource(group).update();
    await().untilAsserted(() -> assertThat(pods("gang")).hasSize(2)
        .allSatisfy(p -> assertThat(p.getSpec().getSchedulerName()).isEqualTo("volcano")));

    client.resources(TestJob.class).inNamespace("default").withName("gang")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"runPolicy\":{\"suspend\":true}}}");
    await().untilAsserted(() -> {
      assertThat(pods("gang")).isEmpty();
      assertThat(podGroup("gang")).isNull();
    });
    client.resources(TestJob.class).inNamespace("default").withName("gang")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"runPolicy\":{\"suspend\":false}}}");
    await().untilAsserted(() -> assertThat(podGroup("gang")).isNotNull());
  }
}
