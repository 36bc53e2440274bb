package dev.stint.tensorflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.model.EngineFramework;
import dev.stint.spi.FrameworkDefaults;
import dev.stint.spi.JobMessages;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.ReplicaOutcomes;
import dev.stint.spi.TrainingFramework;
import dev.stint.testkit.Outcomes;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What the TensorFlow framework says about a job besides wiring: identity, leader, success, failure, validation. */
class TensorFlowFrameworkTest {

  private final TensorFlowFramework framework = new TensorFlowFramework();

  @Test
  void describesTheKind() {
    assertThat(framework.name()).isEqualTo("tensorflow");
    assertThat(framework.jobType()).isEqualTo(TFJob.class);
    assertThat(HasMetadata.getApiVersion(TFJob.class)).isEqualTo("kubeflow.org/v1");
    assertThat(HasMetadata.getKind(TFJob.class)).isEqualTo("TFJob");
    assertThat(framework.replicaTypes()).containsExactly("Chief", "Evaluator", "Master", "PS", "Worker");
    assertThat(framework.defaults()).isEqualTo(new FrameworkDefaults("tensorflow", "tfjob-port", 2222, "Never"));
    assertThat(EngineFramework.of(framework).controllerName()).isEqualTo("tfjob-controller");
    assertThat(EngineFramework.of(framework).managedByValue()).isEqualTo("kubeflow.org/training-operator");
    assertThat(EngineFramework.of(framework).supportingResourceTypes()).isEmpty();
    assertThat(EngineFramework.of(framework).servicePerPod()).isTrue();
  }

  @Test
  void isFoundByTheServiceLoader() {
    assertThat(ServiceLoader.load(TrainingFramework.class).stream().map(ServiceLoader.Provider::type))
        .contains(TensorFlowFramework.class);
  }

  static Stream<Arguments> leaders() {
    TFJob withChief = TestTFJobs.job("j").chief(1).workers(2).ps(1).build();
    TFJob withMaster = TestTFJobs.job("j").master(1).workers(2).build();
    TFJob workersAndPs = TestTFJobs.job("j").workers(2).ps(1).build();
    return Stream.of(
        Arguments.of("Chief 0", withChief, "Chief", 0, true),
        Arguments.of("Worker 0 of a job with a Chief", withChief, "Worker", 0, false),
        Arguments.of("PS 0 of a job with a Chief", withChief, "PS", 0, false),
        Arguments.of("Master 0", withMaster, "Master", 0, true),
        Arguments.of("Worker 0 of a job with a Master", withMaster, "Worker", 0, false),
        Arguments.of("Worker 0 of a job without Chief", workersAndPs, "Worker", 0, true),
        Arguments.of("Worker 1 of a job without Chief", workersAndPs, "Worker", 1, false),
        Arguments.of("PS 0 of a job without Chief", workersAndPs, "PS", 0, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("leaders")
  void leaderIsTheChiefOrMasterElseWorkerZero(String name, TFJob job, String type, int index, boolean leader) {
    assertThat(framework.isLeader(job, new ReplicaId(type, index))).isEqualTo(leader);
  }

  static Stream<Arguments> successCases() {
    TFJob withChief = TestTFJobs.job("j").chief(1).workers(3).ps(1).build();
    TFJob withMaster = TestTFJobs.job("j").master(1).workers(3).build();
    TFJob workers = TestTFJobs.job("j").workers(3).ps(1).build();
    TFJob allWorkers = TestTFJobs.job("j").workers(3).ps(1).successPolicy("AllWorkers").build();
    TFJob psOnly = TestTFJobs.job("j").ps(2).build();
    return Stream.of(
        Arguments.of("Chief succeeded, Workers running", withChief, Outcomes.of(m -> m
            .type("Chief", 1, 0).type("PS", 1).type("Worker", 3)), true),
        Arguments.of("all Workers succeeded, Chief running", withChief, Outcomes.of(m -> m
            .type("Chief", 1).type("PS", 1).type("Worker", 3, 0, 1, 2)), false),
        Arguments.of("Master succeeded", withMaster, Outcomes.of(m -> m.type("Master", 1, 0).type("Worker", 3)), true),
        Arguments.of("Worker 0 succeeded, Master running", withMaster, Outcomes.of(m -> m
            .type("Master", 1).type("Worker", 3, 0)), false),
        Arguments.of("no Chief, Worker 0 succeeded", workers, Outcomes.of(m -> m.type("PS", 1).type("Worker", 3, 0)),
            true),
        Arguments.of("no Chief, Workers 1 and 2 succeeded", workers, Outcomes.of(m -> m
            .type("PS", 1).type("Worker", 3, 1, 2)), false),
        Arguments.of("no Chief, every Worker succeeded", workers, Outcomes.of(m -> m
            .type("PS", 1).type("Worker", 3, 0, 1, 2)), true),
        Arguments.of("AllWorkers, Worker 0 succeeded", allWorkers, Outcomes.of(m -> m
            .type("PS", 1).type("Worker", 3, 0)), false),
        Arguments.of("AllWorkers, every Worker succeeded", allWorkers, Outcomes.of(m -> m
            .type("PS", 1).type("Worker", 3, 0, 1, 2)), true),
        Arguments.of("only parameter servers, all succeeded", psOnly, Outcomes.of(m -> m.type("PS", 2, 0, 1)), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("successCases")
  void defaultSuccessPolicy(String name, TFJob job, ReplicaOutcomes outcomes, boolean succeeded) {
    assertThat(framework.successPolicy(job).holds(outcomes)).isEqualTo(succeeded);
  }

  @Test
  void everyFailedReplicaIsFatalExceptDynamicWorkers() {
    TFJob job = TestTFJobs.job("j").chief(1).evaluator(1).workers(2).ps(1).build();
    TFJob dynamic = TestTFJobs.job("j").chief(1).evaluator(1).workers(2).ps(1).dynamicWorkers().build();

    for (String type : framework.replicaTypes()) {
      assertThat(framework.failureIsFatal(job, type)).as(type).isTrue();
      assertThat(framework.failureIsFatal(dynamic, type)).as("dynamic " + type).isEqualTo(!"Worker".equals(type));
    }
  }

  static Stream<Arguments> invalidJobs() {
    return Stream.of(
        Arguments.of("Chief and Master", TestTFJobs.job("j").chief(1).master(1).workers(1).build(),
            List.of("spec.tfReplicaSpecs: must not have more than 1 Chief or Master role")),
        Arguments.of("two Chiefs", TestTFJobs.job("j").chief(2).workers(1).build(),
            List.of("spec.tfReplicaSpecs.Chief.replicas: must be 1")),
        Arguments.of("no Master", TestTFJobs.job("j").master(0).workers(1).build(),
            List.of("spec.tfReplicaSpecs.Master.replicas: must be 1")),
        Arguments.of("unknown success policy", TestTFJobs.job("j").workers(2).successPolicy("allWorkers").build(),
            List.of("spec.successPolicy: must be \"\" or AllWorkers, not \"allWorkers\"")),
        Arguments.of("no replica specs", TestTFJobs.job("j").build(), List.of("spec.tfReplicaSpecs: must be set")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidJobs")
  void validationNamesTheField(String name, TFJob job, List<String> problems) {
    assertThat(framework.validate(job)).containsExactlyElementsOf(problems);
  }

  @Test
  void validJobsHaveNoProblems() {
    assertThat(framework.validate(TestTFJobs.job("j").chief(1).workers(2).ps(1).evaluator(1).build())).isEmpty();
    assertThat(framework.validate(TestTFJobs.job("j").master(null).workers(2).successPolicy("").build())).isEmpty();
    assertThat(framework.validate(TestTFJobs.job("j").workers(2).successPolicy("AllWorkers").build())).isEmpty();
  }

  @Test
  void messagesFollowUpstreamWording() {
    JobMessages messages = framework.messages(TestTFJobs.job("test-tfjob").namespace("ns").workers(2).build());

    assertThat(messages.running()).isEqualTo("TFJob ns/test-tfjob is running.");
    assertThat(messages.succeeded()).isEqualTo("TFJob ns/test-tfjob successfully completed.");
    assertThat(messages.failed("PS", 1)).isEqualTo("TFJob ns/test-tfjob has failed because 1 PS replica(s) failed.");
  }
}
