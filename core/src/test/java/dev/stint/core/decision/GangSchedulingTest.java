package dev.stint.core.decision;

import static dev.stint.core.decision.JobDeciderTest.FRAMEWORK;
import static dev.stint.core.decision.JobDeciderTest.NOW;
import static dev.stint.core.decision.JobDeciderTest.actions;
import static dev.stint.core.decision.JobDeciderTest.runningStatus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.model.Action;
import dev.stint.core.testing.TestJobs;
import dev.stint.core.testing.TestPods;
import dev.stint.spi.api.SchedulingPolicy;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** PodGroups and pod decoration for Volcano and scheduler-plugins, and the Volcano admission gate. */
class GangSchedulingTest {
  static final EngineSettings VOLCANO = new EngineSettings("volcano");
  static final EngineSettings PLUGINS = new EngineSettings("scheduler-plugins-scheduler");

  static Decision decide(TestJob job, EngineSettings settings, List<Pod> pods, List<HasMetadata> supporting) {
    return JobDecider.decide(new JobContext<>(job, FRAMEWORK, NOW, settings),
        new Observed(pods, JobDeciderTest.servicesFor(pods), supporting));
  }

  static GenericKubernetesResource podGroup(Decision d) {
    return (GenericKubernetesResource) actions(d, Action.ApplyResource.class).stream().map(Action.ApplyResource::resource)
        .filter(r -> "PodGroup".equals(r.getKind())).findFirst().orElseThrow();
  }

  static GenericKubernetesResource admittedGroup(String job, String phase) {
    GenericKubernetesResource g = new GenericKubernetesResource();
    g.setApiVersion(GangScheduling.VOLCANO_API);
    g.setKind("PodGroup");
    g.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(job).build());
    g.setAdditionalProperty("status", Map.of("phase", phase));
    return g;
  }

  static TestJobs gang() {
    return TestJobs.job("j").leader(1).workers(2).edit(j -> j.getSpec().getTestReplicaSpecs().values().forEach(s ->
        s.getTemplate().getSpec().getContainers().get(0).setResources(new ResourceRequirementsBuilder()
            .addToRequests("cpu", new Quantity("500m")).addToLimits("memory", new Quantity("1Gi")).build())));
  }

  /** The gang with a scheduling policy set by {@code policy}. */
  static TestJob gang(Consumer<SchedulingPolicy> policy) {
    return gang().runPolicy(p -> {
      SchedulingPolicy scheduling = new SchedulingPolicy();
      policy.accept(scheduling);
      p.setSchedulingPolicy(scheduling);
    }).build();
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> podGroupSpec(Decision d) {
    return (Map<String, Object>) podGroup(d).getAdditionalProperties().get("spec");
  }

  @Test
  void volcanoPodGroupWaitsForAdmissionBeforeAnyPod() {
    TestJob job = gang(policy -> {
      policy.setQueue("research");
      policy.setPriorityClass("high");
    });
    Decision d = decide(job, VOLCANO, List.of(), List.of());
    Map<String, Object> spec = podGroupSpec(d);
    assertThat(podGroup(d).getApiVersion()).isEqualTo("scheduling.volcano.sh/v1beta1");
    assertThat(spec).containsEntry("minMember", 3).containsEntry("queue", "research")
        .containsEntry("priorityClassName", "high");
    assertThat(spec.get("minResources")).isEqualTo(Map.of("cpu", new Quantity("1.5")));
    assertThat(actions(d, Action.CreatePod.class)).isEmpty();
    assertThat(d.status().getLastReconcileTime()).isEqualTo(NOW.toString());

    Decision admitted = decide(job, VOLCANO, List.of(), List.of(admittedGroup("j", "Inqueue")));
    List<Pod> pods = actions(admitted, Action.CreatePod.class).stream().map(Action.CreatePod::pod).toList();
    assertThat(pods).hasSize(3).allSatisfy(p -> {
      assertThat(p.getSpec().getSchedulerName()).isEqualTo("volcano");
      assertThat(p.getMetadata().getAnnotations()).containsEntry("scheduling.k8s.io/group-name", "j");
    });
    assertThat(pods.get(1).getMetadata().getAnnotations()).containsEntry("volcano.sh/task-spec", "worker");
  }

  @Test
  void schedulerPluginsPodGroupAndLabelAndNoAdmissionGate() {
    TestJob job = gang(policy -> {
      policy.setMinAvailable(2);
      policy.setScheduleTimeoutSeconds(60);
    });
    Decision d = decide(job, PLUGINS, List.of(), List.of());
    Map<String, Object> spec = podGroupSpec(d);
    assertThat(podGroup(d).getApiVersion()).isEqualTo("scheduling.x-k8s.io/v1alpha1");
    assertThat(spec).containsEntry("minMember", 2).containsEntry("scheduleTimeoutSeconds", 60)
        .doesNotContainKey("queue");
    assertThat(actions(d, Action.CreatePod.class)).hasSize(3).allSatisfy(a -> {
      assertThat(a.pod().getSpec().getSchedulerName()).isEqualTo("scheduler-plugins-scheduler");
      assertThat(a.pod().getMetadata().getLabels()).containsEntry("scheduling.x-k8s.io/pod-group", "j");
    });
  }

  @Test
  void suspensionDeletesThePodGroupAndCreatesNoneWhileSuspended() {
    TestJob running = gang().suspend(true).status(runningStatus()).build();
    GenericKubernetesResource group = admittedGroup("j", "Running");
    Decision d = decide(running, VOLCANO, List.of(TestPods.of(running, "Leader", 0).running()), List.of(group));
    assertThat(actions(d, Action.DeleteResource.class)).extracting(Action.DeleteResource::resource).containsExactly(group);
    assertThat(actions(d, Action.ApplyResource.class)).isEmpty();
  }

  @Test
  void withoutGangSchedulingThereIsNoPodGroup() {
    Decision d = decide(gang().build(), EngineSettings.defaults(), List.of(), List.of());
    assertThat(actions(d, Action.ApplyResource.class)).isEmpty();
    assertThat(actions(d, Action.CreatePod.class)).allSatisfy(a -> assertThat(a.pod().getSpec().getSchedulerName()).isNull());
  }

  /** A type whose spec sets no replicas counts as the engine runs it: the kind's default (here Workers: 0). */
  @Test
  void theGangCountsTheKindsDefaultReplicas() {
    TestJob job = gang().edit(j -> j.getSpec().getTestReplicaSpecs().get("Worker").setReplicas(null)).build();
    Decision d = JobDecider.decide(new JobContext<>(job, new FrameworkHooksTest.HookedFramework(), NOW, VOLCANO),
        new Observed(List.of(), List.of(), List.of()));
    @SuppressWarnings("unchecked")
    Map<String, Object> spec = (Map<String, Object>) podGroup(d).getAdditionalProperties().get("spec");
    assertThat(spec).containsEntry("minMember", 1);
    assertThat(spec.get("minResources")).isEqualTo(Map.of("cpu", new Quantity("0.5")));
  }
}
