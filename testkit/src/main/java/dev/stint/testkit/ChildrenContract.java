package dev.stint.testkit;

import static dev.stint.testkit.ContractJobs.NO_OUTCOMES;
import static dev.stint.testkit.ContractJobs.createdPods;
import static dev.stint.testkit.ContractJobs.decide;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.model.EngineFramework;
import dev.stint.spi.KubeflowLabels;
import dev.stint.spi.SupportingResource;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.ReplicaSpec;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The part of the framework contract about the children the engine makes from the kind's jobs: one pod per replica
 * with the engine's labels, wiring that is the same every time, names stable across framework instances (the engine
 * creates a child only when none of that name exists), declared supporting resources made and named, and a job the
 * framework reads but never changes (the operator's cached object, shared by every reconcile).
 */
public abstract class ChildrenContract<J extends TrainingJob<?>> extends IdentityContract<J> {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  /** See {@link FrameworkContractTest#FrameworkContractTest(Supplier, Path)}. */
  protected ChildrenContract(Supplier<? extends TrainingFramework<J>> frameworks, Path sample) {
    super(frameworks, sample);
  }

  @Test
  void sampleJobGetsOnePodPerReplicaWithTheEngineLabels() {
    J job = sampleJob();
    int replicas = job.getSpec().replicaSpecs().values().stream().mapToInt(ReplicaSpec::replicasOrDefault).sum();
    List<Pod> pods = createdPods(decide(framework(), job, List.of()));
    assertThat(pods).hasSize(replicas);
    assertThat(new HashSet<>(pods.stream().map(p -> p.getMetadata().getName()).toList())).hasSize(replicas);
    assertThat(pods).allSatisfy(p -> assertThat(p.getMetadata().getLabels())
        .containsEntry(KubeflowLabels.OPERATOR_NAME, EngineFramework.of(framework()).controllerName())
        .containsKey(KubeflowLabels.REPLICA_TYPE));
  }

  /** The same job wired twice gives the same actions and the same pods (each built, so {@code wire()} runs). */
  @Test
  void wiringIsDeterministic() {
    TrainingFramework<J> f = framework();
    var first = decide(f, sampleJob(), List.of());
    var second = decide(f, sampleJob(), List.of());
    assertThat(JSON.asJson(second.actions())).isEqualTo(JSON.asJson(first.actions()));
    assertThat(JSON.asJson(createdPods(second))).as("the pods wire() made, the second time")
        .isEqualTo(JSON.asJson(createdPods(first)));
  }

  /**
   * Two framework instances (two operator replicas, or one after a restart) name every child alike: pods, services
   * and supporting resources. Content made only when absent (a generated key) may differ; names may not.
   */
  @Test
  void namesAreStableAcrossInstances() {
    assertThat(childNames(framework(), sampleJob())).isEqualTo(childNames(framework(), sampleJob()))
        .doesNotHaveDuplicates();
    assertThat(childNames(framework(), jobWithSupportingResources()))
        .isEqualTo(childNames(framework(), jobWithSupportingResources()));
  }

  /** A kind that declares supporting resource types makes some, each named, of a declared kind. */
  @Test
  void declaredSupportingResourcesAreMadeAndNamed() {
    EngineFramework<J> f = EngineFramework.of(framework());
    List<SupportingResource> resources = f.supportingResources(jobWithSupportingResources(), NO_OUTCOMES);
    if (!f.supportingResourceTypes().isEmpty()) {
      assertThat(resources).as("supporting resources of a kind that declares %s", f.supportingResourceTypes())
          .isNotEmpty();
    }
    assertThat(resources).allSatisfy(r -> {
      assertThat(r.resource().getMetadata().getName()).isNotBlank();
      assertThat(f.supportingResourceTypes()).contains(r.resource().getClass());
      if (r.content() != null) {
        HasMetadata made = r.toCreate();
        assertThat(made.getClass()).isEqualTo(r.resource().getClass());
        assertThat(made.getMetadata().getName()).isEqualTo(r.resource().getMetadata().getName());
      }
    });
  }

  /** The job a framework is handed is the operator's cached object: reading it must leave it as it was. */
  @Test
  void neverChangesTheJobItIsHanded() {
    for (J job : List.of(sampleJob(), jobWithSupportingResources())) {
      String before = JSON.asJson(job);
      EngineFramework<J> f = EngineFramework.of(framework());
      createdPods(decide(f, job, List.of())); // building each pod runs wire()
      f.validate(job);
      f.successPolicy(job).holds(NO_OUTCOMES);
      f.supportingResources(job, NO_OUTCOMES).forEach(SupportingResource::toCreate);
      f.messages(job).running();
      assertThat(JSON.asJson(job)).as("the job after the framework read it").isEqualTo(before);
    }
  }

  private List<String> childNames(TrainingFramework<J> f, J job) {
    List<String> names = new java.util.ArrayList<>(createdPods(decide(f, job, List.of())).stream()
        .map(p -> "Pod/" + p.getMetadata().getName()).toList());
    EngineFramework.of(f).supportingResources(job, NO_OUTCOMES)
        .forEach(r -> names.add(r.resource().getKind() + "/" + r.resource().getMetadata().getName()));
    return names;
  }
}
