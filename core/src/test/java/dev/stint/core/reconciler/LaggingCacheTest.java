package dev.stint.core.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.decision.EngineSettings;
import dev.stint.core.kube.ActionApplier;
import dev.stint.core.kube.EventRecorder;
import dev.stint.core.metrics.JobLifecycleMetrics;
import dev.stint.core.metrics.StintMetrics;
import dev.stint.core.testing.TestCrds;
import dev.stint.core.testing.TestFramework;
import dev.stint.core.testing.TestJobs;
import dev.stint.core.testing.TestPods;
import dev.stint.spi.api.JobStatus;
import dev.stint.testdoubles.MockServerShutdown;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A reconcile handed the job as a lagging cache holds it, older than the engine's last status write (the API server
 * busy, its watch seconds behind), decides on that write: the transition is not decided, written nor announced again.
 * The informer is bypassed: the test hands {@code reconcile} the job at each version, as JOSDK would.
 */
@EnableKubernetesMockClient(crud = true)
class LaggingCacheTest {
  KubernetesClient client;
  KubernetesMockServer server;
  private EventRecorder events;
  private TrainingJobReconciler<TestJob> reconciler;

  @BeforeEach
  void setUp() {
    client.apiextensions().v1().customResourceDefinitions().resource(TestCrds.of(TestJob.class)).create();
    Clock clock = Clock.systemUTC();
    events = new EventRecorder(client, clock, "stint", new StintMetrics().registry());
    reconciler = new TrainingJobReconciler<>(new TestFramework(), clock, new ActionApplier(client), events, false,
        EngineSettings.defaults(), new JobLifecycleMetrics(new StintMetrics(), clock));
  }

  @AfterEach
  void tearDown() {
    events.close();
    MockServerShutdown.quietly(server);
  }

  @Test
  void aJobOlderThanTheLastStatusWriteIsDecidedOnThatWrite() {
    TestJob created = client.resource(TestJobs.job("lag").workers(2).build()).create();
    reconcile(created, p -> p.running());
    TestJob running = onServer("lag");
    assertThat(running.getStatus().isTrue("Running")).isTrue();

    reconcile(running, TestPods::succeeded);
    TestJob succeeded = onServer("lag");
    assertThat(succeeded.getStatus().isTrue("Succeeded")).isTrue();

    // the watch delivers the two earlier versions late, each after the Succeeded write
    reconcile(running, TestPods::succeeded);
    reconcile(created, TestPods::succeeded);

    assertThat(onServer("lag").getMetadata().getResourceVersion()).as("no second status write")
        .isEqualTo(succeeded.getMetadata().getResourceVersion());
    assertThat(onServer("lag").getStatus()).isEqualTo(succeeded.getStatus());
    assertThat(eventsOf("TestJobSucceeded")).as("Succeeded announced once").isEqualTo(1);
    assertThat(eventsOf("TestJobRunning")).isEqualTo(1);
  }

  @Test
  void theLateEventsOfOurOwnWritesWakeNoReconcileAnotherClientsWriteDoes() {
    TestJob created = client.resource(TestJobs.job("late").workers(2).build()).create();
    reconcile(created, p -> p.running());
    TestJob running = onServer("late");
    reconcile(running, TestPods::succeeded);
    TestJob succeeded = onServer("late");

    assertThat(reconciler.worthReconciling(running, created)).as("an earlier write of ours, seen late").isFalse();
    assertThat(reconciler.worthReconciling(succeeded, running)).as("our last write").isFalse();

    TestJob clobbered = onServer("late");
    clobbered.setStatus(new JobStatus());
    TestJob foreign = client.resource(clobbered).updateStatus();
    assertThat(reconciler.worthReconciling(foreign, succeeded)).as("another client's write, after ours").isTrue();
  }

  /**
   * A failed worker is replaced and its restart counted; the next pass, on a cache that still shows the failed pod at
   * the version it was deleted at (the watch seconds behind), counts it again no more: the deletion in flight makes
   * the pod terminating for the decision. Before, the second pass wrote {@code restarts: 2} for one failure.
   */
  @Test
  void aFailedPodWhoseDeletionIsInFlightIsCountedOnce() {
    TestJob created = client.resource(TestJobs.job("once").workers(2).restartPolicy("OnFailure")
        .runPolicy(p -> p.setBackoffLimit(3)).build()).create();
    reconcile(created, p -> p.running());
    TestJob running = onServer("once");
    List<Pod> failedOne = List.of(versioned(owned(running, TestPods.of(running, "Worker", 0).running()), "w0", "7"),
        versioned(owned(running, TestPods.of(running, "Worker", 1).failed(1)), "w1", "8"));

    reconciler.reconcile(running, new FixedChildrenContext<>(running, failedOne));
    assertThat(onServer("once").getStatus().getReplicaStatuses().get("Worker").restarts()).isEqualTo(1);

    reconciler.reconcile(onServer("once"), new FixedChildrenContext<>(onServer("once"), failedOne)); // the lag
    assertThat(onServer("once").getStatus().getReplicaStatuses().get("Worker").restarts()).as("counted once")
        .isEqualTo(1);
  }

  private static Pod versioned(Pod pod, String uid, String resourceVersion) {
    pod.getMetadata().setUid(uid);
    pod.getMetadata().setResourceVersion(resourceVersion);
    return pod;
  }

  /** One reconcile of {@code cached}, its two workers' pods in the state {@code pod} makes. */
  private void reconcile(TestJob cached, Function<TestPods, Pod> pod) {
    List<Pod> pods = List.of(owned(cached, pod.apply(TestPods.of(cached, "Worker", 0))),
        owned(cached, pod.apply(TestPods.of(cached, "Worker", 1))));
    reconciler.reconcile(cached, new FixedChildrenContext<>(cached, pods));
  }

  private static Pod owned(TestJob job, Pod pod) {
    pod.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder().withApiVersion(job.getApiVersion())
        .withKind(job.getKind()).withName(job.getMetadata().getName()).withUid(job.getMetadata().getUid())
        .withController(true).build()));
    return pod;
  }

  private TestJob onServer(String name) {
    return client.resources(TestJob.class).inNamespace("default").withName(name).get();
  }

  private long eventsOf(String reason) {
    assertThat(events.awaitSent(Duration.ofSeconds(30))).as("events sent").isTrue();
    return client.v1().events().inNamespace("default").list().getItems().stream().map(Event::getReason)
        .filter(reason::equals).count();
  }
}
