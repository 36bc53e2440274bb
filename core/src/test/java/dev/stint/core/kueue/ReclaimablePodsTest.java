package dev.stint.core.kueue;

import static dev.stint.core.kueue.KueueWorkloads.workload;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.kueue.WorkloadWrite.ApplyReclaimablePods;
import dev.stint.core.model.JobLabels;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** When a running job's finished replicas are reported reclaimable, and how many. */
class ReclaimablePodsTest {
  static final Map<String, String> NEVER = Map.of("master", "Never", "worker", "Never");

  /** A pod of the replica {@code type-index} in that phase. */
  static Pod pod(String replica, String phase) {
    String[] parts = replica.split("-");
    return new PodBuilder().withNewMetadata().withName("job-" + replica)
        .withLabels(Map.of(JobLabels.REPLICA_TYPE, parts[0], JobLabels.REPLICA_INDEX, parts[1])).endMetadata()
        .withNewStatus().withPhase(phase).endStatus().build();
  }

  static List<Pod> pods(String... replicaPhases) {
    List<Pod> pods = new ArrayList<>();
    for (String rp : replicaPhases) {
      String[] parts = rp.split("=");
      pods.add(pod(parts[0], parts[1]));
    }
    return pods;
  }

  static KueueWorkloads admitted() {
    return workload("w").podSet("master", 1).podSet("worker", 3)
        .admitted("cq", "master", Map.of("cpu", "a"), null).assignment("worker", Map.of("cpu", "a"), null);
  }

  static Map<String, Integer> counts(Object... nameCount) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (int i = 0; i < nameCount.length; i += 2) {
      counts.put((String) nameCount[i], (Integer) nameCount[i + 1]);
    }
    return counts;
  }

  static Stream<Arguments> cases() {
    List<Pod> twoWorkersDone = pods("master-0=Running", "worker-0=Succeeded", "worker-1=Succeeded",
        "worker-2=Running");
    return Stream.of(
        Arguments.of("nothing finished", admitted(), false, pods("master-0=Running", "worker-0=Running"), NEVER,
            null),
        Arguments.of("two workers succeeded", admitted(), false, twoWorkersDone, NEVER, counts("worker", 2)),
        Arguments.of("already reported", admitted().reclaimable("worker", 2), false, twoWorkersDone, NEVER, null),
        Arguments.of("a failed pod is not reclaimable", admitted(), false,
            pods("worker-0=Failed", "worker-1=Running"), NEVER, null),
        Arguments.of("restartPolicy Always starts it again", admitted(), false, twoWorkersDone,
            Map.of("worker", "Always"), null),
        Arguments.of("OnFailure and ExitCode do not restart a success", admitted(), false,
            pods("master-0=Succeeded", "worker-0=Succeeded"), Map.of("master", "OnFailure", "worker", "ExitCode"),
            counts("master", 1, "worker", 1)),
        Arguments.of("two pods of one replica count once", admitted(), false,
            List.of(pod("worker-0", "Succeeded"), new PodBuilder(pod("worker-0", "Succeeded")).editMetadata()
                .withName("job-worker-0-old").endMetadata().build()), NEVER, counts("worker", 1)),
        Arguments.of("never fewer than reported while reserved", admitted().reclaimable("worker", 2), false,
            pods("worker-0=Succeeded"), NEVER, null),
        Arguments.of("a podSet the Workload lacks is ignored", admitted(), false, pods("launcher-0=Succeeded"),
            NEVER, null),
        Arguments.of("not while queued", workload("w").podSet("worker", 3), false, twoWorkersDone, NEVER, null),
        Arguments.of("not once evicted: the release gives it all back", admitted().evicted("Preempted"), false,
            twoWorkersDone, NEVER, null),
        Arguments.of("not when the job ended: Finished gives it all back", admitted(), true, twoWorkersDone, NEVER,
            null),
        Arguments.of("not when Finished", admitted().condition("Finished", "True", "Succeeded"), false,
            twoWorkersDone, NEVER, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void decide(String name, KueueWorkloads workload, boolean jobEnded, List<Pod> pods, Map<String, String> policies,
              Map<String, Integer> expected) {
    Optional<WorkloadWrite> write = ReclaimablePods.decide(workload.view(), jobEnded, pods, policies);
    if (expected == null) {
      assertThat(write).isEmpty();
    } else {
      assertThat(write).contains(new ApplyReclaimablePods(expected));
    }
  }

  /** A gang restart starts succeeded replicas again: a job with a failure policy gives no quota back before it ends. */
  @org.junit.jupiter.api.Test
  void aJobWithAFailurePolicyReclaimsNothing() {
    var plain = dev.stint.core.testing.TestJobs.job("j").leader(1).workers(2).restartPolicy("Never").build();
    org.assertj.core.api.Assertions.assertThat(ReclaimablePods.restartPolicies(plain, FRAMEWORK))
        .containsOnly(Map.entry("leader", "Never"), Map.entry("worker", "Never"));
    var gang = dev.stint.core.testing.TestJobs.job("j").leader(1).workers(2).restartPolicy("Never")
        .runPolicy(p -> p.setFailurePolicy(new dev.stint.spi.api.FailurePolicySpec())).build();
    org.assertj.core.api.Assertions.assertThat(ReclaimablePods.restartPolicies(gang, FRAMEWORK))
        .containsOnly(Map.entry("leader", "Always"), Map.entry("worker", "Always"));
  }

  /**
   * A replica type whose spec sets no restart policy runs with the kind's default: a plugin kind that defaults a type
   * to {@code Always} starts its succeeded replicas again, so they keep their quota (before, the raw spec was read and
   * such a replica was reported reclaimable: Kueue gave its quota away while the pod was started again).
   */
  @org.junit.jupiter.api.Test
  void aTypeWithoutAPolicyRunsWithTheKindsDefault() {
    var alwaysByDefault = dev.stint.core.model.EngineFramework.of(new dev.stint.core.testing.TestFramework() {
      @Override
      public dev.stint.spi.FrameworkDefaults defaults() {
        return new dev.stint.spi.FrameworkDefaults("main", "test-port", 7777, "Always");
      }
    });
    var job = dev.stint.core.testing.TestJobs.job("j").leader(1).workers(2).build();
    org.assertj.core.api.Assertions.assertThat(ReclaimablePods.restartPolicies(job, alwaysByDefault))
        .containsOnly(Map.entry("leader", "Always"), Map.entry("worker", "Always"));
    org.assertj.core.api.Assertions.assertThat(ReclaimablePods.restartPolicies(job, FRAMEWORK))
        .containsOnly(Map.entry("leader", "OnFailure"), Map.entry("worker", "OnFailure"));
  }

  private static final dev.stint.core.model.EngineFramework<dev.stint.testdoubles.TestJob> FRAMEWORK =
      dev.stint.core.model.EngineFramework.of(new dev.stint.core.testing.TestFramework());
}
