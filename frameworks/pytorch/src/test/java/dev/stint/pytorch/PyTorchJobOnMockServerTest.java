package dev.stint.pytorch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.core.StintOperator;
import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.core.testing.FakeKubelet;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** PyTorchJobs through the engine on the fabric8 CRUD mock server, with a fake kubelet. */
@EnableKubernetesMockClient(crud = true)
class PyTorchJobOnMockServerTest {
  /** Waits sized for a loaded 2-core machine: a wait only ends early when its condition holds. */
  @org.junit.jupiter.api.BeforeAll
  static void patientOnALoadedMachine() {
    org.awaitility.Awaitility.setDefaultTimeout(java.time.Duration.ofSeconds(60));
  }

  KubernetesClient client;
  io.fabric8.kubernetes.client.server.mock.KubernetesMockServer server;
  StintOperator operator;
  FakeKubelet kubelet;

  @BeforeEach
  void start() {
    client.apiextensions().v1().customResourceDefinitions()
        .load(getClass().getResourceAsStream("/META-INF/fabric8/pytorchjobs.kubeflow.org-v1.yml")).create();
    kubelet = new FakeKubelet(client, "default");
    operator = StintOperator.builder(client, FrameworkRegistry.of(new PyTorchFramework()))
        .serverSideApply(false).closeClientOnStop(false).stopOnInformerError(false).build();
    operator.start();
  }

  @AfterEach
  void stop() {
    operator.stop();
    dev.stint.core.testing.MockServerShutdown.quietly(server);
  }

  JobStatus status(String name) {
    PyTorchJob job = client.resources(PyTorchJob.class).inNamespace("default").withName(name).get();
    return job == null || job.getStatus() == null ? new JobStatus() : job.getStatus();
  }

  List<String> conditions(String name) {
    JobStatus s = status(name);
    return s.getConditions() == null ? List.of() : s.getConditions().stream()
        .map(c -> c.getType() + "=" + c.getStatus() + "/" + c.getReason() + ": " + c.getMessage()).toList();
  }

  List<Pod> pods(String job) {
    return client.pods().inNamespace("default").withLabel("training.kubeflow.org/job-name", job).list().getItems();
  }

  Pod pod(String name) {
    return client.pods().inNamespace("default").withName(name).get();
  }

  static List<String> env(Pod pod) {
    Container c = pod.getSpec().getContainers().get(0);
    return c.getEnv().stream().map(e -> e.getName() + "=" + e.getValue()).toList();
  }

  @Test
  void masterAndTwoWorkersGetUpstreamNamesEnvAndConditions() {
    client.resource(TestPyTorchJobs.job("test-job").master(1).workers(2).build()).create();
    await().untilAsserted(() -> assertThat(pods("test-job")).extracting(p -> p.getMetadata().getName())
        .containsExactlyInAnyOrder("test-job-master-0", "test-job-worker-0", "test-job-worker-1"));

    assertThat(env(pod("test-job-worker-1"))).containsExactly("PYTHONUNBUFFERED=1", "MASTER_PORT=23456",
        "PET_MASTER_PORT=23456", "MASTER_ADDR=test-job-master-0", "PET_MASTER_ADDR=test-job-master-0", "WORLD_SIZE=3",
        "RANK=2", "PET_NODE_RANK=2", "PET_NPROC_PER_NODE=auto", "PET_NNODES=3");
    assertThat(env(pod("test-job-master-0"))).contains("RANK=0");
    assertThat(pod("test-job-master-0").getSpec().getInitContainers()).isNullOrEmpty();
    assertThat(pod("test-job-worker-1").getSpec().getInitContainers()).extracting(Container::getName)
        .containsExactly("init-pytorch");
    assertThat(pod("test-job-master-0").getMetadata().getLabels())
        .containsEntry("training.kubeflow.org/operator-name", "pytorchjob-controller")
        .containsEntry("training.kubeflow.org/job-role", "master");
    assertThat(pod("test-job-worker-0").getSpec().getRestartPolicy()).isEqualTo("OnFailure");

    await().untilAsserted(() -> assertThat(client.services().inNamespace("default").list().getItems()).hasSize(3));
    Service svc = client.services().inNamespace("default").withName("test-job-master-0").get();
    assertThat(svc.getSpec().getClusterIP()).isEqualTo("None");
    assertThat(svc.getSpec().getPorts()).singleElement()
        .satisfies(p -> assertThat(p.getName() + ":" + p.getPort()).isEqualTo("pytorchjob-port:23456"));

    kubelet.runAll(pods("test-job"));
    await().untilAsserted(() -> assertThat(conditions("test-job")).containsExactly(
        "Created=True/PyTorchJobCreated: PyTorchJob test-job is created.",
        "Running=True/PyTorchJobRunning: PyTorchJob test-job is running."));
    assertThat(status("test-job").getReplicaStatuses().get("Worker").getSelector())
        .isEqualTo("training.kubeflow.org/job-name=test-job,training.kubeflow.org/operator-name=pytorchjob-controller,"
            + "training.kubeflow.org/replica-type=worker");

    kubelet.succeed("test-job-master-0");
    await().untilAsserted(() -> assertThat(conditions("test-job")).containsExactly(
        "Created=True/PyTorchJobCreated: PyTorchJob test-job is created.",
        "Running=False/PyTorchJobRunning: PyTorchJob test-job is running.",
        "Succeeded=True/PyTorchJobSucceeded: PyTorchJob test-job is successfully completed."));
    await().untilAsserted(() -> assertThat(pods("test-job")).extracting(p -> p.getMetadata().getName())
        .containsExactly("test-job-master-0"));
  }

  @Test
  void workerOnlyJobSucceedsWhenAllWorkersDo() {
    client.resource(TestPyTorchJobs.job("wo").workers(2).build()).create();
    await().untilAsserted(() -> assertThat(pods("wo")).hasSize(2));
    assertThat(env(pod("wo-worker-0"))).containsExactly("PYTHONUNBUFFERED=1", "PET_NPROC_PER_NODE=auto",
        "PET_NNODES=2");
    assertThat(pod("wo-worker-0").getMetadata().getLabels()).containsEntry("training.kubeflow.org/job-role", "master");
    assertThat(pod("wo-worker-1").getSpec().getInitContainers()).isNullOrEmpty();
    kubelet.runAll(pods("wo"));
    await().untilAsserted(() -> assertThat(status("wo").isTrue("Running")).isTrue());
    kubelet.succeed("wo-worker-0");
    await().untilAsserted(() -> assertThat(status("wo").getReplicaStatuses().get("Worker").succeeded()).isEqualTo(1));
    assertThat(status("wo").isTrue("Succeeded")).isFalse();
    kubelet.succeed("wo-worker-1");
    // an assertion, not orElseThrow: await retries only failed assertions, and the status may not be written yet
    await().untilAsserted(() -> assertThat(status("wo").condition("Succeeded")).hasValueSatisfying(c ->
        assertThat(c.getMessage()).isEqualTo("PyTorchJob default/wo successfully completed.")));
  }

  @Test
  void elasticJobGetsAnAutoscalerThatSuspendRemovesAndAnyWorkerSuccessEndsIt() {
    client.resource(TestPyTorchJobs.job("el").workers(2).elastic(e -> {
      e.setMinReplicas(1);
      e.setMaxReplicas(3);
      e.setMetrics(List.of(TestPyTorchJobs.cpuUtilization(80)));
    }).build()).create();
    await().untilAsserted(() -> assertThat(pods("el")).hasSize(2));
    assertThat(env(pod("el-worker-1"))).contains("PET_RDZV_ENDPOINT=el-worker-0:23456", "PET_RDZV_BACKEND=c10d",
        "PET_NNODES=1:3");
    await().untilAsserted(() -> assertThat(hpa("el")).isNotNull());
    assertThat(hpa("el").getSpec().getScaleTargetRef().getKind()).isEqualTo("PyTorchJob");
    assertThat(hpa("el").getSpec().getMaxReplicas()).isEqualTo(3);

    client.resources(PyTorchJob.class).inNamespace("default").withName("el")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"runPolicy\":{\"suspend\":true}}}");
    await().untilAsserted(() -> assertThat(pods("el")).isEmpty());
    await().untilAsserted(() -> assertThat(hpa("el")).isNull());
    await().untilAsserted(() -> assertThat(conditions("el")).containsExactly(
        "Created=True/PyTorchJobCreated: PyTorchJob el is created.",
        "Suspended=True/PyTorchJobSuspended: PyTorchJob el is suspended."));

    client.resources(PyTorchJob.class).inNamespace("default").withName("el")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"runPolicy\":{\"suspend\":false}}}");
    await().untilAsserted(() -> assertThat(pods("el")).hasSize(2));
    await().untilAsserted(() -> assertThat(hpa("el")).isNotNull());
    kubelet.runAll(pods("el"));
    kubelet.succeed("el-worker-1");
    await().untilAsserted(() -> assertThat(status("el").isTrue("Succeeded")).isTrue());
  }

  HorizontalPodAutoscaler hpa(String name) {
    return client.autoscaling().v2().horizontalPodAutoscalers().inNamespace("default").withName(name).get();
  }

  @Test
  void threeOfFourWorkersIsAPartialSuccessAndTheFourthIsStopped() {
    PyTorchJob job = TestPyTorchJobs.job("pp").workers(4).build();
    job.getSpec().getPytorchReplicaSpecs().get("Worker").setRestartPolicy("Never");
    job.getSpec().setRunPolicy(new dev.stint.spi.api.RunPolicy());
    var rule = new dev.stint.spi.api.SuccessRule();
    rule.setSucceeded(java.util.Map.of("Worker", 3));
    var policy = new dev.stint.spi.api.SuccessPolicySpec();
    policy.setRules(List.of(rule));
    job.getSpec().getRunPolicy().setSuccessPolicy(policy);
    client.resource(job).create();
    await().untilAsserted(() -> assertThat(pods("pp")).hasSize(4));
    kubelet.runAll(pods("pp"));
    await().untilAsserted(() -> assertThat(status("pp").isTrue("Running")).isTrue());

    kubelet.fail("pp-worker-1", 1);
    kubelet.succeed("pp-worker-0");
    kubelet.succeed("pp-worker-2");
    await().untilAsserted(() -> assertThat(status("pp").getReplicaStatuses().get("Worker").getFailedIndexes())
        .isEqualTo("1"));
    assertThat(status("pp").isTrue("Failed")).isFalse();
    kubelet.succeed("pp-worker-3");
    await().untilAsserted(() -> assertThat(status("pp").isTrue("Succeeded")).isTrue());
    String message = "PyTorchJob pp partially succeeded: Worker 1 failed (exit code 1)";
    assertThat(conditions("pp")).containsExactly(
        "Created=True/PyTorchJobCreated: PyTorchJob pp is created.",
        "Running=False/PyTorchJobRunning: PyTorchJob default/pp is running.",
        "PartiallySucceeded=True/PyTorchJobPartiallySucceeded: " + message,
        "Succeeded=True/PyTorchJobPartiallySucceeded: " + message);
    assertThat(status("pp").getOutcome()).isEqualTo("PartiallySucceeded");
    assertThat(status("pp").getReplicaStatuses().get("Worker").getSucceededIndexes()).isEqualTo("0,2-3");
  }

  @Test
  void partialSuccessStopsTheReplicaStillRunning() {
    PyTorchJob job = TestPyTorchJobs.job("stop").workers(4).build();
    job.getSpec().getPytorchReplicaSpecs().get("Worker").setRestartPolicy("Never");
    job.getSpec().setRunPolicy(new dev.stint.spi.api.RunPolicy());
    var rule = new dev.stint.spi.api.SuccessRule();
    rule.setSucceeded(java.util.Map.of("Worker", 2));
    var policy = new dev.stint.spi.api.SuccessPolicySpec();
    policy.setRules(List.of(rule));
    job.getSpec().getRunPolicy().setSuccessPolicy(policy);
    client.resource(job).create();
    await().untilAsserted(() -> assertThat(pods("stop")).hasSize(4));
    kubelet.runAll(pods("stop"));
    kubelet.fail("stop-worker-3", 1);
    kubelet.succeed("stop-worker-0");
    kubelet.succeed("stop-worker-1");
    await().untilAsserted(() -> assertThat(status("stop").getOutcome()).isEqualTo("PartiallySucceeded"));
    // worker 2 was still running: stopped; the finished pods stay (cleanPodPolicy None)
    await().untilAsserted(() -> assertThat(pods("stop")).extracting(p -> p.getMetadata().getName())
        .containsExactlyInAnyOrder("stop-worker-0", "stop-worker-1", "stop-worker-3"));
  }

  @Test
  void invalidPyTorchJobFailsNamingTheFieldWhileAnotherRuns() {
    client.resource(TestPyTorchJobs.job("bad").master(2).workers(1).build()).create();
    client.resource(TestPyTorchJobs.job("fine").workers(1).build()).create();
    await().untilAsserted(() -> assertThat(status("bad").isTrue("Failed")).isTrue());
    assertThat(status("bad").condition("Failed").orElseThrow().getReason()).isEqualTo("PyTorchJobFailedValidation");
    assertThat(status("bad").condition("Failed").orElseThrow().getMessage()).contains("spec.pytorchReplicaSpecs.Master.replicas");
    await().untilAsserted(() -> assertThat(pods("fine")).hasSize(1));
    assertThat(pods("bad")).isEmpty();
  }

}
