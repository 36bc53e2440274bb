package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.e2e.LocalKueue.FlavorQuota;
import dev.stint.e2e.RbacJobs.Kind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kind, the JAXJob plugin included, under {@code --kueue=native} with the real Kueue v0.17.0 configured with
 * {@code externalFrameworks} only: created with {@code suspend: false} and a queue label, a job never runs before
 * admission; admitted, it runs on the admitted flavor, reports PodsReady, and when it succeeds its Workload is
 * Finished and loses its finalizer. One operator process for the class; each test its own namespace and queues.
 */
class KueueNativeKindsIT {
  static final Duration WAIT = Duration.ofSeconds(90);
  static KubernetesClient client;
  static OperatorProcess operator;
  String ns;
  LocalKueue kueue;

  @BeforeAll
  static void startOperator() throws IOException {
    client = LocalCluster.client();
    LocalCluster.installCrds();
    Kubectl.run("apply", "--server-side", "--force-conflicts", "-f",
        LocalCluster.ROOT.resolve("examples/plugins/jax/crds").toString()).assertOk();
    Path plugins = Files.createTempDirectory(Files.createDirectories(LocalCluster.ROOT.resolve("e2e/target")),
        "kueue-plugins-");
    Path jar = JaxPluginJar.build();
    Files.copy(jar, plugins.resolve(jar.getFileName()));
    ClusterControl.kueueUp(); // its CRDs first: the operator's preflight checks them
    operator = OperatorProcess.start("--kueue=native", "--plugins-dir=" + plugins);
  }

  @AfterAll
  static void stopOperator() throws InterruptedException {
    if (operator != null) {
      assertThat(operator.alive()).as("the operator is still up at the end").isTrue();
      operator.close();
    }
    if (client != null) {
      client.close();
    }
  }

  @BeforeEach
  void setUp() {
    ns = LocalCluster.namespace(client, "kueue-kinds");
    // no quota on pool-a, none yet on pool-b: every job waits until the test gives pool-b some
    kueue = LocalKueue.start(client, ns, FlavorQuota.of(LocalKueue.FLAVOR_A, "0"),
        FlavorQuota.of(LocalKueue.FLAVOR_B, "0"));
  }

  @AfterEach
  void tearDown() {
    if (kueue != null) {
      kueue.close();
    }
    client.namespaces().withName(ns).delete();
  }

  static Stream<Arguments> kinds() {
    return Stream.of(
        Arguments.of(RbacJobs.PYTORCH, Map.of("master", 1)),
        Arguments.of(RbacJobs.TENSORFLOW, Map.of("worker", 2)),
        Arguments.of(RbacJobs.MPI, Map.of("launcher", 1, "worker", 2)),
        Arguments.of(RbacJobs.JAX, Map.of("worker", 2)));
  }

  /** A job of the kind in the test's LocalQueue, unsuspended, every pod asking for 1 CPU and running until told. */
  String manifest(Kind kind, String name) {
    StringBuilder specs = new StringBuilder();
    kind.replicas().forEach((type, count) -> specs.append("    ").append(type).append(":\n")
        .append("      replicas: ").append(count).append("\n")
        .append("      restartPolicy: OnFailure\n")
        .append("      template:\n        spec:\n          containers:\n")
        .append("          - {name: ").append(kind.container()).append(", image: busybox, ")
        .append("resources: {requests: {cpu: \"1\"}}}\n"));
    return "apiVersion: " + kind.apiVersion() + "\nkind: " + kind.kind() + "\nmetadata:\n  name: " + name
        + "\n  labels: {kueue.x-k8s.io/queue-name: " + LocalKueue.LOCAL_QUEUE + "}\nspec:\n"
        + "  runPolicy: {suspend: false}\n  " + kind.specField() + ":\n" + specs;
  }

  GenericKubernetesResource job(Kind kind, String name) {
    return client.genericKubernetesResources(kind.apiVersion(), kind.kind()).inNamespace(ns).withName(name).get();
  }

  List<Pod> pods(String job) {
    return client.pods().inNamespace(ns).withLabel("training.kubeflow.org/job-name", job).list().getItems();
  }

  String condition(Kind kind, String name, String type) {
    return RbacJobs.condition(client, kind, ns, name, type);
  }

  @SuppressWarnings("unchecked")
  String suspendedReason(Kind kind, String name) {
    Map<String, Object> status = (Map<String, Object>) job(kind, name).getAdditionalProperties().get("status");
    return ((List<Map<String, Object>>) status.get("conditions")).stream()
        .filter(c -> "Suspended".equals(c.get("type"))).map(c -> (String) c.get("reason")).findFirst().orElse(null);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  void neverRunsBeforeAdmissionThenRunsOnTheFlavorAndFinishes(Kind kind, Map<String, Integer> podSets) {
    Kubectl.runWithInput(manifest(kind, "queued"), "apply", "-n", ns, "-f", "-").assertOk();
    String uid = job(kind, "queued").getMetadata().getUid();
    String workload = kueue.awaitWorkloadOfJob(uid).name();
    KueueWorkload pending = kueue.awaitCondition(workload, "QuotaReserved", "False", null);
    assertThat(pending.podSetCounts()).isEqualTo(podSets);
    await().atMost(WAIT).untilAsserted(() -> assertThat(suspendedReason(kind, "queued"))
        .isEqualTo(kind.kind() + "WaitingForAdmission"));
    assertThat(pods("queued")).as("no pod before admission, although suspend is false").isEmpty();

    int cpus = podSets.values().stream().mapToInt(Integer::intValue).sum();
    kueue.setQuotas(FlavorQuota.of(LocalKueue.FLAVOR_A, "0"), FlavorQuota.of(LocalKueue.FLAVOR_B, "" + cpus));
    kueue.awaitAdmitted(workload);
    await().atMost(WAIT).untilAsserted(() -> assertThat(condition(kind, "queued", "Running")).isEqualTo("True"));
    assertThat(pods("queued")).hasSize(cpus).allSatisfy(p -> {
      assertThat(p.getSpec().getNodeSelector()).containsEntry(LocalKueue.POOL_LABEL, "b");
      assertThat(p.getMetadata().getAnnotations()).containsEntry("kueue.x-k8s.io/workload", workload);
    });
    kueue.awaitCondition(workload, "PodsReady", "True", "Started");

    for (Pod pod : pods("queued")) {
      try {
        client.pods().inNamespace(ns).withName(pod.getMetadata().getName()).patch(PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"annotations\":{\"stint.dev/kwok-exit-code\":\"0\"}}}");
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404) {
          throw e;
        }
        // the job already succeeded (an MPI launcher that ended first): Stint stopped the pods still running
      }
    }
    await().atMost(WAIT).untilAsserted(() -> assertThat(condition(kind, "queued", "Succeeded")).isEqualTo("True"));
    kueue.awaitCondition(workload, "Finished", "True", "Succeeded");
    kueue.awaitWorkload(workload, "finalizer removed", w -> w.finalizers().isEmpty());
  }
}
