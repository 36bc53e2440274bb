package dev.stint.core.kueue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.decision.KueueSettings;
import dev.stint.core.decision.KueueSettings.Mode;
import dev.stint.core.kueue.WorkloadFor.Priority;
import dev.stint.core.kueue.WorkloadFor.PriorityRef;
import dev.stint.core.model.EngineFramework;
import dev.stint.core.testing.TestFramework;
import dev.stint.testdoubles.TestJob;
import dev.stint.core.testing.TestJobs;
import dev.stint.spi.api.SchedulingPolicy;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class WorkloadForTest {
  static final TestFramework FRAMEWORK = new TestFramework();
  static final KueueSettings NATIVE = new KueueSettings(Mode.NATIVE, false);

  static TestJobs queuedJob() {
    return TestJobs.job("train").edit(j -> j.getMetadata().setLabels(Map.of(KueueApi.QUEUE_NAME_LABEL, "team-q")));
  }

  static Stream<Arguments> queued() {
    TestJob labelled = queuedJob().workers(1).build();
    TestJob plain = TestJobs.job("plain").workers(1).build();
    TestJob dispatched = queuedJob().workers(1).runPolicy(p -> p.setManagedBy(KueueApi.MULTIKUEUE_MANAGED_BY))
        .build();
    TestJob elsewhere = queuedJob().workers(1).runPolicy(p -> p.setManagedBy("example.com/other-operator")).build();
    TestJob prebuilt = TestJobs.job("copy").workers(1)
        .edit(j -> j.getMetadata().setAnnotations(Map.of(KueueApi.PREBUILT_WORKLOAD_LABEL, "made-before"))).build();
    return Stream.of(
        Arguments.of("Kueue off", labelled, KueueSettings.OFF, false),
        Arguments.of("native, queue label", labelled, NATIVE, true),
        Arguments.of("native, no queue label", plain, NATIVE, false),
        Arguments.of("native for every job, no queue label", plain, new KueueSettings(Mode.NATIVE, true), true),
        Arguments.of("native, a prebuilt Workload named, no queue label", prebuilt, NATIVE, true),
        Arguments.of("MultiKueue's job (the manager's Workload)", dispatched, NATIVE, true),
        Arguments.of("another controller's job", elsewhere, NATIVE, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void queued(String name, TestJob job, KueueSettings settings, boolean expected) {
    assertThat(WorkloadFor.queued(job, settings, EngineFramework.of(FRAMEWORK).managedByValue())).isEqualTo(expected);
  }

  @Test
  void multiKueuesJobIsDispatchedAndAPrebuiltNameIsReadFromTheLabelBeforeTheAnnotation() {
    TestJob job = queuedJob().workers(1).runPolicy(p -> p.setManagedBy(KueueApi.MULTIKUEUE_MANAGED_BY))
        .edit(j -> {
          j.getMetadata().setLabels(Map.of(KueueApi.PREBUILT_WORKLOAD_LABEL, "by-label"));
          j.getMetadata().setAnnotations(Map.of(KueueApi.PREBUILT_WORKLOAD_LABEL, "by-annotation"));
        }).build();
    assertThat(WorkloadFor.dispatched(job)).isTrue();
    assertThat(WorkloadFor.dispatched(queuedJob().workers(1).build())).isFalse();
    assertThat(WorkloadFor.prebuiltName(job)).isEqualTo("by-label");
    assertThat(WorkloadFor.prebuiltName(queuedJob().workers(1).build())).isNull();
  }

  static Stream<Arguments> priorityClass() {
    UnaryOperator<TestJobs> podClass = j -> j.edit(job -> job.getSpec().getTestReplicaSpecs().get("Worker")
        .getTemplate().getSpec().setPriorityClassName("high-pods"));
    SchedulingPolicy scheduling = new SchedulingPolicy();
    scheduling.setPriorityClass("gang-high");
    SchedulingPolicy emptyScheduling = new SchedulingPolicy();
    emptyScheduling.setPriorityClass("");
    return Stream.of(
        Arguments.of("none", queuedJob().workers(2), Optional.empty()),
        Arguments.of("the pods' class", podClass.apply(queuedJob().leader(1).workers(2)),
            Optional.of(new PriorityRef("scheduling.k8s.io", "PriorityClass", "high-pods"))),
        Arguments.of("runPolicy's class before the pods'", podClass.apply(queuedJob().workers(2)
                .runPolicy(p -> p.setSchedulingPolicy(scheduling))),
            Optional.of(new PriorityRef("scheduling.k8s.io", "PriorityClass", "gang-high"))),
        Arguments.of("Kueue's label before anything", podClass.apply(queuedJob().workers(2)).edit(j -> j.getMetadata()
                .setLabels(Map.of(KueueApi.QUEUE_NAME_LABEL, "q", KueueApi.PRIORITY_CLASS_LABEL, "urgent"))),
            Optional.of(new PriorityRef("kueue.x-k8s.io", "WorkloadPriorityClass", "urgent"))),
        // an empty value asks for nothing, as in Kueue (a review saw "Name must be provided" loop and no Workload)
        Arguments.of("empty label and runPolicy class: the pods'", podClass.apply(queuedJob().workers(2)
                .runPolicy(p -> p.setSchedulingPolicy(emptyScheduling))).edit(j -> j.getMetadata()
                .setLabels(Map.of(KueueApi.QUEUE_NAME_LABEL, "q", KueueApi.PRIORITY_CLASS_LABEL, ""))),
            Optional.of(new PriorityRef("scheduling.k8s.io", "PriorityClass", "high-pods"))),
        Arguments.of("empty everywhere: none", queuedJob().workers(2).runPolicy(p -> p.setSchedulingPolicy(
            emptyScheduling)), Optional.empty()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void priorityClass(String name, TestJobs job, Optional<PriorityRef> expected) {
    assertThat(WorkloadFor.priorityClass(job.build(), FRAMEWORK)).isEqualTo(expected);
  }

  /** A kind whose Workers may run with as few as two (an elastic PyTorchJob's, say). */
  static final TestFramework ELASTIC = new ElasticTestFramework();

  static final class ElasticTestFramework extends TestFramework implements dev.stint.spi.WithElasticReplicas<TestJob> {
    @Override
    public java.util.OptionalInt minReplicas(TestJob job, String replicaType) {
      return WORKER.equals(replicaType) ? java.util.OptionalInt.of(2) : java.util.OptionalInt.empty();
    }
  }

  static Stream<Arguments> minCount() {
    return Stream.of(
        Arguments.of("workers may be fewer", queuedJob().leader(1).workers(4), List.of("leader=1/-", "worker=4/2")),
        Arguments.of("no fewer than asked", queuedJob().workers(2), List.of("worker=2/-")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  @SuppressWarnings("unchecked")
  void minCount(String name, TestJobs job, List<String> podSets) {
    Map<String, Object> spec = (Map<String, Object>) WorkloadFor.of(job.build(), ELASTIC, Priority.NONE)
        .getAdditionalProperties().get("spec");
    assertThat((List<Map<String, Object>>) spec.get("podSets"))
        .extracting(s -> s.get("name") + "=" + s.get("count") + "/" + s.getOrDefault("minCount", "-"))
        .containsExactlyElementsOf(podSets);
  }

  static Stream<Arguments> workloads() {
    return Stream.of(
        Arguments.of("leader and workers, in the kind's order", queuedJob().workers(3).leader(1), Priority.NONE,
            List.of("leader=1", "worker=3"), true, null),
        Arguments.of("workers only", queuedJob().workers(2), Priority.NONE, List.of("worker=2"), true, null),
        Arguments.of("created suspended: inactive, marked as the user's", queuedJob().workers(2).suspend(true),
            Priority.NONE, List.of("worker=2"), false, null),
        Arguments.of("a WorkloadPriorityClass and its value", queuedJob().workers(1),
            new Priority(new PriorityRef("kueue.x-k8s.io", "WorkloadPriorityClass", "urgent"), 1000),
            List.of("worker=1"), true, null),
        Arguments.of("maximum execution time", queuedJob().workers(1).edit(j -> j.getMetadata().setLabels(Map.of(
                KueueApi.QUEUE_NAME_LABEL, "team-q", KueueApi.MAX_EXEC_TIME_LABEL, "600"))), Priority.NONE,
            List.of("worker=1"), true, 600));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  @SuppressWarnings("unchecked")
  void workloads(String name, TestJobs jobs, Priority priority, List<String> podSets, boolean active,
                 Integer maxSeconds) {
    TestJob job = jobs.build();
    GenericKubernetesResource workload = WorkloadFor.of(job, FRAMEWORK, priority);

    assertThat(workload.getApiVersion()).isEqualTo("kueue.x-k8s.io/v1beta2");
    assertThat(workload.getKind()).isEqualTo("Workload");
    assertThat(workload.getMetadata().getName())
        .isEqualTo(KueueApi.workloadName("TestJob", "test.stint.dev", "train", "uid-train"));
    assertThat(workload.getMetadata().getNamespace()).isEqualTo("default");
    assertThat(workload.getMetadata().getFinalizers()).containsExactly("kueue.x-k8s.io/resource-in-use");
    assertThat(workload.getMetadata().getLabels()).containsEntry("kueue.x-k8s.io/job-uid", "uid-train")
        .containsEntry("training.kubeflow.org/operator-name", "testjob-controller");
    OwnerReference owner = workload.getMetadata().getOwnerReferences().get(0);
    assertThat(owner).extracting(OwnerReference::getApiVersion, OwnerReference::getKind, OwnerReference::getName,
        OwnerReference::getUid, OwnerReference::getController)
        .containsExactly("test.stint.dev/v1", "TestJob", "train", "uid-train", true);
    Map<String, Object> spec = (Map<String, Object>) workload.getAdditionalProperties().get("spec");
    assertThat(spec).containsEntry("queueName", "team-q").containsEntry("active", active);
    String digest = WorkloadFor.podSetsOf(job, FRAMEWORK).digest();
    assertThat(digest).hasSize(32);
    assertThat(workload.getMetadata().getAnnotations()).isEqualTo(active
        ? Map.of(KueueApi.PODSETS_DIGEST, digest)
        : Map.of(KueueApi.PODSETS_DIGEST, digest, KueueApi.DEACTIVATED_BY_SUSPEND, "true"));
    List<Map<String, Object>> sets = (List<Map<String, Object>>) spec.get("podSets");
    assertThat(sets).extracting(s -> s.get("name") + "=" + s.get("count")).containsExactlyElementsOf(podSets);
    Map<String, Object> template = (Map<String, Object>) sets.get(0).get("template");
    assertThat(template.get("metadata")).isEqualTo(Map.of("labels", Map.of("team", "ml")));
    assertThat((List<Map<String, Object>>) ((Map<String, Object>) template.get("spec")).get("containers"))
        .extracting(c -> c.get("image")).containsExactly("busybox");
    if (priority.ref() == null) {
      assertThat(spec).doesNotContainKeys("priorityClassRef", "priority");
    } else {
      assertThat(spec).containsEntry("priority", priority.value()).containsEntry("priorityClassRef",
          Map.of("group", "kueue.x-k8s.io", "kind", "WorkloadPriorityClass", "name", "urgent"));
    }
    assertThat(spec.get("maximumExecutionTimeSeconds")).isEqualTo(maxSeconds);
  }

  @Test
  void theDigestFollowsThePodSetsAndIsStable() {
    var one = TestJobs.job("train").workers(1).build();
    var three = TestJobs.job("train").workers(3).build();
    assertThat(WorkloadFor.podSetsOf(one, FRAMEWORK).digest()).isEqualTo(WorkloadFor.podSetsOf(
        TestJobs.job("train").workers(1).build(), FRAMEWORK).digest())
        .isNotEqualTo(WorkloadFor.podSetsOf(three, FRAMEWORK).digest());
  }

  @Test
  @SuppressWarnings("unchecked")
  void eachPodSetCarriesItsTemplatesTopologyRequestWithTheReplicaIndex() {
    TestJob job = queuedJob().leader(1).workers(4).edit(j -> j.getSpec().getTestReplicaSpecs().get("Worker")
        .getTemplate().getMetadata().setAnnotations(Map.of("kueue.x-k8s.io/podset-required-topology", "rack")))
        .build();

    Map<String, Object> spec = (Map<String, Object>) WorkloadFor.of(job, FRAMEWORK, Priority.NONE)
        .getAdditionalProperties().get("spec");

    assertThat((List<Map<String, Object>>) spec.get("podSets")).extracting(s -> s.get("topologyRequest"))
        .containsExactly(Map.of("podIndexLabel", "training.kubeflow.org/replica-index"),
            Map.of("required", "rack", "podIndexLabel", "training.kubeflow.org/replica-index"));
    assertThat(WorkloadFor.podSetsOf(job, FRAMEWORK).digest()).as("a topology request is part of the podSets")
        .isNotEqualTo(WorkloadFor.podSetsOf(queuedJob().leader(1).workers(4).build(), FRAMEWORK).digest());
  }
}
