package dev.stint.tensorflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.spi.ReplicaId;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code TF_CONFIG} byte for byte as the Kubeflow training operator v1.9 writes it, and where it goes. */
class TFConfigTest {

  private final TensorFlowFramework framework = new TensorFlowFramework("");

  /** Upstream's reference job: {@code dist} in {@code ns} with Chief 1, Worker 2 and PS 1. */
  private static TestTFJobs dist() {
    return TestTFJobs.job("dist").namespace("ns").chief(1).workers(2).ps(1);
  }

  @Test
  void workerOfTheReferenceJob() {
    assertThat(tfConfig(framework, dist().build(), "Worker", 1)).isEqualTo(
        "{\"cluster\":{\"chief\":[\"dist-chief-0.ns.svc:2222\"],\"ps\":[\"dist-ps-0.ns.svc:2222\"],"
            + "\"worker\":[\"dist-worker-0.ns.svc:2222\",\"dist-worker-1.ns.svc:2222\"]},"
            + "\"task\":{\"type\":\"worker\",\"index\":1},\"environment\":\"cloud\"}");
  }

  @Test
  void chiefOfTheReferenceJobSeesTheSameCluster() {
    assertThat(tfConfig(framework, dist().build(), "Chief", 0)).isEqualTo(
        "{\"cluster\":{\"chief\":[\"dist-chief-0.ns.svc:2222\"],\"ps\":[\"dist-ps-0.ns.svc:2222\"],"
            + "\"worker\":[\"dist-worker-0.ns.svc:2222\",\"dist-worker-1.ns.svc:2222\"]},"
            + "\"task\":{\"type\":\"chief\",\"index\":0},\"environment\":\"cloud\"}");
  }

  @Test
  void evaluatorIsPartOfTheCluster() {
    TFJob job = TestTFJobs.job("dist").namespace("ns").chief(1).workers(1).evaluator(1).build();

    assertThat(tfConfig(framework, job, "Evaluator", 0)).isEqualTo(
        "{\"cluster\":{\"chief\":[\"dist-chief-0.ns.svc:2222\"],\"evaluator\":[\"dist-evaluator-0.ns.svc:2222\"],"
            + "\"worker\":[\"dist-worker-0.ns.svc:2222\"]},"
            + "\"task\":{\"type\":\"evaluator\",\"index\":0},\"environment\":\"cloud\"}");
  }

  @Test
  void typeWithoutReplicasIsAnEmptyList() {
    TFJob job = TestTFJobs.job("dist").namespace("ns").workers(2).evaluator(0).build();

    assertThat(tfConfig(framework, job, "Worker", 0)).isEqualTo(
        "{\"cluster\":{\"evaluator\":[],\"worker\":[\"dist-worker-0.ns.svc:2222\",\"dist-worker-1.ns.svc:2222\"]},"
            + "\"task\":{\"type\":\"worker\",\"index\":0},\"environment\":\"cloud\"}");
  }

  @Test
  void eachTypeUsesTheTfjobPortOfItsOwnTemplate() {
    TFJob job = TestTFJobs.job("dist").namespace("ns").workers(2).ps(1).port("Worker", 3333)
        .template("PS", pod -> pod.editFirstContainer().addNewPort().withName("metrics").withContainerPort(9090)
            .endPort().endContainer())
        .build();

    assertThat(tfConfig(framework, job, "PS", 0)).isEqualTo(
        "{\"cluster\":{\"ps\":[\"dist-ps-0.ns.svc:2222\"],"
            + "\"worker\":[\"dist-worker-0.ns.svc:3333\",\"dist-worker-1.ns.svc:3333\"]},"
            + "\"task\":{\"type\":\"ps\",\"index\":0},\"environment\":\"cloud\"}");
  }

  @Test
  void customClusterDomainFollowsSvc() {
    TensorFlowFramework withDomain = new TensorFlowFramework("cluster.example");

    assertThat(tfConfig(withDomain, dist().build(), "PS", 0)).isEqualTo(
        "{\"cluster\":{\"chief\":[\"dist-chief-0.ns.svc.cluster.example:2222\"],"
            + "\"ps\":[\"dist-ps-0.ns.svc.cluster.example:2222\"],"
            + "\"worker\":[\"dist-worker-0.ns.svc.cluster.example:2222\",\"dist-worker-1.ns.svc.cluster.example:2222\"]},"
            + "\"task\":{\"type\":\"ps\",\"index\":0},\"environment\":\"cloud\"}");
  }

  @Test
  void dynamicWorkerSeesEveryParameterServerAndOnlyItself() {
    TFJob job = TestTFJobs.job("dist").namespace("ns").chief(1).workers(3).ps(2).dynamicWorkers().build();

    assertThat(tfConfig(framework, job, "Worker", 1)).isEqualTo(
        "{\"cluster\":{\"worker\":{\"1\":\"dist-worker-1.ns.svc:2222\"},"
            + "\"ps\":[\"dist-ps-0.ns.svc:2222\",\"dist-ps-1.ns.svc:2222\"]},"
            + "\"task\":{\"type\":\"worker\",\"index\":1}}");
  }

  @Test
  void parameterServerOfADynamicJobSeesOnlyItself() {
    TFJob job = TestTFJobs.job("dist").namespace("ns").workers(3).ps(2).dynamicWorkers().build();

    assertThat(tfConfig(framework, job, "PS", 1)).isEqualTo(
        "{\"cluster\":{\"worker\":{},\"ps\":[\"dist-ps-1.ns.svc:2222\"]},\"task\":{\"type\":\"ps\",\"index\":1}}");
  }

  @Test
  void otherTypesOfADynamicJobSeeNoWorkerAndNoParameterServer() {
    TFJob job = TestTFJobs.job("dist").namespace("ns").chief(1).evaluator(1).workers(3).ps(2).dynamicWorkers()
        .build();

    assertThat(tfConfig(framework, job, "Chief", 0))
        .isEqualTo("{\"cluster\":{\"worker\":{},\"ps\":[]},\"task\":{\"type\":\"chief\",\"index\":0}}");
    assertThat(tfConfig(framework, job, "Evaluator", 0))
        .isEqualTo("{\"cluster\":{\"worker\":{},\"ps\":[]},\"task\":{\"type\":\"evaluator\",\"index\":0}}");
  }

  @Test
  void dynamicWorkerWithoutParameterServersGetsAnEmptyList() {
    TFJob job = TestTFJobs.job("dist").namespace("ns").workers(2).dynamicWorkers().build();

    // upstream writes "ps":null here, which TensorFlow's ClusterSpec refuses
    assertThat(tfConfig(framework, job, "Worker", 0)).isEqualTo(
        "{\"cluster\":{\"worker\":{\"0\":\"dist-worker-0.ns.svc:2222\"},\"ps\":[]},"
            + "\"task\":{\"type\":\"worker\",\"index\":0}}");
  }

  static Stream<Arguments> distribution() {
    return Stream.of(
        Arguments.of("1 worker", TestTFJobs.job("j").workers(1), false),
        Arguments.of("1 worker + 1 PS", TestTFJobs.job("j").workers(1).ps(1), true),
        Arguments.of("0 workers + 1 PS", TestTFJobs.job("j").workers(0).ps(1), false),
        Arguments.of("Chief + 1 worker", TestTFJobs.job("j").chief(1).workers(1), true),
        Arguments.of("worker with replicas unset", TestTFJobs.job("j").workers(null), false),
        Arguments.of("worker and PS with replicas unset", TestTFJobs.job("j").workers(null).ps(null), true),
        Arguments.of("2 workers", TestTFJobs.job("j").workers(2), true),
        Arguments.of("0 workers", TestTFJobs.job("j").workers(0), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("distribution")
  void isDistributedWhenTotalReplicasAreNotOne(String name, TestTFJobs job, boolean distributed) {
    assertThat(TFConfig.isDistributed(job.build().getSpec())).isEqualTo(distributed);
  }

  @Test
  void singleProcessJobGetsNoTfConfig() {
    TFJob job = TestTFJobs.job("local").workers(1).build();
    Pod pod = TestTFJobs.podFor(job, new ReplicaId("Worker", 0));

    framework.wire(job, new ReplicaId("Worker", 0), pod);

    assertThat(pod.getSpec().getContainers().get(0).getEnv()).isNullOrEmpty();
  }

  @Test
  void onlyTheTensorflowContainerGetsItAfterItsOwnVariables() {
    TFJob job = dist().template("Worker", pod -> pod
        .editFirstContainer().addNewEnv().withName("EPOCHS").withValue("3").endEnv().endContainer()
        .addNewContainer().withName("sidecar").withImage("busybox").endContainer()).build();
    // the sidecar comes first in the pod, so the framework must look for the container by name
    Pod pod = TestTFJobs.podFor(job, new ReplicaId("Worker", 1));
    pod.getSpec().setContainers(List.of(pod.getSpec().getContainers().get(1), pod.getSpec().getContainers().get(0)));

    framework.wire(job, new ReplicaId("Worker", 1), pod);

    assertThat(pod.getSpec().getContainers().get(0).getEnv()).isNullOrEmpty();
    assertThat(pod.getSpec().getContainers().get(1).getEnv()).extracting(EnvVar::getName)
        .containsExactly("EPOCHS", "TF_CONFIG");
    assertThat(pod.getSpec().getContainers().get(1).getEnv().get(1).getValue())
        .isEqualTo(tfConfig(framework, job, "Worker", 1));
  }

  @Test
  void stringsAreEscapedAsGoEscapesThem() {
    assertThat(TFConfig.quote("a\"b\\c<d>&e\u0001")).isEqualTo("\"a\\\"b\\\\c\\u003cd\\u003e\\u0026e\\u0001\"");
  }

  /** The TF_CONFIG the framework wires into a replica's {@code tensorflow} container. */
  private static String tfConfig(TensorFlowFramework framework, TFJob job, String type, int index) {
    ReplicaId replica = new ReplicaId(type, index);
    Pod pod = TestTFJobs.podFor(job, replica);
    framework.wire(job, replica, pod);
    Container tensorflow = pod.getSpec().getContainers().stream()
        .filter(c -> TFConfig.CONTAINER.equals(c.getName())).findFirst().orElseThrow();
    List<EnvVar> tfConfig = tensorflow.getEnv().stream().filter(e -> "TF_CONFIG".equals(e.getName())).toList();
    assertThat(tfConfig).hasSize(1);
    return tfConfig.get(0).getValue();
  }

  @Test
  void withOneServicePerJobEveryAddressIsThePodUnderTheJobsService() {
    TFJob job = dist().runPolicy(p -> p.setServiceMode("PerJob")).build();

    assertThat(tfConfig(framework, job, "Worker", 1)).isEqualTo(
        "{\"cluster\":{\"chief\":[\"dist-chief-0.dist.ns.svc:2222\"],\"ps\":[\"dist-ps-0.dist.ns.svc:2222\"],"
            + "\"worker\":[\"dist-worker-0.dist.ns.svc:2222\",\"dist-worker-1.dist.ns.svc:2222\"]},"
            + "\"task\":{\"type\":\"worker\",\"index\":1},\"environment\":\"cloud\"}");
  }
}
