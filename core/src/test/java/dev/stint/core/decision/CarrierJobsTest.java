package dev.stint.core.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.model.Action;
import dev.stint.core.model.JobLabels;
import dev.stint.spi.ReplicaId;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class CarrierJobsTest {
  private static final Map<String, String> STINT_LABELS = Map.of("training.kubeflow.org/job-name", "pi",
      "training.kubeflow.org/operator-name", "mpi-operator", "training.kubeflow.org/replica-type", "launcher",
      "training.kubeflow.org/replica-index", "0");
  /** The MPI Operator v0.6's launcher labels: no replica type, no index. */
  private static final Map<String, String> UPSTREAM_LABELS = Map.of("training.kubeflow.org/job-name", "pi",
      "training.kubeflow.org/operator-name", "mpi-operator", "training.kubeflow.org/job-role", "launcher");
  private static final Function<Map<String, String>, ReplicaId> UPSTREAM =
      labels -> "launcher".equals(labels.get("training.kubeflow.org/job-role")) ? new ReplicaId("Launcher", 0) : null;

  @ParameterizedTest(name = "{0} -> backoffLimit {1}")
  @CsvSource({"Never, 0", "OnFailure, 2147483647"})
  void theJobCarriesTheWiredPodAndLeavesRestartsToTheEngine(String restartPolicy, int backoffLimit) {
    Pod pod = new PodBuilder().withNewMetadata().withName("pi-launcher").withNamespace("ns").withLabels(STINT_LABELS)
        .addNewOwnerReference().withApiVersion("kubeflow.org/v2beta1").withKind("MPIJob").withName("pi")
        .withUid("job-uid").withController(true).withBlockOwnerDeletion(true).endOwnerReference().endMetadata()
        .withNewSpec().withRestartPolicy(restartPolicy).withHostname("pi-launcher").withSubdomain("pi")
        .addNewContainer().withName("main").endContainer().endSpec().build();

    Job job = CarrierJobs.carrying(pod);

    assertThat(job.getMetadata().getName()).isEqualTo("pi-launcher");
    assertThat(job.getMetadata().getOwnerReferences()).isEqualTo(pod.getMetadata().getOwnerReferences());
    assertThat(job.getMetadata().getLabels()).containsEntry("app", "pi")
        .containsEntry("training.kubeflow.org/job-name", "pi");
    assertThat(job.getSpec().getBackoffLimit()).isEqualTo(backoffLimit);
    assertThat(job.getSpec().getSuspend()).isNull();
    assertThat(job.getSpec().getActiveDeadlineSeconds()).as("the engine enforces the deadline").isNull();
    assertThat(job.getSpec().getTemplate().getMetadata().getLabels()).isEqualTo(STINT_LABELS);
    assertThat(job.getSpec().getTemplate().getSpec().getHostname()).isEqualTo("pi-launcher");
  }

  static Stream<Arguments> jobsWithoutPods() {
    return Stream.of(
        Arguments.of("active", job("pi-launcher", null, false, STINT_LABELS), "Pending", false),
        Arguments.of("complete", job("pi-launcher", "Complete", false, STINT_LABELS), "Succeeded", false),
        Arguments.of("failed, no pod left: its pod was deleted", job("pi-launcher", "Failed", false, STINT_LABELS),
            "Failed", true),
        Arguments.of("suspended by the MPI Operator", job("pi-launcher", null, true, UPSTREAM_LABELS), "Pending",
            true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jobsWithoutPods")
  void aJobWithoutAPodIsSeenAsTheLauncherInTheJobsState(String name, Job job, String phase, boolean terminating) {
    List<Pod> pods = CarrierJobs.observedPods(List.of(), List.of(job), UPSTREAM);

    assertThat(pods).singleElement().satisfies(p -> {
      assertThat(p.getMetadata().getName()).isEqualTo("pi-launcher");
      assertThat(p.getStatus().getPhase()).isEqualTo(phase);
      assertThat(p.getMetadata().getDeletionTimestamp() != null).isEqualTo(terminating);
      assertThat(Observed.label(p, JobLabels.REPLICA_TYPE)).isEqualTo("launcher");
      assertThat(Observed.index(p)).isZero();
      assertThat(CarrierJobs.carrierOf(p)).isEqualTo("pi-launcher");
    });
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"Stint's labels, false", "the MPI Operator's labels, true"})
  void aJobsPodIsTheLauncherWhateverItsNameAndNoStandInIsAdded(String name, boolean upstream) {
    Job job = job("pi-launcher", null, false, upstream ? UPSTREAM_LABELS : STINT_LABELS);
    Pod pod = podOf(job, "pi-launcher-x7k2p");

    List<Pod> pods = CarrierJobs.observedPods(List.of(pod), List.of(job), UPSTREAM);

    assertThat(pods).singleElement().satisfies(p -> {
      assertThat(p.getMetadata().getName()).isEqualTo("pi-launcher-x7k2p");
      assertThat(Observed.label(p, JobLabels.REPLICA_TYPE)).isEqualTo("launcher");
      assertThat(Observed.index(p)).isZero();
    });
    assertThat(pod.getMetadata().getLabels()).as("the observed pod is left as it is")
        .isEqualTo(upstream ? UPSTREAM_LABELS : STINT_LABELS);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("deletions")
  void deletingACarriedReplicaDeletesItsJob(String name, List<Pod> pods, List<Job> carriers, List<Action> decided,
                                           List<Action> sent) {
    // the launcher named as having lost track changes none of these: no row's Job counts a pod that is gone
    assertThat(CarrierJobs.withCarriers(decided, new Observed(pods, List.of(), List.of(), carriers),
        Set.of("pi-launcher"))).isEqualTo(sent);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("podlessJobs")
  void aJobCountingAPodThatIsGoneIsReplacedOnceItHasLostTrack(String name, Job job, boolean counting) {
    Observed observed = new Observed(CarrierJobs.observedPods(List.of(), List.of(job), UPSTREAM), List.of(),
        List.of(), List.of(job));

    Action replace = new Action.DeletePod("pi-launcher", "its Job counts a pod that is gone", null, "pi-launcher");

    assertThat(CarrierJobs.countingAGonePod(observed)).as("counting a gone pod")
        .isEqualTo(counting ? List.of(job) : List.of());
    List<Action> beforeTheBound = CarrierJobs.withCarriers(List.of(), observed, Set.of());
    assertThat(beforeTheBound).doesNotContain(replace);
    List<Action> lostTrack = CarrierJobs.withCarriers(List.of(), observed, Set.of("pi-launcher"));
    if (counting) {
      assertThat(lostTrack).containsExactly(replace);
    } else {
      assertThat(lostTrack).as("named or not, the same actions").isEqualTo(beforeTheBound);
    }
  }

  static Stream<Arguments> podlessJobs() {
    Job active = withStatus(job("pi-launcher", null, false, STINT_LABELS), s -> s.withActive(1));
    return Stream.of(
        Arguments.of("active 1, no pod: counts a gone pod", active, true),
        Arguments.of("a failure not folded into a condition yet", withStatus(job("pi-launcher", null, false,
            STINT_LABELS), s -> s.withNewUncountedTerminatedPods().withFailed("pod-uid").endUncountedTerminatedPods()),
            true),
        Arguments.of("failed 1, no condition yet", withStatus(job("pi-launcher", null, false, STINT_LABELS),
            s -> s.withFailed(1)), true),
        Arguments.of("never made a pod (a quota): no", job("pi-launcher", null, false, STINT_LABELS), false),
        Arguments.of("active 0 on its status: no", withStatus(job("pi-launcher", null, false, STINT_LABELS),
            s -> s.withActive(0)), false),
        Arguments.of("complete: no", withStatus(job("pi-launcher", "Complete", false, STINT_LABELS),
            s -> s.withSucceeded(1)), false),
        Arguments.of("being deleted: no", new JobBuilder(active).editMetadata()
            .withDeletionTimestamp("2026-01-01T00:01:00Z").endMetadata().build(), false));
  }

  @Test
  void aJobWithItsPodCountsNoGonePod() {
    Job active = withStatus(job("pi-launcher", null, false, STINT_LABELS), s -> s.withActive(1));
    Observed observed = new Observed(CarrierJobs.observedPods(List.of(podOf(active, "pi-launcher-x7k2p")),
        List.of(active), UPSTREAM), List.of(), List.of(), List.of(active));

    assertThat(CarrierJobs.countingAGonePod(observed)).isEmpty();
    assertThat(CarrierJobs.withCarriers(List.of(), observed, Set.of("pi-launcher"))).as("its pod is there").isEmpty();
  }

  private static Job withStatus(Job job, UnaryOperator<JobStatusBuilder> status) {
    JobStatusBuilder b = new JobStatusBuilder(job.getStatus() == null ? new JobStatus() : job.getStatus());
    return new JobBuilder(job).withStatus(status.apply(b).build()).build();
  }

  static Stream<Arguments> deletions() {
    Job running = job("pi-launcher", null, false, STINT_LABELS);
    Pod launcher = podOf(running, "pi-launcher-x7k2p");
    Pod worker = new PodBuilder().withNewMetadata().withName("pi-worker-0").endMetadata().build();
    Job suspended = job("pi-launcher", null, true, UPSTREAM_LABELS);
    Pod standIn = CarrierJobs.standIn(suspended);
    Job failed = job("pi-launcher", "Failed", false, STINT_LABELS);
    Pod failedPod = podOf(failed, "pi-launcher-x7k2p");
    return Stream.of(
        Arguments.of("a launcher pod: its Job and the pod", List.of(launcher, worker), List.of(running),
            List.of(new Action.DeletePod("pi-launcher-x7k2p", "job suspended"),
                new Action.DeletePod("pi-worker-0", "job suspended")),
            List.of(new Action.DeletePod("pi-launcher-x7k2p", "job suspended", null, "pi-launcher"),
                new Action.DeletePod("pi-worker-0", "job suspended"))),
        Arguments.of("a worker pod alone: as before", List.of(worker), List.of(),
            List.of(new Action.DeletePod("pi-worker-0", "restart")),
            List.of(new Action.DeletePod("pi-worker-0", "restart"))),
        Arguments.of("a suspended Job the MPI Operator left: deleted", List.of(standIn), List.of(suspended),
            List.of(),
            List.of(new Action.DeletePod("pi-launcher", "suspended launcher Job of another controller", null,
                "pi-launcher"))),
        Arguments.of("a failed Job with no pod: deleted, to be replaced", List.of(CarrierJobs.standIn(failed)),
            List.of(failed), List.of(),
            List.of(new Action.DeletePod("pi-launcher", "its Job failed with no pod left", null, "pi-launcher"))),
        Arguments.of("a failed Job that kept its failed pod: the engine judges the pod", List.of(failedPod),
            List.of(failed), List.of(), List.of()));
  }

  private static Job job(String name, String ended, boolean suspended, Map<String, String> templateLabels) {
    JobBuilder b = new JobBuilder().withNewMetadata().withName(name).withNamespace("ns").withUid(name + "-uid")
        .withCreationTimestamp("2026-01-01T00:00:00Z")
        .addNewOwnerReference().withApiVersion("kubeflow.org/v2beta1").withKind("MPIJob").withName("pi")
        .withUid("job-uid").withController(true).endOwnerReference().endMetadata()
        .withNewSpec().withSuspend(suspended ? true : null).withNewTemplate().withNewMetadata()
        .withLabels(templateLabels).endMetadata().withNewSpec().addNewContainer().withName("main").endContainer()
        .endSpec().endTemplate().endSpec();
    if (ended != null) {
      b.withNewStatus().addNewCondition().withType(ended).withStatus("True").endCondition().endStatus();
    }
    return b.build();
  }

  private static Pod podOf(Job job, String name) {
    return new PodBuilder().withNewMetadata().withName(name).withLabels(job.getSpec().getTemplate().getMetadata()
            .getLabels()).addNewOwnerReference().withApiVersion("batch/v1").withKind("Job")
        .withName(job.getMetadata().getName()).withUid(job.getMetadata().getUid()).withController(true)
        .endOwnerReference().endMetadata().withNewStatus().withPhase("Running").endStatus().build();
  }
}
