package dev.stint.core.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stint.core.model.Action;
import dev.stint.core.testing.RefusalStatus;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.dsl.ReturnOrWebsocketable;
import io.fabric8.mockwebserver.dsl.TimesOnceableOrHttpHeaderable;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class ActionApplierTest {
  static final Pod JOB = new PodBuilder().withNewMetadata().withName("j").withNamespace("ns").withUid("u")
      .endMetadata().build();

  static Pod pod(String name) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").endMetadata().build();
  }

  static <T extends io.fabric8.kubernetes.api.model.HasMetadata> T owned(T child, String kind, String name,
                                                                         String uid) {
    child.getMetadata().setOwnerReferences(List.of(new io.fabric8.kubernetes.api.model.OwnerReferenceBuilder()
        .withApiVersion("kubeflow.org/v1").withKind(kind).withName(name).withUid(uid).withController(true)
        .build()));
    return child;
  }

  static KubernetesClientException catchKce(Runnable call) {
    try {
      call.run();
    } catch (KubernetesClientException e) {
      return e;
    }
    throw new AssertionError("no exception");
  }

  static Service service(String name) {
    return new ServiceBuilder().withNewMetadata().withName(name).withNamespace("ns").endMetadata().build();
  }

  /** The requests the server received after the first {@code skip}, as "METHOD path", leaving out the ignored path. */
  static List<String> requestsAfter(KubernetesMockServer server, int skip, String ignored) throws InterruptedException {
    for (int i = 0; i < skip; i++) {
      server.takeRequest(1, TimeUnit.SECONDS);
    }
    List<String> out = new ArrayList<>();
    RecordedRequest r;
    while ((r = server.takeRequest(200, TimeUnit.MILLISECONDS)) != null) {
      String path = r.getPath().replaceAll("\\?.*", "");
      if (!path.endsWith(ignored)) {
        out.add(r.getMethod() + " " + path);
      }
    }
    return out;
  }

  @Test
  void splitsAPassIntoWhatComesBeforeTheStatusAndTheRemovalsAfterIt() {
    List<Action> pass = List.of(new Action.CreatePod(pod("a")), new Action.CreateService(service("a")),
        new Action.DeletePod("b", "scaled down"), new Action.DeleteService("b"), new Action.DeleteJob());
    assertThat(ActionApplier.beforeStatus(pass)).extracting(Object::toString)
        .containsExactly("CreatePod(a)", "CreateService(a)",
            "DeletePod[name=b, why=scaled down, resourceVersion=null, carrierJob=null]");
    assertThat(ActionApplier.afterStatus(pass)).extracting(Object::toString)
        .containsExactly("DeleteService[name=b]", "DeleteJob[]");
  }

  /** An applier and an event recorder on the mock server of the nested class, closed after each test. */
  abstract class OnAMockServer {
    KubernetesClient client;
    KubernetesMockServer server;
    ActionApplier applier;
    EventRecorder events;

    @BeforeEach
    void setUp() {
      applier = new ActionApplier(client);
      events = new EventRecorder(client, Clock.systemUTC(), "stint", new SimpleMeterRegistry());
    }

    @AfterEach
    void tearDown() {
      events.close();
    }

    /** What the server answers to the next pod creations, in the order the expectations are set. */
    ReturnOrWebsocketable<TimesOnceableOrHttpHeaderable<Void>> podCreations() {
      return server.expect().post().withPath("/api/v1/namespaces/ns/pods");
    }
  }

  /** One pass creating pods p0 .. p{n-1}. */
  static List<Action> createPods(int n) {
    List<Action> pass = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      pass.add(new Action.CreatePod(pod("p" + i)));
    }
    return pass;
  }

  @Nested
  @EnableKubernetesMockClient(crud = true)
  class OnACrudServer extends OnAMockServer {

    @Test
    void createsEveryChildOfABatchAndCountsAnExistingOneOfTheJobAsDone() {
      client.pods().inNamespace("ns").resource(owned(pod("p1"), "Pod", "j", "u")).create();
      applier.apply(JOB, List.of(new Action.CreatePod(pod("p0")), new Action.CreatePod(pod("p1")),
          new Action.CreatePod(pod("p2")), new Action.CreatePod(pod("p3"))), events);
      assertThat(client.pods().inNamespace("ns").list().getItems()).extracting(p -> p.getMetadata().getName())
          .containsExactlyInAnyOrder("p0", "p1", "p2", "p3");
      // one event per pod this pass created; p1 existed already
      assertThat(events.awaitSent(java.time.Duration.ofSeconds(10))).isTrue();
      assertThat(client.v1().events().inNamespace("ns").list().getItems())
          .extracting(e -> e.getReason() + " " + e.getMessage())
          .containsExactlyInAnyOrder("SuccessfulCreatePod Created pod: p0", "SuccessfulCreatePod Created pod: p2",
              "SuccessfulCreatePod Created pod: p3");
    }

    @Test
    void aCarriedPodIsCreatedAsItsJobAndDeletedWithIt() {
      Pod launcher = owned(pod("j-launcher"), "Pod", "j", "u");
      launcher.setSpec(new io.fabric8.kubernetes.api.model.PodSpecBuilder().withRestartPolicy("Never")
          .addNewContainer().withName("main").endContainer().build());
      applier.apply(JOB, List.of(new Action.CreatePod("j-launcher", () -> launcher, true)), events);
      assertThat(client.pods().inNamespace("ns").list().getItems()).as("the Job controller makes the pod").isEmpty();
      var job = client.batch().v1().jobs().inNamespace("ns").withName("j-launcher").get();
      assertThat(job.getMetadata().getOwnerReferences()).extracting(r -> r.getUid()).containsExactly("u");
      assertThat(job.getSpec().getBackoffLimit()).isZero();
      // created again (a stale cache): the job's own Job, so done
      applier.apply(JOB, List.of(new Action.CreatePod("j-launcher", () -> launcher, true)), events);

      client.pods().inNamespace("ns").resource(pod("j-launcher-x7k2p")).create();
      applier.apply(JOB, List.of(new Action.DeletePod("j-launcher-x7k2p", "job suspended", null, "j-launcher")),
          events);
      assertThat(client.batch().v1().jobs().inNamespace("ns").list().getItems()).isEmpty();
      assertThat(client.pods().inNamespace("ns").list().getItems()).as("deleted at once, not left to the GC")
          .isEmpty();
      // a stand-in (the Job's name): only the Job, which is gone already
      applier.apply(JOB, List.of(new Action.DeletePod("j-launcher", "job suspended", null, "j-launcher")), events);
    }

    @Test
    void aNameHeldByAnotherJobsChildEndsTheJobNamingTheOwner() {
      client.pods().inNamespace("ns").resource(owned(pod("p1"), "TFJob", "j", "other-uid")).create();
      assertThatThrownBy(() -> applier.apply(JOB, List.of(new Action.CreatePod(pod("p0")),
          new Action.CreatePod(pod("p1"))), events))
          .isInstanceOf(ChildRefused.class)
          .hasMessage("Pod p1 already exists and is not this job's: its controller is TFJob j (uid other-uid); "
              + "delete it or give the job another name");
    }

    @Test
    void aChildLeftByAnEarlierJobOfTheSameNameIsWaitedFor() {
      client.pods().inNamespace("ns").resource(owned(pod("p1"), "Pod", "j", "uid-of-the-deleted-job")).create();
      assertThatThrownBy(() -> applier.apply(JOB, List.of(new Action.CreatePod(pod("p1"))), events))
          .isInstanceOf(KubernetesClientException.class).isNotInstanceOf(ChildRefused.class)
          .hasMessageContaining("Pod p1 still exists, left by an earlier Pod of this name");
      assertThat(ApiRefusal.of(catchKce(() -> applier.apply(JOB, List.of(new Action.CreatePod(pod("p1"))), events)))
          .permanent()).isFalse();
    }

    @Test
    void aSupportingObjectOfTheSameNameWithoutControllerIsNotTheJobs() {
      client.configMaps().inNamespace("ns").resource(new ConfigMapBuilder().withNewMetadata().withName("j-config")
          .endMetadata().build()).create();
      assertThatThrownBy(() -> applier.apply(JOB, List.of(new Action.ApplyResource(new ConfigMapBuilder()
          .withNewMetadata().withName("j-config").withNamespace("ns").endMetadata().build(), null)), events))
          .isInstanceOf(ChildRefused.class).hasMessageContaining("ConfigMap j-config already exists")
          .hasMessageContaining("it has no controller");
    }

    /**
     * The job's object made by the controller it was taken over from (the MPI Operator's hostfile ConfigMap, labelled
     * only {@code app}): Stint's labels are added, nothing else, so the informers show it and the next pass updates it
     * (a review saw a taken-over MPIJob's hostfile never follow its workers).
     */
    @Test
    void theJobsOwnObjectMadeByAnotherControllerIsLabelledAsStintsAndOtherwiseLeft() {
      client.configMaps().inNamespace("ns").resource(owned(new ConfigMapBuilder().withNewMetadata()
          .withName("j-config").withLabels(Map.of("app", "j")).endMetadata().addToData("hostfile", "j-worker-0\n")
          .build(), "Pod", "j", "u")).create();
      applier.apply(JOB, List.of(new Action.ApplyResource(new ConfigMapBuilder().withNewMetadata().withName("j-config")
          .withNamespace("ns").withLabels(Map.of("training.kubeflow.org/job-name", "j")).endMetadata()
          .addToData("hostfile", "j-worker-0\nj-worker-1\n").build(), null)), events);

      var adopted = client.configMaps().inNamespace("ns").withName("j-config").get();
      assertThat(adopted.getMetadata().getLabels()).containsEntry("app", "j")
          .containsEntry("training.kubeflow.org/job-name", "j");
      assertThat(adopted.getData()).containsEntry("hostfile", "j-worker-0\n"); // the next pass, seeing it, updates it
    }

    @Test
    void keepsTheDecisionsOrderBetweenKinds() throws InterruptedException {
      int before = server.getRequestCount();
      applier.apply(JOB, List.of(new Action.CreatePod(pod("a")), new Action.CreatePod(pod("b")),
        new Action.CreateService(service("a")), new Action.CreateService(service("b")),
        new Action.ApplyResource(new ConfigMapBuilder().withNewMetadata().withName("c").withNamespace("ns")
            .endMetadata().build(), null)), events);
      events.awaitSent(java.time.Duration.ofSeconds(10));
      assertThat(requestsAfter(server, before, "/events")).containsExactly("POST /api/v1/namespaces/ns/pods", "POST /api/v1/namespaces/ns/pods",
        "POST /api/v1/namespaces/ns/services", "POST /api/v1/namespaces/ns/services",
        "POST /api/v1/namespaces/ns/configmaps");
    }
  }

  @Nested
  @EnableKubernetesMockClient
  class WhenOneCallFails extends OnAMockServer {

    @Test
    void creationsGoInGrowingWavesAndStopAfterAWaveWithAPermanentRefusal() throws InterruptedException {
      podCreations().andReturn(201, pod("ok-0")).once();
      podCreations().andReturn(422,
          RefusalStatus.of(422, "Invalid", "Pod \"p1\" is invalid: metadata.labels: Invalid value")).once();
      podCreations().andReturn(201, pod("ok-2")).always();
      List<Action> pass = createPods(8);
      int before = server.getRequestCount();
      // waves of 1, 2, 4, 1: the second wave is refused, so the third and fourth never go out
      assertThatThrownBy(() -> applier.apply(JOB, pass, events))
          .isInstanceOf(ChildRefused.class).hasMessage("Pod \"p1\" is invalid: metadata.labels: Invalid value");
      events.awaitSent(java.time.Duration.ofSeconds(10));
      assertThat(requestsAfter(server, before, "/events")).hasSize(3).allMatch(r -> r.startsWith("POST"));
    }

    @Test
    void aJobWhosePodsWereAcceptedSkipsTheSlowStart() throws InterruptedException {
      podCreations().andReturn(201, pod("ok-0")).once();
      podCreations().andReturn(422, RefusalStatus.of(422, "Invalid", "invalid")).always();
      List<Action> pass = createPods(8);
      int before = server.getRequestCount();
      // one full wave: all eight go out at once, where a new job's slow start would have stopped after two waves
      assertThatThrownBy(() -> applier.apply(JOB, pass, events, true)).isInstanceOf(ChildRefused.class);
      events.awaitSent(java.time.Duration.ofSeconds(10));
      assertThat(requestsAfter(server, before, "/events")).hasSize(8);
    }

    @Test
    void theServicesAfterANewJobsAcceptedPodsGoOutInOneWave() throws InterruptedException {
      podCreations().andReturn(201, pod("ok")).always();
      server.expect().post().withPath("/api/v1/namespaces/ns/services")
          .andReturn(422, RefusalStatus.of(422, "Invalid", "Service \"s0\" is invalid: spec.ports")).always();
      List<Action> pass = new ArrayList<>(createPods(4));
      for (int i = 0; i < 4; i++) {
        pass.add(new Action.CreateService(service("s" + i)));
      }
      int before = server.getRequestCount();
      // the pods' slow start (waves of 1, 2, 1) accepted them: the four services go at once, all refused
      assertThatThrownBy(() -> applier.apply(JOB, pass, events)).isInstanceOf(ChildRefused.class);
      events.awaitSent(java.time.Duration.ofSeconds(10));
      assertThat(requestsAfter(server, before, "/events")).containsExactly(
          "POST /api/v1/namespaces/ns/pods", "POST /api/v1/namespaces/ns/pods", "POST /api/v1/namespaces/ns/pods",
          "POST /api/v1/namespaces/ns/pods", "POST /api/v1/namespaces/ns/services",
          "POST /api/v1/namespaces/ns/services", "POST /api/v1/namespaces/ns/services",
          "POST /api/v1/namespaces/ns/services");
    }

    @Test
    void aRefusalThatHealsIsThrownAsItCameAfterTheRestOfItsWave() throws InterruptedException {
      for (String name : List.of("ok-0", "ok-1", "ok-2")) {
        podCreations().andReturn(201, pod(name)).once();
      }
      podCreations().andReturn(403,
          RefusalStatus.of(403, "Forbidden", "pods \"p3\" is forbidden: exceeded quota: q, requested: pods=1")).once();
      List<Action> pass = createPods(4);
      int before = server.getRequestCount();
      assertThatThrownBy(() -> applier.apply(JOB, pass, events))
          .isInstanceOf(KubernetesClientException.class).hasMessageContaining("exceeded quota");
      events.awaitSent(java.time.Duration.ofSeconds(10));
      assertThat(requestsAfter(server, before, "/events")).hasSize(4).allMatch(r -> r.startsWith("POST"));
    }
  }
}
