package dev.stint.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.core.registry.ClasspathDiscovery;
import dev.stint.core.registry.DiscoveredFramework;
import dev.stint.core.registry.FrameworkConflicts;
import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.core.registry.PluginDirDiscovery;
import dev.stint.testdoubles.FakeKubelet;
import dev.stint.core.testing.FaultyFramework;
import dev.stint.core.testing.FaultyJob;
import dev.stint.core.testing.TestCrds;
import dev.stint.core.testing.TestFramework;
import dev.stint.testdoubles.TestJob;
import dev.stint.core.testing.TestJobs;
import dev.stint.core.testing.TestPluginJar;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A framework from a plugin jar, in its own class loader, next to a built-in one: its job fails when its code throws,
 * the built-in's job runs to success. (The successful plugin path, with a real plugin built by Maven, is the operator
 * module's {@code JaxPluginTest}.)
 */
@EnableKubernetesMockClient(crud = true)
class PluginOnMockServerTest extends OperatorOnMockServer {
  @TempDir Path plugins;
  PluginDirDiscovery discovery;

  @Override
  void afterOperatorStopped() {
    if (discovery != null) {
      discovery.close();
    }
  }

  @Test
  void aPluginThatThrowsWhileReconcilingFailsOnlyItsOwnJob() {
    TestPluginJar.of("faulty").framework(FaultyFramework.class).classes(FaultyJob.class)
        .resource(FaultyFramework.FAULT_RESOURCE, "fault=wire").writeTo(plugins);
    discovery = PluginDirDiscovery.scan(plugins);
    List<DiscoveredFramework> candidates = new ArrayList<>(List.of(DiscoveredFramework.builtIn(new TestFramework())));
    candidates.addAll(discovery.frameworks());
    FrameworkRegistry registry = FrameworkRegistry.of(FrameworkConflicts.resolve(candidates).kept().stream()
        .map(DiscoveredFramework::framework).toList());
    assertThat(registry.byName("faulty").orElseThrow().getClass().getClassLoader())
        .isNotSameAs(ClasspathDiscovery.class.getClassLoader());
    client.apiextensions().v1().customResourceDefinitions().resource(TestCrds.of(TestJob.class)).create();
    client.apiextensions().v1().customResourceDefinitions().resource(TestCrds.of(FaultyJob.class)).create();
    startOperator(registry);

    // written as generic objects: FaultyJob on the test class path is not the plugin's FaultyJob class
    client.resource(generic(FaultyJob.from(TestJobs.job("broken").workers(1).build()))).create();
    client.resource(TestJobs.job("fine").workers(1).build()).create();

    await().untilAsserted(() -> assertThat(conditionMessage("broken", "Failed"))
        .isEqualTo("framework faulty failed in wire(): java.lang.IllegalStateException: injected fault in wire"));
    FakeKubelet kubelet = new FakeKubelet(client, "default");
    await().untilAsserted(() -> assertThat(client.pods().inNamespace("default").withName("fine-worker-0").get())
        .isNotNull());
    kubelet.run("fine-worker-0");
    kubelet.succeed("fine-worker-0");
    await().untilAsserted(() -> assertThat(testJobStatus("fine").isTrue("Succeeded")).isTrue());
  }

  private GenericKubernetesResource generic(FaultyJob job) {
    job.setApiVersion("test.stint.dev/v1");
    job.setKind("FaultyJob");
    return client.getKubernetesSerialization().convertValue(job, GenericKubernetesResource.class);
  }

  @SuppressWarnings("unchecked")
  private String conditionMessage(String job, String type) {
    GenericKubernetesResource r = client.genericKubernetesResources("test.stint.dev/v1", "FaultyJob")
        .inNamespace("default").withName(job).get();
    var status = (java.util.Map<String, Object>) r.getAdditionalProperties().get("status");
    if (status == null || status.get("conditions") == null) {
      return null;
    }
    return ((List<java.util.Map<String, Object>>) status.get("conditions")).stream()
        .filter(c -> type.equals(c.get("type")) && "True".equals(c.get("status")))
        .map(c -> (String) c.get("message")).findFirst().orElse(null);
  }

  private JobStatus testJobStatus(String name) {
    TestJob j = client.resources(TestJob.class).inNamespace("default").withName(name).get();
    return j == null || j.getStatus() == null ? new JobStatus() : j.getStatus();
  }
}
