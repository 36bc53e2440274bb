package dev.stint.core.engine;

import static dev.stint.core.testing.KueueDouble.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.core.StintOperator;
import dev.stint.core.decision.KueueSettings;
import dev.stint.core.kueue.KueueApi;
import dev.stint.core.model.EngineFramework;
import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.core.testing.KueueDouble;
import dev.stint.core.testing.TestFramework;
import dev.stint.core.testing.TestJobs;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** --kueue=native on the mock server, with a test double playing Kueue: the Workload protocol end to end. */
@EnableKubernetesMockClient(crud = true)
class KueueOnMockServerTest extends MockServerEngineTest {
  KueueDouble kueue;

  @Override
  StintOperator newOperator() {
    kueue = new KueueDouble(client, "default");
    kueue.installCrds();
    kueue.flavor("on-demand", Map.of("pool", "on-demand"), List.of());
    kueue.flavor("spot", Map.of("pool", "spot"),
        List.of(Map.of("key", "spot", "operator", "Exists", "effect", "NoSchedule")));
    // the mock server answers a JSON patch whose test fails (a write from a stale cache) with no response at all:
    // the operator's own client gives up fast and the pass is retried, as it would be after a real server's 422
    var operatorClient = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(
        new io.fabric8.kubernetes.client.ConfigBuilder(client.getConfiguration()).withRequestTimeout(3_000)
            .withRequestRetryBackoffLimit(0).build()).build();
    return onMockServer(operatorClient, FrameworkRegistry.of(new TestFramework())).closeClientOnStop(true)
        .kueue(new KueueSettings(KueueSettings.Mode.NATIVE, false)).build();
  }

  /** Creates a queued job and returns the name of the Workload Stint made for it. */
  String queuedWorkload(String job, int workers) {
    create(queued(job, workers));
    await().untilAsserted(() -> assertThat(workload(job)).isNotNull());
    return workload(job).getMetadata().getName();
  }

  /** A queued job admitted on the on-demand flavor, once its pods exist; returns its Workload's name. */
  String admitted(String job, int workers) {
    String name = queuedWorkload(job, workers);
    kueue.admit(name, "team-cq", "on-demand", null);
    await().untilAsserted(() -> assertThat(pods(job)).hasSize(workers));
    return name;
  }

  static TestJob queued(String name, int workers) {
    return TestJobs.job(name).workers(workers)
        .edit(j -> j.getMetadata().setLabels(Map.of(KueueApi.QUEUE_NAME_LABEL, "team-q"))).build();
  }

  GenericKubernetesResource workload(String job) {
    return kueue.workloadOf(job(job).getMetadata().getUid());
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> status(GenericKubernetesResource workload) {
    return (Map<String, Object>) workload.getAdditionalProperties().get("status");
  }

  @Test
  void queuedAdmittedPreemptedReleasedReadmittedElsewhereAndFinished() {
    String name = queuedWorkload("train", 2);
    assertThat(name).isEqualTo(KueueApi.workloadName("TestJob", "test.stint.dev", "train",
        job("train").getMetadata().getUid()));
    await().untilAsserted(() -> {
      assertThat(status("train").condition("Suspended").orElseThrow().getReason())
          .isEqualTo("TestJobWaitingForAdmission");
      assertThat(status("train").condition("Suspended").orElseThrow().getMessage()).contains("LocalQueue team-q");
    });
    assertThat(pods("train")).isEmpty();

    kueue.admit(name, "team-cq", "spot", null);
    await().untilAsserted(() -> assertThat(pods("train")).hasSize(2).allSatisfy(p -> {
      assertThat(p.getSpec().getNodeSelector()).isEqualTo(Map.of("pool", "spot"));
      assertThat(p.getSpec().getTolerations()).extracting(t -> t.getKey()).containsExactly("spot");
      assertThat(p.getMetadata().getLabels()).containsEntry("kueue.x-k8s.io/podset", "worker")
          .containsEntry("kueue.x-k8s.io/local-queue-name", "team-q")
          .containsEntry("kueue.x-k8s.io/cluster-queue-name", "team-cq");
      assertThat(p.getMetadata().getAnnotations()).containsEntry("kueue.x-k8s.io/workload", name);
    }));
    kubelet.runAll(pods("train"));
    await().untilAsserted(() -> assertThat(condition(kueue.get(name), "PodsReady")).isEqualTo("True/Started"));

    kueue.evict(name, "Preempted");
    await().untilAsserted(() -> assertThat(pods("train")).isEmpty());
    await().untilAsserted(() -> {
      GenericKubernetesResource released = kueue.get(name);
      assertThat(status(released)).containsEntry("admission", null);
      assertThat(condition(released, "QuotaReserved")).isEqualTo("False/Pending");
      assertThat(condition(released, "Admitted")).isEqualTo("False/NoReservation");
      assertThat(condition(released, "Requeued")).isEqualTo("True/Preempted");
      assertThat(condition(released, "PodsReady")).isEqualTo("False/WaitForStart");
      assertThat(condition(released, "Evicted")).isEqualTo("True/Preempted");
    });
    assertThat(status("train").condition("Suspended").orElseThrow().getReason()).isEqualTo("TestJobEvicted");
    assertThat(status("train").getSuspensions()).isEqualTo(1);

    kueue.admit(name, "team-cq", "on-demand", null);
    await().untilAsserted(() -> assertThat(pods("train")).hasSize(2)
        .allSatisfy(p -> assertThat(p.getSpec().getNodeSelector()).isEqualTo(Map.of("pool", "on-demand"))));
    pods("train").forEach(p -> kubelet.succeed(p.getMetadata().getName()));
    await().untilAsserted(() -> assertThat(status("train").isTrue("Succeeded")).isTrue());
    await().untilAsserted(() -> {
      assertThat(condition(kueue.get(name), "Finished")).isEqualTo("True/Succeeded");
      assertThat(kueue.get(name).getMetadata().getFinalizers()).isEmpty();
    });
  }

  @Test
  void theUsersSuspendDeactivatesTheWorkloadAndResumeActivatesIt() {
    String name = admitted("paused", 1);

    suspend("paused", true);
    await().untilAsserted(() -> assertThat(active(name)).isFalse());
    assertThat(kueue.get(name).getMetadata().getAnnotations()).containsEntry(KueueApi.DEACTIVATED_BY_SUSPEND, "true");
    await().untilAsserted(() -> assertThat(pods("paused")).isEmpty());
    kueue.evict(name, "Deactivated");
    await().untilAsserted(() -> assertThat(condition(kueue.get(name), "Requeued")).isEqualTo("False/Deactivated"));

    suspend("paused", false);
    await().untilAsserted(() -> assertThat(active(name)).isTrue());
    // the merge patch's null removes the mark on a real API server; the mock server keeps it as null
    assertThat(kueue.get(name).getMetadata().getAnnotations()).doesNotContainEntry(KueueApi.DEACTIVATED_BY_SUSPEND,
        "true");
    assertThat(pods("paused")).isEmpty(); // not before Kueue admits it again
  }

  @Test
  void aJobDeletedWhileQueuedLeavesNoWorkloadBehind() {
    String name = queuedWorkload("gone", 1);

    client.resources(TestJob.class).inNamespace("default").withName("gone").delete();

    await().untilAsserted(() -> assertThat(kueue.get(name)).isNull());
  }

  @Test
  @SuppressWarnings("unchecked")
  void aWorkerThatSucceededWhileOthersRunIsReportedReclaimable() {
    String name = admitted("part", 3);
    kubelet.runAll(pods("part"));
    await().untilAsserted(() -> assertThat(condition(kueue.get(name), "PodsReady")).isEqualTo("True/Started"));

    kubelet.succeed(pods("part").get(0).getMetadata().getName());

    await().untilAsserted(() -> assertThat((List<Map<String, Object>>) status(kueue.get(name)).get("reclaimablePods"))
        .containsExactly(Map.of("name", "worker", "count", 1)));
    assertThat(status("part").isTrue("Succeeded")).isFalse();
    assertThat(condition(kueue.get(name), "Admitted")).isEqualTo("True/Admitted");
  }

  @Test
  @SuppressWarnings("unchecked")
  void aJobChangedWhileQueuedHasItsWorkloadsPodSetsReplacedAndRunsWhatItAsksNow() {
    String name = queuedWorkload("grown", 1);
    String madeFrom = kueue.get(name).getMetadata().getAnnotations().get(KueueApi.PODSETS_DIGEST);

    client.resources(TestJob.class).inNamespace("default").withName("grown").edit(j -> {
      j.getSpec().replicaSpecs().get("Worker").setReplicas(3);
      return j;
    });

    await().untilAsserted(() -> assertThat((List<Map<String, Object>>) ((Map<String, Object>) kueue.get(name)
        .getAdditionalProperties().get("spec")).get("podSets")).singleElement()
        .satisfies(podSet -> assertThat(podSet).containsEntry("name", "worker").containsEntry("count", 3)));
    assertThat(kueue.get(name).getMetadata().getAnnotations().get(KueueApi.PODSETS_DIGEST)).isNotEqualTo(madeFrom);
    kueue.admit(name, "team-cq", "on-demand", null);
    await().untilAsserted(() -> assertThat(pods("grown")).hasSize(3));
  }

  @Test
  void aJobDeletedWhileStintWasDownHasItsWorkloadReleasedWhenStintStarts() {
    String name = admitted("left", 1);
    operator.stop();

    client.resources(TestJob.class).inNamespace("default").withName("left").delete();
    await().untilAsserted(() -> assertThat(job("left")).isNull());
    assertThat(kueue.get(name).getMetadata().getFinalizers()).containsExactly(KueueApi.FINALIZER);
    operator = newOperator();
    operator.start();

    await().untilAsserted(() -> assertThat(kueue.get(name)).isNull());
  }

  @Test
  void aWorkloadWhoseJobIsGoneIsReleasedWhenTheInformerSeesItAndAnotherJobsIsKept() {
    String alive = queuedWorkload("alive", 1);
    String orphan = "testjob-gone-abcde";
    client.genericKubernetesResources(KueueApi.WORKLOADS).inNamespace("default").resource(
        new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder().withApiVersion(KueueApi.API_VERSION)
            .withKind("Workload").withNewMetadata().withName(orphan)
            .withLabels(Map.of("training.kubeflow.org/operator-name",
                EngineFramework.of(new TestFramework()).controllerName(), KueueApi.JOB_UID_LABEL, "uid-of-a-deleted-job"))
            .withFinalizers(KueueApi.FINALIZER)
            .addNewOwnerReference().withApiVersion("test.stint.dev/v1").withKind("TestJob").withName("gone")
            .withUid("uid-of-a-deleted-job").withController(true).endOwnerReference().endMetadata()
            .withAdditionalProperties(Map.of("spec", Map.of("queueName", "team-q"))).build()).create();

    await().untilAsserted(() -> assertThat(kueue.get(orphan)).isNull());
    assertThat(kueue.get(alive).getMetadata().getFinalizers()).containsExactly(KueueApi.FINALIZER);
  }

  @Test
  void aWorkloadKueuesOwnIntegrationMadeIsReportedAndTheJobWaitsAndItIsReleasedWithTheJob() {
    operator.stop(); // the job first, then Kueue's Workload of it, then Stint
    create(queued("twice", 1));
    String uid = job("twice").getMetadata().getUid();
    String name = KueueApi.workloadName("TestJob", "test.stint.dev", "twice", uid);
    client.genericKubernetesResources(KueueApi.WORKLOADS).inNamespace("default").resource(
        new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder().withApiVersion(KueueApi.API_VERSION)
            .withKind("Workload").withNewMetadata().withName(name).withFinalizers(KueueApi.FINALIZER)
            .addNewOwnerReference().withApiVersion("test.stint.dev/v1").withKind("TestJob").withName("twice")
            .withUid(uid).withController(true).endOwnerReference().endMetadata()
            .withAdditionalProperties(Map.of("spec", Map.of("queueName", "team-q"))).build()).create();
    operator = newOperator();
    operator.start();

    await().untilAsserted(() -> assertThat(events("TestJobWorkloadNotStints")).isEqualTo(1));
    assertThat(status("twice").condition("Suspended").orElseThrow().getReason())
        .isEqualTo("TestJobWaitingForAdmission");
    assertThat(pods("twice")).isEmpty();
    assertThat(client.v1().events().inNamespace("default").list().getItems()).filteredOn(
        e -> "TestJobWorkloadNotStints".equals(e.getReason())).singleElement().satisfies(e -> assertThat(e.getMessage())
        .contains("remove test.stint.dev/testjob from Kueue's integrations.frameworks",
            "TestJob.v1.test.stint.dev in integrations.externalFrameworks"));

    // with Kueue's integration turned off, no one else takes its finalizer off: it would hold its quota for ever
    client.resources(TestJob.class).inNamespace("default").withName("twice").delete();
    await().untilAsserted(() -> assertThat(kueue.get(name)).isNull());
  }

  @Test
  void aJobWithoutAQueueLabelRunsAsWithoutKueue() {
    create(TestJobs.job("free").workers(1).build());
    await().untilAsserted(() -> assertThat(pods("free")).hasSize(1));
    assertThat(client.genericKubernetesResources(KueueApi.WORKLOADS).inNamespace("default").list().getItems())
        .isEmpty();
    Pod pod = pods("free").get(0);
    assertThat(pod.getMetadata().getLabels()).doesNotContainKey("kueue.x-k8s.io/podset");
  }

  @Test
  void aJobMultiKueueDispatchesGetsItsWorkloadHereAndNothingElse() {
    create(TestJobs.job("far").workers(2).runPolicy(p -> p.setManagedBy(KueueApi.MULTIKUEUE_MANAGED_BY))
        .edit(j -> j.getMetadata().setLabels(Map.of(KueueApi.QUEUE_NAME_LABEL, "team-q"))).build());
    await().untilAsserted(() -> assertThat(workload("far")).isNotNull());
    String name = workload("far").getMetadata().getName();
    assertThat(kueue.get(name).getMetadata().getFinalizers()).containsExactly(KueueApi.FINALIZER);

    kueue.admit(name, "team-cq", "on-demand", null); // MultiKueue's admission: the job runs in a worker cluster
    kueue.finish(name, "Succeeded"); // and the worker's Finished is copied back
    await().untilAsserted(() -> assertThat(kueue.get(name).getMetadata().getFinalizers()).isEmpty());
    assertThat(pods("far")).isEmpty();
    assertThat(job("far").getStatus()).isNull(); // MultiKueue writes the job's status here, never Stint
  }

  @Test
  void aJobNamingAPrebuiltWorkloadWaitsForItAdoptsItAndRunsWhenAdmitted() {
    create(TestJobs.job("worker-copy").workers(2).edit(j -> j.getMetadata().setLabels(Map.of(
        KueueApi.QUEUE_NAME_LABEL, "team-q", KueueApi.PREBUILT_WORKLOAD_LABEL, "made-before"))).build());
    await().untilAsserted(() -> assertThat(status("worker-copy").condition("Suspended").orElseThrow().getReason())
        .isEqualTo("TestJobWaitingForAdmission"));
    kueue.prebuilt("made-before", "team-q", Map.of("worker", 2)); // after the job: found by a retry, not an event

    await().untilAsserted(() -> assertThat(kueue.get("made-before").getMetadata().getOwnerReferences())
        .singleElement().satisfies(owner -> {
          assertThat(owner.getUid()).isEqualTo(job("worker-copy").getMetadata().getUid());
          assertThat(owner.getController()).isTrue();
        }));
    GenericKubernetesResource adopted = kueue.get("made-before");
    assertThat(adopted.getMetadata().getLabels()).containsEntry(KueueApi.JOB_UID_LABEL,
        job("worker-copy").getMetadata().getUid());
    assertThat(adopted.getMetadata().getFinalizers()).containsExactly(KueueApi.FINALIZER);
    assertThat(client.genericKubernetesResources(KueueApi.WORKLOADS).inNamespace("default").list().getItems())
        .hasSize(1); // adopted, not doubled
    assertThat(pods("worker-copy")).isEmpty();

    kueue.admit("made-before", "team-cq", "spot", null);
    await().untilAsserted(() -> assertThat(pods("worker-copy")).hasSize(2)
        .allSatisfy(p -> assertThat(p.getSpec().getNodeSelector()).isEqualTo(Map.of("pool", "spot"))));
  }

  @Test
  void aPrebuiltWorkloadOutOfSyncWithItsJobIsFinishedAndTheJobWaits() {
    kueue.prebuilt("too-small", "team-q", Map.of("worker", 1));
    create(TestJobs.job("bigger").workers(3).edit(j -> j.getMetadata().setLabels(Map.of(
        KueueApi.QUEUE_NAME_LABEL, "team-q", KueueApi.PREBUILT_WORKLOAD_LABEL, "too-small"))).build());

    await().untilAsserted(() -> assertThat(condition(kueue.get("too-small"), "Finished")).isEqualTo("True/OutOfSync"));
    await().untilAsserted(() -> assertThat(status("bigger").condition("Suspended").orElseThrow().getReason())
        .isEqualTo("TestJobWorkloadFinished"));
    assertThat(status("bigger").condition("Suspended").orElseThrow().getMessage())
        .contains("out of sync with its user job");
    assertThat(pods("bigger")).isEmpty();
  }

  boolean active(String workloadName) {
    @SuppressWarnings("unchecked")
    Map<String, Object> spec = (Map<String, Object>) kueue.get(workloadName).getAdditionalProperties().get("spec");
    return !Boolean.FALSE.equals(spec.get("active"));
  }

  void suspend(String name, boolean suspend) {
    client.resources(TestJob.class).inNamespace("default").withName(name).patch(
        PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"runPolicy\":{\"suspend\":" + suspend + "}}}");
  }
}
