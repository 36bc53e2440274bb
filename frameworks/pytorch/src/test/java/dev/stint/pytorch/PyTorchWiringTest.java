package dev.stint.pytorch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.spi.ReplicaId;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code wire()}: the environment and init container of upstream's reference §4.5, byte for byte. */
class PyTorchWiringTest {

  private static final String WAIT_FOR_TEST_JOB_MASTER = "err=1;for i in $(seq 100); do if nslookup "
      + "test-job-master-0; then err=0 && break; fi;echo waiting for master; sleep 2; done; exit $err";

  private final PyTorchFramework framework = new PyTorchFramework();

  /** Upstream's worked example: a Master and two Workers; the Master is rank 0, Worker i rank i + 1. */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"Master, 0, 0", "Worker, 1, 2"})
  void workedExampleEnvironment(String type, int index, int rank) {
    PyTorchJob job = TestPyTorchJobs.job("test-job").master(1).workers(2).build();

    assertThat(env(wired(job, type, index), "pytorch")).containsExactly(
        "PYTHONUNBUFFERED=1", "MASTER_PORT=23456", "PET_MASTER_PORT=23456", "MASTER_ADDR=test-job-master-0",
        "PET_MASTER_ADDR=test-job-master-0", "WORLD_SIZE=3", "RANK=" + rank, "PET_NODE_RANK=" + rank,
        "PET_NPROC_PER_NODE=auto", "PET_NNODES=3");
  }

  @Test
  void workedExampleWorkerWaitsForTheMasterInAnInitContainerAndTheMasterHasNone() {
    PyTorchJob job = TestPyTorchJobs.job("test-job").master(1).workers(2).build();

    assertThat(wired(job, "Master", 0).getSpec().getInitContainers()).isNullOrEmpty();
    Pod pod = wired(job, "Worker", 1);
    assertThat(pod.getSpec().getInitContainers()).hasSize(1);
    Container init = pod.getSpec().getInitContainers().get(0);
    assertThat(init.getName()).isEqualTo("init-pytorch");
    assertThat(init.getImage()).isEqualTo("alpine:3.10");
    assertThat(init.getImagePullPolicy()).isEqualTo("IfNotPresent");
    assertThat(init.getResources().getLimits())
        .isEqualTo(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("20Mi")));
    assertThat(init.getResources().getRequests())
        .isEqualTo(Map.of("cpu", new Quantity("50m"), "memory", new Quantity("10Mi")));
    assertThat(init.getCommand()).containsExactly("sh", "-c", WAIT_FOR_TEST_JOB_MASTER);
    assertThat(init.getEnv()).isNullOrEmpty();
  }

  @Test
  void integerNprocPerNodeMultipliesWorldSizeButNotRank() {
    PyTorchJob job = TestPyTorchJobs.job("test-job").master(1).workers(2).nprocPerNode("4").build();

    assertThat(env(wired(job, "Worker", 1), "pytorch"))
        .contains("WORLD_SIZE=12", "RANK=2", "PET_NODE_RANK=2", "PET_NPROC_PER_NODE=4", "PET_NNODES=3");
  }

  @ParameterizedTest(name = "nprocPerNode {0}")
  @ValueSource(strings = {"auto", "cpu", "gpu"})
  void symbolicNprocPerNodeCountsAsOneProcess(String nprocPerNode) {
    PyTorchJob job = TestPyTorchJobs.job("test-job").master(1).workers(2).nprocPerNode(nprocPerNode).build();

    assertThat(env(wired(job, "Worker", 0), "pytorch"))
        .contains("WORLD_SIZE=3", "PET_NPROC_PER_NODE=" + nprocPerNode);
  }

  @Test
  void environmentFollowsTheUsersOwnOnEveryContainer() {
    PyTorchJob job = TestPyTorchJobs.job("test-job").master(1).workers(1)
        .template("Worker", pod -> pod
            .editFirstContainer().addNewEnv().withName("LOGLEVEL").withValue("DEBUG").endEnv().endContainer()
            .addNewContainer().withName("sidecar").withImage("busybox").endContainer())
        .build();

    Pod pod = wired(job, "Worker", 0);

    assertThat(env(pod, "pytorch")).startsWith("LOGLEVEL=DEBUG", "PYTHONUNBUFFERED=1").hasSize(11);
    assertThat(env(pod, "sidecar")).startsWith("PYTHONUNBUFFERED=1").contains("RANK=1").hasSize(10);
  }

  @Test
  void masterPortComesFromTheMastersTemplate() {
    PyTorchJob job = TestPyTorchJobs.job("test-job").master(1).workers(1).port("Master", 29500).build();

    assertThat(env(wired(job, "Worker", 0), "pytorch")).contains("MASTER_PORT=29500", "PET_MASTER_PORT=29500");
  }

  @Test
  void podWithoutTheDefaultPortStillGetsTheDefault() {
    PyTorchJob job = TestPyTorchJobs.job("test-job").master(1).workers(1).build();
    ReplicaId worker = new ReplicaId("Worker", 0);
    Pod bare = new PodBuilder().withNewMetadata().withName("test-job-worker-0").endMetadata()
        .withSpec(new PodSpecBuilder(job.getSpec().getPytorchReplicaSpecs().get("Worker").getTemplate().getSpec())
            .build())
        .build();

    framework.wire(job, worker, bare);

    assertThat(env(bare, "pytorch")).contains("MASTER_PORT=23456");
  }

  @Test
  void workerOnlyJobHasNoMasterVariablesAndNoInitContainer() {
    PyTorchJob job = TestPyTorchJobs.job("test-job").workers(3).build();

    Pod pod = wired(job, "Worker", 2);

    assertThat(env(pod, "pytorch")).containsExactly("PYTHONUNBUFFERED=1", "PET_NPROC_PER_NODE=auto", "PET_NNODES=3");
    assertThat(pod.getSpec().getInitContainers()).isNullOrEmpty();
  }

  @Test
  void elasticJobGetsRendezvousSettings() {
    PyTorchJob job = TestPyTorchJobs.job("elastic-job").workers(2).elastic(e -> {
      e.setMinReplicas(1);
      e.setMaxReplicas(4);
    }).build();

    assertThat(env(wired(job, "Worker", 1), "pytorch")).containsExactly(
        "PYTHONUNBUFFERED=1", "PET_NPROC_PER_NODE=auto", "PET_RDZV_ENDPOINT=elastic-job-worker-0:23456",
        "PET_RDZV_BACKEND=c10d", "PET_NNODES=1:4");
  }

  @Test
  void elasticJobWithEverySettingInUpstreamOrder() {
    PyTorchJob job = TestPyTorchJobs.job("elastic-job").workers(2).port("Worker", 1234).elastic(e -> {
      e.setMinReplicas(2);
      e.setMaxReplicas(8);
      e.setRdzvBackend("etcd-v2");
      e.setRdzvHost("etcd.example");
      e.setRdzvPort(2379);
      e.setRdzvId("run-7");
      e.setRdzvConf(List.of(new RdzvConf("timeout", "900"), new RdzvConf("read_timeout", "60")));
      e.setStandalone(true);
      e.setNProcPerNode(2);
      e.setMaxRestarts(3);
    }).build();

    // the deprecated elasticPolicy.nProcPerNode suppresses the "auto" default of spec.nprocPerNode
    assertThat(env(wired(job, "Worker", 0), "pytorch")).containsExactly(
        "PYTHONUNBUFFERED=1", "PET_RDZV_ENDPOINT=etcd.example:2379", "PET_RDZV_BACKEND=etcd-v2", "PET_NNODES=2:8",
        "PET_MAX_RESTARTS=3", "PET_NPROC_PER_NODE=2", "PET_RDZV_ID=run-7", "PET_RDZV_CONF=timeout=900,read_timeout=60",
        "PET_STANDALONE=");
  }

  @Test
  void elasticEndpointUsesTheWorkersPort() {
    PyTorchJob job = TestPyTorchJobs.job("elastic-job").workers(2).port("Worker", 1234).elastic(e -> { }).build();

    assertThat(env(wired(job, "Worker", 0), "pytorch")).contains("PET_RDZV_ENDPOINT=elastic-job-worker-0:1234");
  }

  static Stream<Arguments> elasticBounds() {
    return Stream.of(
        Arguments.of("neither set: the Worker replicas", null, null, "PET_NNODES=3:3"),
        Arguments.of("only min: max copies it", 2, null, "PET_NNODES=2:2"),
        Arguments.of("only max: min copies it", null, 5, "PET_NNODES=5:5"),
        Arguments.of("both set", 1, 6, "PET_NNODES=1:6"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("elasticBounds")
  void elasticBoundsAreDefaultedInMemory(String name, Integer min, Integer max, String expected) {
    PyTorchJob job = TestPyTorchJobs.job("elastic-job").workers(3).elastic(e -> {
      e.setMinReplicas(min);
      e.setMaxReplicas(max);
    }).build();

    assertThat(env(wired(job, "Worker", 0), "pytorch")).contains(expected);
    assertThat(job.getSpec().getElasticPolicy().getMinReplicas()).isEqualTo(min);
    assertThat(job.getSpec().getNprocPerNode()).isNull();
  }

  @Test
  void elasticJobWithMasterGetsBothMasterAndRendezvousVariables() {
    PyTorchJob job = TestPyTorchJobs.job("test-job").master(1).workers(2).elastic(e -> { }).build();

    assertThat(env(wired(job, "Worker", 0), "pytorch")).containsExactly(
        "PYTHONUNBUFFERED=1", "MASTER_PORT=23456", "PET_MASTER_PORT=23456", "MASTER_ADDR=test-job-master-0",
        "PET_MASTER_ADDR=test-job-master-0", "WORLD_SIZE=3", "RANK=1", "PET_NODE_RANK=1", "PET_NPROC_PER_NODE=auto",
        "PET_RDZV_ENDPOINT=test-job-worker-0:23456", "PET_RDZV_BACKEND=c10d", "PET_NNODES=2:2");
  }

  @Test
  void initContainerImageAndTriesAreConfigurable() {
    PyTorchFramework custom = new PyTorchFramework("registry.local/busybox:1.36", 5);
    PyTorchJob job = TestPyTorchJobs.job("test-job").master(1).workers(1)
        .template("Worker", pod -> pod.addNewInitContainer().withName("fetch-data").withImage("busybox")
            .endInitContainer())
        .build();
    ReplicaId worker = new ReplicaId("Worker", 0);
    Pod pod = TestPyTorchJobs.podFor(job, worker);

    custom.wire(job, worker, pod);

    assertThat(pod.getSpec().getInitContainers()).extracting(Container::getName)
        .containsExactly("fetch-data", "init-pytorch");
    Container init = pod.getSpec().getInitContainers().get(1);
    assertThat(init.getImage()).isEqualTo("registry.local/busybox:1.36");
    assertThat(init.getCommand().get(2)).startsWith("err=1;for i in $(seq 5); do if nslookup test-job-master-0;");
  }

  @Test
  void wiringLeavesTheJobUntouched() {
    PyTorchJob job = TestPyTorchJobs.job("test-job").master(1).workers(2).build();
    String before = job.getSpec().getPytorchReplicaSpecs().get("Worker").getTemplate().toString();

    wired(job, "Worker", 0);

    assertThat(job.getSpec().getPytorchReplicaSpecs().get("Worker").getTemplate().toString()).isEqualTo(before);
  }

  private Pod wired(PyTorchJob job, String type, int index) {
    ReplicaId replica = new ReplicaId(type, index);
    Pod pod = TestPyTorchJobs.podFor(job, replica);
    framework.wire(job, replica, pod);
    return pod;
  }

  private static List<String> env(Pod pod, String container) {
    return pod.getSpec().getContainers().stream().filter(c -> c.getName().equals(container)).findFirst()
        .orElseThrow().getEnv().stream().map(PyTorchWiringTest::format).toList();
  }

  private static String format(EnvVar env) {
    return env.getName() + "=" + env.getValue();
  }

  @Test
  void withOneServicePerJobEveryAddressIsThePodUnderTheJobsService() {
    PyTorchJob job = TestPyTorchJobs.job("test-job").master(1).workers(2).build();
    job.getSpec().setRunPolicy(new dev.stint.spi.api.RunPolicy());
    job.getSpec().getRunPolicy().setServiceMode("PerJob");

    assertThat(env(wired(job, "Worker", 0), "pytorch")).contains("MASTER_ADDR=test-job-master-0.test-job",
        "PET_MASTER_ADDR=test-job-master-0.test-job");
    assertThat(wired(job, "Worker", 0).getSpec().getInitContainers().get(0).getCommand().get(2))
        .contains("nslookup test-job-master-0.test-job;");

    PyTorchJob elastic = TestPyTorchJobs.job("elastic-job").workers(2).elastic(e -> e.setMaxReplicas(4)).build();
    elastic.getSpec().setRunPolicy(new dev.stint.spi.api.RunPolicy());
    elastic.getSpec().getRunPolicy().setServiceMode("PerJob");
    assertThat(env(wired(elastic, "Worker", 1), "pytorch"))
        .contains("PET_RDZV_ENDPOINT=elastic-job-worker-0.elastic-job:23456");
  }
}
