package dev.stint.core.decision;

import static dev.stint.core.decision.JobDeciderTest.actions;
import static dev.stint.core.decision.JobDeciderTest.decide;
import static dev.stint.core.decision.JobDeciderTest.runningStatus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.model.Action;
import dev.stint.core.testing.TestJobs;
import dev.stint.core.testing.TestPods;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code runPolicy.serviceMode: PerJob}: one headless Service for the job, each pod reached as {@code <pod>.<job>}. */
class JobServiceTest {

  static TestJobs perJob(String name) {
    return TestJobs.job(name).leader(1).workers(2).runPolicy(p -> p.setServiceMode("PerJob"));
  }

  static Service service(String name) {
    Service s = new Service();
    s.setMetadata(new ObjectMeta());
    s.getMetadata().setName(name);
    return s;
  }

  @Test
  void aNewJobGetsItsPodsUnderOneServiceOfItsName() {
    TestJob job = perJob("llm").build();

    Decision d = decide(job, List.of(), List.of());

    List<Pod> pods = actions(d, Action.CreatePod.class).stream().map(Action.CreatePod::pod).toList();
    assertThat(pods).extracting(p -> p.getSpec().getHostname() + "." + p.getSpec().getSubdomain())
        .containsExactly("llm-leader-0.llm", "llm-worker-0.llm", "llm-worker-1.llm");
    List<Service> services = actions(d, Action.CreateService.class).stream().map(Action.CreateService::service)
        .toList();
    assertThat(services).singleElement().satisfies(s -> {
      assertThat(s.getMetadata().getName()).isEqualTo("llm");
      assertThat(s.getSpec().getClusterIP()).isEqualTo("None");
      assertThat(s.getSpec().getPublishNotReadyAddresses()).isTrue();
      assertThat(s.getSpec().getSelector()).isEqualTo(Map.of("training.kubeflow.org/operator-name",
          "testjob-controller", "training.kubeflow.org/job-name", "llm"));
      assertThat(s.getMetadata().getOwnerReferences()).singleElement()
          .satisfies(o -> assertThat(o.getController()).isTrue());
    });
  }

  @Test
  void aPodOnTheNodesNetworkResolvesThroughTheClusterDnsUnlessItsTemplateSaysOtherwise() {
    TestJob job = perJob("hn").edit(j -> {
      j.getSpec().getTestReplicaSpecs().values().forEach(r -> r.getTemplate().getSpec().setHostNetwork(true));
      j.getSpec().getTestReplicaSpecs().get("Leader").getTemplate().getSpec().setDnsPolicy("Default");
    }).build();

    List<Pod> pods = actions(decide(job, List.of(), List.of()), Action.CreatePod.class).stream()
        .map(Action.CreatePod::pod).toList();

    assertThat(pods).extracting(p -> p.getMetadata().getName() + " " + p.getSpec().getDnsPolicy())
        .containsExactly("hn-leader-0 Default", "hn-worker-0 ClusterFirstWithHostNet",
            "hn-worker-1 ClusterFirstWithHostNet");
  }

  @Test
  void theServiceIsMadeOnceAndAgainWhenDeleted() {
    TestJob job = perJob("llm").status(runningStatus()).build();
    List<Pod> pods = List.of(TestPods.of(job, "Leader", 0).running(), TestPods.of(job, "Worker", 0).running(),
        TestPods.of(job, "Worker", 1).running());

    assertThat(decide(job, pods, List.of(service("llm"))).actions()).isEmpty();
    assertThat(decide(job, pods, List.of()).actions()).singleElement().isInstanceOf(Action.CreateService.class);
  }

  @Test
  void aFinishedJobsServiceGoesWithItsLastPod() {
    TestJob job = perJob("llm").status(runningStatus()).build();
    job.getStatus().getConditions().add(new dev.stint.spi.api.JobCondition("Succeeded", "True", "TestJobSucceeded",
        "done", "2026-11-29T11:00:00Z"));
    List<Pod> finished = List.of(TestPods.of(job, "Leader", 0).succeeded());

    assertThat(actions(decide(job, finished, List.of(service("llm"))), Action.DeleteService.class))
        .as("the succeeded leader stays, reachable by its name").isEmpty();
    job.getSpec().getRunPolicy().setCleanPodPolicy("All");
    assertThat(actions(decide(job, finished, List.of(service("llm"))), Action.DeleteService.class))
        .extracting(Action.DeleteService::name).containsExactly("llm");
  }

  @Test
  void aJobNameThatCannotNameAServiceIsRefusedNamingTheField() {
    TestJob job = perJob("7b.llm").build();

    Decision d = decide(job, List.of(), List.of());

    assertThat(d.actions()).noneMatch(a -> a instanceof Action.CreatePod);
    assertThat(d.status().getConditions()).filteredOn(c -> "Failed".equals(c.getType())).singleElement()
        .satisfies(c -> assertThat(c.getMessage()).contains("spec.runPolicy.serviceMode: PerJob names the job's "
            + "Service").contains("not 7b.llm"));
  }
}
