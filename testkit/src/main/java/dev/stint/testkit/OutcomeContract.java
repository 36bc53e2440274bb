package dev.stint.testkit;

import static dev.stint.testkit.ContractJobs.NOW;
import static dev.stint.testkit.ContractJobs.NO_OUTCOMES;
import static dev.stint.testkit.ContractJobs.createdPods;
import static dev.stint.testkit.ContractJobs.decide;
import static dev.stint.testkit.ContractJobs.ended;
import static dev.stint.testkit.ContractJobs.withRunPolicy;
import static dev.stint.testkit.ContractJobs.withStatus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.decision.Decision;
import dev.stint.core.model.Action;
import dev.stint.spi.KubeflowLabels;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import dev.stint.testdoubles.KubeletStatuses;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.CustomResource;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The part of the framework contract about how a job of the kind ends or restarts, which the engine does for every
 * kind alike and the kind's pods must allow (replica labels and indexes): the success policy holds on no outcome,
 * pods that cannot run are shown and, past the opt-in limit, fail the job, and one member failing restarts the gang.
 */
public abstract class OutcomeContract<J extends TrainingJob<?>> extends ChildrenContract<J> {

  /** See {@link FrameworkContractTest#FrameworkContractTest(Supplier, Path)}. */
  protected OutcomeContract(Supplier<? extends TrainingFramework<J>> frameworks, Path sample) {
    super(frameworks, sample);
  }

  @Test
  void nothingSucceedsBeforeAnyReplicaDid() {
    assertThat(framework().successPolicy(sampleJob()).holds(NO_OUTCOMES)).isFalse();
  }

  /**
   * Pods that exist and cannot run are shown on the job, whatever its kind: condition {@code PodsWaiting} with the
   * cause a user must fix first as its reason ({@code <Kind>ImagePullBackOff}), a message naming the replicas with the
   * scheduler's or the kubelet's own words, {@code Running} not True; gone once every pod runs. The engine does this
   * for every kind; the check proves that the kind's pods carry what it needs (replica labels and indexes).
   */
  @Test
  void podsThatCannotRunAreShownByReplicaAndCause() {
    J job = sampleJob();
    String kind = HasMetadata.getKind(framework().jobType());
    List<Pod> pods = podsThatCannotRun(job);
    JobStatus waiting = decideAgain(job, null, pods).status();
    JobCondition condition = waiting.condition("PodsWaiting").orElseThrow();
    assertThat(condition.getStatus()).isEqualTo("True");
    assertThat(condition.getReason()).isEqualTo(kind + "ImagePullBackOff");
    Pod first = pods.get(0);
    String replica = first.getMetadata().getLabels().get(KubeflowLabels.REPLICA_TYPE) + " "
        + first.getMetadata().getLabels().get(KubeflowLabels.REPLICA_INDEX);
    assertThat(condition.getMessage()).contains(": ImagePullBackOff: Back-off pulling image \"nope:1\"")
        .containsIgnoringCase(replica + ": Unschedulable: " + KubeletStatuses.NO_GPU);
    assertThat(waiting.isTrue("Running")).isFalse();

    pods.forEach(p -> p.setStatus(KubeletStatuses.running(containers(p))));
    assertThat(decideAgain(job, null, pods).status().condition("PodsWaiting")).isEmpty();
  }

  /** With {@code runPolicy.podsWaitingTimeoutSeconds}, pods that waited longer fail the job, naming the cause. */
  @Test
  void podsWaitingPastTheOptInLimitFailTheJob() {
    J job = withRunPolicy(framework(), sampleJob(), "podsWaitingTimeoutSeconds", 60L);
    String kind = HasMetadata.getKind(framework().jobType());
    List<Pod> pods = podsThatCannotRun(job);
    JobCondition failed = decideAgain(job, NOW.minusSeconds(61), pods).status().condition("Failed").orElseThrow();
    assertThat(failed.getReason()).isEqualTo(kind + "ImagePullBackOff");
    assertThat(failed.getMessage()).contains("waited more than 60 s to start (spec.runPolicy.podsWaitingTimeoutSeconds)")
        .endsWith("ImagePullBackOff: Back-off pulling image \"nope:1\"");
  }

  /** The pods of the first decision, the first unschedulable, the others unable to pull their image. */
  private List<Pod> podsThatCannotRun(J job) {
    List<Pod> pods = createdPods(decide(framework(), job, List.of()));
    assertThat(pods).as("pods of the sample job").hasSizeGreaterThanOrEqualTo(2);
    pods.forEach(p -> p.getMetadata().setCreationTimestamp("2026-11-29T11:00:00Z"));
    pods.get(0).setStatus(KubeletStatuses.unschedulable(KubeletStatuses.NO_GPU));
    pods.subList(1, pods.size()).forEach(p -> p.setStatus(KubeletStatuses.waiting(containers(p),
        "ImagePullBackOff", "Back-off pulling image \"nope:1\"")));
    return pods;
  }

  /** The decision after the first, its pods observed; the job started at {@code startedAt} (null: now). */
  @SuppressWarnings("unchecked")
  private Decision decideAgain(J job, Instant startedAt, List<Pod> pods) {
    JobStatus status = decide(framework(), job, List.of()).status();
    status.setStartTime((startedAt == null ? NOW : startedAt).toString());
    ((CustomResource<?, JobStatus>) job).setStatus(status);
    return decide(framework(), job, pods);
  }

  private static List<String> containers(Pod pod) {
    return pod.getSpec().getContainers().stream().map(c -> c.getName()).toList();
  }

  /**
   * A kind gets the failure policy with no code of its own: with {@code runPolicy.failurePolicy}, one member of the
   * sample job failing deletes every pod of the gang and says which member, and the next attempt's pods (every
   * replica again) carry the attempt as a label and a variable in every container.
   */
  @Test
  void oneMemberFailingRestartsTheWholeGang() {
    J job = withRunPolicy(framework(), sampleJob(), "failurePolicy", Map.of("maxRestarts", 2));
    TrainingFramework<J> framework = framework();
    Decision first = decide(framework, job, List.of());
    List<Pod> pods = createdPods(first);
    assertThat(pods).allSatisfy(p -> assertAttempt(p, "0"));
    List<Pod> observed = new java.util.ArrayList<>(pods.stream().map(p -> ended(p, "Running", null)).toList());
    Pod member = observed.remove(observed.size() - 1);
    observed.add(ended(member, "Failed", 137));
    job = withStatus(framework, job, first.status());

    Decision restart = decide(framework, job, observed);
    assertThat(restart.actions()).filteredOn(a -> a instanceof Action.DeletePod)
        .extracting(a -> ((Action.DeletePod) a).name())
        .containsExactlyInAnyOrderElementsOf(pods.stream().map(p -> p.getMetadata().getName()).toList());
    assertThat(createdPods(restart)).isEmpty();
    assertThat(restart.status().getRestarts()).isEqualTo(1);
    String type = member.getMetadata().getLabels().get(KubeflowLabels.REPLICA_TYPE);
    assertThat(restart.status().condition("Restarting")).hasValueSatisfying(c -> {
      assertThat(c.getStatus()).isEqualTo("True");
      assertThat(c.getReason()).endsWith("MemberFailed");
      assertThat(c.getMessage()).containsIgnoringCase(type + " " + member.getMetadata().getLabels()
          .get(KubeflowLabels.REPLICA_INDEX) + " exited with code 137");
    });

    job = withStatus(framework, job, restart.status());
    List<Pod> again = createdPods(decide(framework, job, List.of()));
    assertThat(again).extracting(p -> p.getMetadata().getName())
        .containsExactlyInAnyOrderElementsOf(pods.stream().map(p -> p.getMetadata().getName()).toList());
    assertThat(again).allSatisfy(p -> assertAttempt(p, "1"));
  }

  private static void assertAttempt(Pod pod, String attempt) {
    assertThat(pod.getMetadata().getLabels()).containsEntry(KubeflowLabels.RESTART_ATTEMPT, attempt);
    assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
    assertThat(pod.getSpec().getContainers()).allSatisfy(c -> assertThat(c.getEnv())
        .anySatisfy(e -> assertThat(e.getName() + "=" + e.getValue())
            .isEqualTo(KubeflowLabels.RESTART_ATTEMPT_ENV + "=" + attempt)));
  }
}
