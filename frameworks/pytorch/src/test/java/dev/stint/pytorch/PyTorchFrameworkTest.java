package dev.stint.pytorch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stint.core.model.EngineFramework;
import dev.stint.spi.FrameworkDefaults;
import dev.stint.spi.JobMessages;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.ReplicaOutcomes;
import dev.stint.spi.TrainingFramework;
import dev.stint.testkit.Outcomes;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What the PyTorch framework says about a job besides wiring: identity, leader, success, validation, autoscaler. */
class PyTorchFrameworkTest {

  private final PyTorchFramework framework = new PyTorchFramework();

  @Test
  void describesTheKind() {
    assertThat(framework.name()).isEqualTo("pytorch");
    assertThat(framework.jobType()).isEqualTo(PyTorchJob.class);
    assertThat(HasMetadata.getApiVersion(PyTorchJob.class)).isEqualTo("kubeflow.org/v1");
    assertThat(framework.replicaTypes()).containsExactly("Master", "Worker");
    assertThat(framework.defaults()).isEqualTo(new FrameworkDefaults("pytorch", "pytorchjob-port", 23456, "OnFailure"));
    assertThat(EngineFramework.of(framework).controllerName()).isEqualTo("pytorchjob-controller");
    assertThat(framework.supportingResourceTypes()).containsExactly(HorizontalPodAutoscaler.class);
  }

  @Test
  void isFoundByTheServiceLoader() {
    assertThat(ServiceLoader.load(TrainingFramework.class).stream().map(ServiceLoader.Provider::type))
        .contains(PyTorchFramework.class);
  }

  @Test
  void rejectsAnUnusableInitContainer() {
    assertThatThrownBy(() -> new PyTorchFramework(" ", 100)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new PyTorchFramework("alpine:3.10", 0)).isInstanceOf(IllegalArgumentException.class);
  }

  static Stream<Arguments> minReplicas() {
    PyTorchJob elastic = TestPyTorchJobs.job("j").workers(4).elastic(e -> {
      e.setMinReplicas(2);
      e.setMaxReplicas(4);
    }).build();
    PyTorchJob fixed = TestPyTorchJobs.job("j").master(1).workers(4).build();
    return Stream.of(
        Arguments.of("elastic workers", elastic, "Worker", java.util.OptionalInt.of(2)),
        Arguments.of("a fixed job's workers", fixed, "Worker", java.util.OptionalInt.empty()),
        Arguments.of("a master", fixed, "Master", java.util.OptionalInt.empty()));
  }

  /** What Kueue may admit partially in native mode: only an elastic job's workers, down to minReplicas. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("minReplicas")
  void minReplicasAreTheElasticMinimumOfWorkers(String name, PyTorchJob job, String type,
                                                java.util.OptionalInt expected) {
    assertThat(framework.minReplicas(job, type)).isEqualTo(expected);
  }

  static Stream<Arguments> leaders() {
    PyTorchJob withMaster = TestPyTorchJobs.job("j").master(1).workers(2).build();
    PyTorchJob workersOnly = TestPyTorchJobs.job("j").workers(2).build();
    return Stream.of(
        Arguments.of("Master 0 of a job with a Master", withMaster, "Master", 0, true),
        Arguments.of("Worker 0 of a job with a Master", withMaster, "Worker", 0, false),
        Arguments.of("Worker 1 of a job with a Master", withMaster, "Worker", 1, false),
        Arguments.of("Worker 0 of a Worker-only job", workersOnly, "Worker", 0, true),
        Arguments.of("Worker 1 of a Worker-only job", workersOnly, "Worker", 1, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("leaders")
  void leaderIsTheMasterElseWorkerZero(String name, PyTorchJob job, String type, int index, boolean leader) {
    assertThat(framework.isLeader(job, new ReplicaId(type, index))).isEqualTo(leader);
  }

  static Stream<Arguments> successCases() {
    PyTorchJob withMaster = TestPyTorchJobs.job("j").master(1).workers(3).build();
    PyTorchJob workersOnly = TestPyTorchJobs.job("j").workers(3).build();
    PyTorchJob elastic = TestPyTorchJobs.job("j").workers(3).elastic(e -> { }).build();
    PyTorchJob elasticWithMaster = TestPyTorchJobs.job("j").master(1).workers(3).elastic(e -> { }).build();
    return Stream.of(
        Arguments.of("Master succeeded, Workers running", withMaster, Outcomes.of(m -> m
            .type("Master", 1, 0).type("Worker", 3)), true),
        Arguments.of("all Workers succeeded, Master running", withMaster, Outcomes.of(m -> m
            .type("Master", 1).type("Worker", 3, 0, 1, 2)), false),
        Arguments.of("Worker-only, 2 of 3 succeeded", workersOnly, Outcomes.of(m -> m.type("Worker", 3, 0, 1)), false),
        Arguments.of("Worker-only, 3 of 3 succeeded", workersOnly, Outcomes.of(m -> m.type("Worker", 3, 0, 1, 2)), true),
        Arguments.of("elastic, none succeeded", elastic, Outcomes.of(m -> m.type("Worker", 3)), false),
        Arguments.of("elastic, 1 of 3 succeeded", elastic, Outcomes.of(m -> m.type("Worker", 3, 2)), true),
        Arguments.of("elastic with Master, a Worker succeeded", elasticWithMaster, Outcomes.of(m -> m
            .type("Master", 1).type("Worker", 3, 0)), false),
        Arguments.of("elastic with Master, Master succeeded", elasticWithMaster, Outcomes.of(m -> m
            .type("Master", 1, 0).type("Worker", 3)), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("successCases")
  void defaultSuccessPolicy(String name, PyTorchJob job, ReplicaOutcomes outcomes, boolean succeeded) {
    assertThat(framework.successPolicy(job).holds(outcomes)).isEqualTo(succeeded);
  }

  static Stream<Arguments> invalidJobs() {
    return Stream.of(
        Arguments.of("nprocPerNode not a count", TestPyTorchJobs.job("j").workers(1).nprocPerNode("4 gpus").build(),
            List.of("spec.nprocPerNode: must be auto, cpu, gpu, a device type or a positive integer, not \"4 gpus\"")),
        Arguments.of("nprocPerNode zero", TestPyTorchJobs.job("j").workers(1).nprocPerNode("0").build(),
            List.of("spec.nprocPerNode: must be auto, cpu, gpu, a device type or a positive integer, not \"0\"")),
        Arguments.of("elastic min above max", elastic(e -> { e.setMinReplicas(4); e.setMaxReplicas(2); }),
            List.of("spec.elasticPolicy.maxReplicas: must not be less than minReplicas (4)")),
        Arguments.of("elastic bounds below 1", elastic(e -> { e.setMinReplicas(0); e.setMaxReplicas(0); }),
            List.of("spec.elasticPolicy.minReplicas: must be at least 1",
                "spec.elasticPolicy.maxReplicas: must be at least 1")),
        Arguments.of("rendezvous port out of range", elastic(e -> e.setRdzvPort(70000)),
            List.of("spec.elasticPolicy.rdzvPort: must be a port number between 1 and 65535")),
        Arguments.of("deprecated nProcPerNode zero", elastic(e -> e.setNProcPerNode(0)),
            List.of("spec.elasticPolicy.nProcPerNode: must be at least 1")),
        Arguments.of("negative maxRestarts", elastic(e -> e.setMaxRestarts(-1)),
            List.of("spec.elasticPolicy.maxRestarts: must not be negative")),
        Arguments.of("no replica specs", TestPyTorchJobs.job("j").build(),
            List.of("spec.pytorchReplicaSpecs: must be set")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidJobs")
  void validationNamesTheField(String name, PyTorchJob job, List<String> problems) {
    assertThat(framework.validate(job)).containsExactlyElementsOf(problems);
  }

  @Test
  void validJobsHaveNoProblems() {
    assertThat(framework.validate(TestPyTorchJobs.job("j").master(1).workers(2).nprocPerNode("8").build())).isEmpty();
    // torchrun's other device types, as upstream's CRD lets them through (Intel's xpu, Ascend's npu)
    assertThat(framework.validate(TestPyTorchJobs.job("j").master(1).workers(2).nprocPerNode("xpu").build())).isEmpty();
    assertThat(framework.validate(TestPyTorchJobs.job("j").master(1).workers(2).nprocPerNode("npu").build())).isEmpty();
    assertThat(framework.validate(elastic(e -> { e.setMinReplicas(1); e.setMaxReplicas(3); }))).isEmpty();
  }

  @Test
  void elasticJobWithMetricsGetsAnAutoscaler() {
    PyTorchJob job = TestPyTorchJobs.job("elastic-job").namespace("team-a").workers(2).elastic(e -> {
      e.setMinReplicas(1);
      e.setMaxReplicas(4);
      e.setMetrics(List.of(TestPyTorchJobs.cpuUtilization(80)));
    }).build();

    List<HasMetadata> resources = resources(job);

    assertThat(resources).singleElement().isInstanceOf(HorizontalPodAutoscaler.class);
    HorizontalPodAutoscaler hpa = (HorizontalPodAutoscaler) resources.get(0);
    assertThat(hpa.getApiVersion()).isEqualTo("autoscaling/v2");
    assertThat(hpa.getMetadata().getName()).isEqualTo("elastic-job");
    assertThat(hpa.getMetadata().getNamespace()).isEqualTo("team-a");
    assertThat(hpa.getSpec().getScaleTargetRef().getApiVersion()).isEqualTo("kubeflow.org/v1");
    assertThat(hpa.getSpec().getScaleTargetRef().getKind()).isEqualTo("PyTorchJob");
    assertThat(hpa.getSpec().getScaleTargetRef().getName()).isEqualTo("elastic-job");
    assertThat(hpa.getSpec().getMinReplicas()).isEqualTo(1);
    assertThat(hpa.getSpec().getMaxReplicas()).isEqualTo(4);
    assertThat(hpa.getSpec().getMetrics()).containsExactly(TestPyTorchJobs.cpuUtilization(80));
    assertThat(hpa.getSpec().getMetrics().get(0)).isNotSameAs(job.getSpec().getElasticPolicy().getMetrics().get(0));
  }

  @Test
  void autoscalerBoundsAreDefaultedFromTheWorkers() {
    PyTorchJob job = TestPyTorchJobs.job("elastic-job").workers(3)
        .elastic(e -> e.setMetrics(List.of(TestPyTorchJobs.cpuUtilization(50)))).build();

    HorizontalPodAutoscaler hpa = (HorizontalPodAutoscaler) resources(job).get(0);

    assertThat(hpa.getSpec().getMinReplicas()).isEqualTo(3);
    assertThat(hpa.getSpec().getMaxReplicas()).isEqualTo(3);
  }

  @Test
  void noAutoscalerWithoutElasticMetrics() {
    assertThat(resources(TestPyTorchJobs.job("j").master(1).workers(2).build())).isEmpty();
    assertThat(resources(elastic(e -> e.setMinReplicas(1)))).isEmpty();
  }

  @Test
  void messagesFollowUpstreamWording() {
    JobMessages withMaster = framework.messages(TestPyTorchJobs.job("test-job").master(1).workers(1).build());
    JobMessages workersOnly = framework.messages(
        TestPyTorchJobs.job("test-job").namespace("ns").workers(2).build());

    assertThat(withMaster.running()).isEqualTo("PyTorchJob test-job is running.");
    assertThat(withMaster.succeeded()).isEqualTo("PyTorchJob test-job is successfully completed.");
    assertThat(withMaster.failed("Worker", 2)).isEqualTo("PyTorchJob test-job is failed because 2 Worker replica(s) failed.");
    assertThat(workersOnly.running()).isEqualTo("PyTorchJob ns/test-job is running.");
    assertThat(workersOnly.succeeded()).isEqualTo("PyTorchJob ns/test-job successfully completed.");
    assertThat(workersOnly.failed("Worker", 1)).isEqualTo("PyTorchJob test-job is failed because 1 Worker replica(s) failed.");
  }

  private static PyTorchJob elastic(java.util.function.Consumer<ElasticPolicy> settings) {
    return TestPyTorchJobs.job("j").workers(2).elastic(settings).build();
  }

  private List<HasMetadata> resources(PyTorchJob job) {
    return framework.supportingResources(job, new ReplicaOutcomes(Map.of())).stream()
        .map(dev.stint.spi.SupportingResource::resource).toList();
  }
}
