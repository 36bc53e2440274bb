package dev.stint.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.decision.Action;
import dev.stint.core.decision.Decision;
import dev.stint.core.decision.JobContext;
import dev.stint.core.decision.JobDecider;
import dev.stint.core.decision.Observed;
import dev.stint.spi.ReplicaOutcomes;
import dev.stint.spi.SupportingResource;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.ReplicaSpec;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The contract every framework passes, built-in or plugin: extend it with the framework and a canonical sample job
 * (the kind's upstream example). It checks what the engine relies on, not what the framework wires.
 */
public abstract class FrameworkContractTest<J extends TrainingJob<?>> {
  static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

  protected abstract TrainingFramework<J> framework();

  /** A valid job of the kind with at least two replicas, in namespace {@code default}, with a uid. */
  protected abstract J sampleJob();

  /** One instance per test, as the operator keeps one per kind (a framework may cache, e.g. generated keys). */
  private TrainingFramework<J> instance;

  TrainingFramework<J> instance() {
    if (instance == null) {
      instance = framework();
    }
    return instance;
  }

  Decision firstDecision() {
    return JobDecider.decide(new JobContext<>(sampleJob(), instance(), NOW), Observed.empty());
  }

  @Test
  void identifiesItself() {
    TrainingFramework<J> f = framework();
    assertThat(f.name()).matches("[a-z][a-z0-9-]*");
    assertThat(HasMetadata.getGroup(f.jobType())).isNotBlank();
    assertThat(HasMetadata.getVersion(f.jobType())).isNotBlank();
    assertThat(f.replicaTypes()).isNotEmpty().doesNotHaveDuplicates();
    assertThat(f.controllerName()).isNotBlank();
    assertThat(f.defaults()).isNotNull();
    assertThat(f.replicaTypes()).allSatisfy(type ->
        assertThat(f.defaultRestartPolicy(type)).isIn("Always", "OnFailure", "Never", "ExitCode"));
  }

  @Test
  void hasAPublicNoArgumentConstructorForServiceLoader() throws Exception {
    assertThat(framework().getClass().getConstructor().newInstance().name()).isEqualTo(framework().name());
  }

  @Test
  void acceptsItsSampleJob() {
    assertThat(framework().validate(sampleJob())).isEmpty();
    assertThat(firstDecision().status().isTrue("Failed")).isFalse();
  }

  @Test
  void sampleJobGetsOnePodPerReplicaWithTheEngineLabels() {
    Decision d = firstDecision();
    int replicas = sampleJob().getSpec().replicaSpecs().values().stream().mapToInt(ReplicaSpec::replicasOrDefault).sum();
    List<Pod> pods = d.actions().stream().filter(a -> a instanceof Action.CreatePod).map(a -> ((Action.CreatePod) a).pod())
        .toList();
    assertThat(pods).hasSize(replicas);
    assertThat(new HashSet<>(pods.stream().map(p -> p.getMetadata().getName()).toList())).hasSize(replicas);
    assertThat(pods).allSatisfy(p -> assertThat(p.getMetadata().getLabels())
        .containsEntry("training.kubeflow.org/operator-name", framework().controllerName())
        .containsKey("training.kubeflow.org/replica-type"));
  }

  @Test
  void wiringIsDeterministic() {
    String first = Serialization.asJson(firstDecision().actions());
    String second = Serialization.asJson(firstDecision().actions());
    assertThat(second).isEqualTo(first);
  }

  @Test
  void nothingSucceedsBeforeAnyReplicaDid() {
    assertThat(framework().successPolicy(sampleJob()).holds(new ReplicaOutcomes(Map.of()))).isFalse();
  }

  @Test
  void supportingResourcesAreNamed() {
    List<SupportingResource> resources = framework().supportingResources(sampleJob(), new ReplicaOutcomes(Map.of()));
    assertThat(resources).allSatisfy(r -> assertThat(r.resource().getMetadata().getName()).isNotBlank());
  }
}
