package dev.stint.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.core.StintOperator;
import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.testdoubles.FakeJobController;
import dev.stint.testdoubles.FakeKubelet;
import dev.stint.testdoubles.MockServerShutdown;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * A framework run end to end by Stint's engine on the fabric8 CRUD mock server (a fresh one per test), with a
 * {@link FakeKubelet} to move pod phases: extend it with the framework, create jobs with {@link #client}, and assert
 * on pods, services and status. The kind's CRD is the one this build generated, so its schema applies.
 *
 * @param <J> the kind's custom resource class
 */
@EnableKubernetesMockClient(crud = true)
public abstract class FrameworkOnMockServerTest<J extends TrainingJob<?>> {
  /** The namespace every job and child of these tests lives in. */
  protected static final String NAMESPACE = "default";

  /** Set by the mock server extension. */
  protected KubernetesClient client;
  /** Set by the mock server extension. */
  protected KubernetesMockServer server;
  protected StintOperator operator;
  protected FakeKubelet kubelet;
  /** Makes the pods of batch Jobs, for kinds that run replicas in them (MPIJob's launcher). */
  protected FakeJobController jobController;
  private Class<J> jobType;

  /** A new instance of the framework under test. */
  protected abstract TrainingFramework<J> framework();

  /** Waits sized for a loaded 2-core machine: a wait only ends early when its condition holds. */
  @BeforeAll
  static void patientOnALoadedMachine() {
    Awaitility.setDefaultTimeout(Duration.ofSeconds(60));
  }

  @BeforeEach
  void startTheOperator() {
    TrainingFramework<J> framework = framework();
    jobType = framework.jobType();
    client.apiextensions().v1().customResourceDefinitions()
        .resource(GeneratedCrd.load(HasMetadata.getFullResourceName(jobType) + "-v1.yml").crd()).create();
    kubelet = new FakeKubelet(client, NAMESPACE);
    jobController = new FakeJobController(client, NAMESPACE).start();
    operator = StintOperator.builder(client, FrameworkRegistry.of(framework))
        .serverSideApply(false).closeClientOnStop(false).stopOnInformerError(false).kindChecks(false).build();
    operator.start();
  }

  @AfterEach
  void stopTheOperator() {
    operator.stop();
    jobController.close();
    MockServerShutdown.quietly(server);
  }

  /** The job's status, empty while it has none. */
  protected JobStatus status(String job) {
    J found = client.resources(jobType).inNamespace(NAMESPACE).withName(job).get();
    return found == null || found.getStatus() == null ? new JobStatus() : found.getStatus();
  }

  /** The job's conditions as {@code Type=Status/Reason: message}, in order. */
  protected List<String> conditions(String job) {
    JobStatus s = status(job);
    return s.getConditions() == null ? List.of() : s.getConditions().stream()
        .map(c -> c.getType() + "=" + c.getStatus() + "/" + c.getReason() + ": " + c.getMessage()).toList();
  }

  /** The job's pods, found by the engine's {@code training.kubeflow.org/job-name} label. */
  protected List<Pod> pods(String job) {
    return client.pods().inNamespace(NAMESPACE).withLabel("training.kubeflow.org/job-name", job).list().getItems();
  }

  /**
   * The names of the job's pods, sorted; a pod a batch Job runs is named by its Job ({@code <job>-launcher}), the
   * replica's name, not by the Job controller's random suffix.
   */
  protected List<String> podNames(String job) {
    return pods(job).stream().map(FrameworkOnMockServerTest::replicaName).sorted().toList();
  }

  private static String replicaName(Pod pod) {
    return pod.getMetadata().getOwnerReferences() == null ? pod.getMetadata().getName()
        : pod.getMetadata().getOwnerReferences().stream().filter(r -> "Job".equals(r.getKind()))
            .map(r -> r.getName()).findFirst().orElse(pod.getMetadata().getName());
  }

  /**
   * Suspends or resumes a job as {@code kubectl patch --type merge} does: with no resource version, so the
   * operator's status writes cannot make it conflict.
   */
  protected void suspend(String job, boolean suspend) {
    client.resources(jobType).inNamespace(NAMESPACE).withName(job)
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"runPolicy\":{\"suspend\":" + suspend + "}}}");
  }

  /** A pod by name, or the live pod of the batch Job of that name; null when neither is there. */
  protected Pod pod(String name) {
    try {
      return kubelet.pod(name);
    } catch (IllegalStateException none) {
      return null;
    }
  }

  /** The services of the namespace. */
  protected List<Service> services() {
    return client.services().inNamespace(NAMESPACE).list().getItems();
  }

  /**
   * Asserts that a pod's service is headless (a stable DNS name for the pod, no virtual IP) and has this one port.
   *
   * @param port the port as {@code name:number}, {@code pytorchjob-port:23456}
   */
  protected void assertHeadlessWithOnePort(String pod, String port) {
    Service service = client.services().inNamespace(NAMESPACE).withName(pod).get();
    assertThat(service.getSpec().getClusterIP()).isEqualTo("None");
    assertThat(service.getSpec().getPorts()).singleElement()
        .satisfies(p -> assertThat(p.getName() + ":" + p.getPort()).isEqualTo(port));
  }

  /**
   * Creates an invalid job and a valid one: the invalid one fails for its validation, with a message that names the
   * field, and gets no pod; the valid one gets its pods all the same.
   *
   * @param reason the kind's reason for a job that fails validation, {@code PyTorchJobFailedValidation}
   * @param field what the message must contain, the field and what is wrong with it
   * @param validPods how many pods the valid job gets
   */
  protected void assertInvalidJobFailsWhileAnotherRuns(J invalid, J valid, String reason, String field,
      int validPods) {
    client.resource(invalid).create();
    client.resource(valid).create();
    String name = invalid.getMetadata().getName();
    await().untilAsserted(() -> assertThat(status(name).isTrue("Failed")).isTrue());
    assertThat(status(name).condition("Failed").orElseThrow().getReason()).isEqualTo(reason);
    assertThat(status(name).condition("Failed").orElseThrow().getMessage()).contains(field);
    await().untilAsserted(() -> assertThat(pods(valid.getMetadata().getName())).hasSize(validPods));
    assertThat(pods(name)).isEmpty();
  }

  /** The first container's environment as {@code NAME=value}. */
  protected static List<String> env(Pod pod) {
    Container c = pod.getSpec().getContainers().get(0);
    return c.getEnv().stream().map(e -> e.getName() + "=" + e.getValue()).toList();
  }
}
