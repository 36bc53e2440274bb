package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two operator processes with leader election on the real API server, as two replicas of the Deployment: exactly one
 * reconciles; when it is killed (SIGKILL) the other takes the Lease over and reconciles; a leader that loses the
 * Lease (frozen longer than the lease lasts) exits, for its Deployment to restart it clean; a leader stopped with
 * SIGTERM gives the Lease up on its way out. The Lease lasts 15 s
 * (JOSDK's default); every wait is generous and no assertion is on how long a step took.
 */
class LeaderElectionIT {
  private static final Duration START = Duration.ofSeconds(120);
  /** Far above a lease duration (15 s) plus the standby's retry period (2 s, with jitter). */
  private static final Duration TAKEOVER = Duration.ofSeconds(90);
  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.namespace("leader");
  private final List<OperatorProcess> started = new java.util.ArrayList<>();

  @AfterEach
  void stopOperators() throws InterruptedException {
    for (OperatorProcess operator : started) {
      operator.close();
    }
  }

  @Test
  void oneOfTwoReconcilesAndTheOtherTakesOverWhenItIsKilled() throws InterruptedException {
    Pair pair = startPair("kill");
    apply("first");
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(pods("first")).hasSize(2));
    // the pods can be seen before the leader's line about them is written
    await().atMost(Duration.ofSeconds(60))
        .untilAsserted(() -> assertThat(pair.leader.log()).contains(cluster.ns() + "/first"));
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(pair.standby.log())
        .contains("Waiting for leadership (held by " + pair.leaderName + ")"));
    assertThat(pair.standby.log()).doesNotContain("first");

    pair.leader.kill();

    await().atMost(TAKEOVER).untilAsserted(() -> assertThat(holder("kill")).isEqualTo(pair.standbyName));
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(pair.standby.log())
        .contains("Became leader (" + pair.standbyName + ")"));
    apply("second");
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(pods("second")).hasSize(2));
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(pair.standby.log())
        .contains(cluster.ns() + "/second"));
  }

  @Test
  void aLeaderThatLostTheLeaseExitsWithAnError() throws InterruptedException {
    Pair pair = startPair("lose");

    pair.leader.pause(); // it can neither renew nor notice: a long GC pause, a frozen node
    try {
      await().atMost(TAKEOVER).untilAsserted(() -> assertThat(holder("lose")).isEqualTo(pair.standbyName));
    } finally {
      pair.leader.resume();
    }

    await().atMost(Duration.ofSeconds(60)).until(() -> !pair.leader.alive());
    assertThat(pair.leader.exitValue()).isEqualTo(1);
    assertThat(pair.leader.log()).contains("Lost leadership (" + pair.leaderName + ")");
    assertThat(pair.standby.alive()).isTrue();
  }

  @Test
  void aLeaderThatStopsGivesTheLeaseUp() throws InterruptedException {
    Pair pair = startPair("stop");

    pair.leader.close(); // SIGTERM, as a rolling update or a drain stops a pod; returns once the process has exited

    assertThat(pair.leader.alive()).isFalse();
    assertThat(holder("stop")).isNotEqualTo(pair.leaderName); // released, not left to expire
    assertThat(pair.leader.log()).contains("Released Lease " + cluster.ns() + "/stop");
    await().atMost(TAKEOVER).untilAsserted(() -> assertThat(holder("stop")).isEqualTo(pair.standbyName));
  }

  /** The two processes, told apart once one holds the Lease. */
  private record Pair(OperatorProcess leader, String leaderName, OperatorProcess standby, String standbyName) { }

  private Pair startPair(String lease) throws InterruptedException {
    OperatorProcess a = start(lease, lease + "-a");
    OperatorProcess b = start(lease, lease + "-b");
    a.awaitStarted(START);
    b.awaitStarted(START);
    await().atMost(TAKEOVER).until(() -> holder(lease) != null);
    String holder = holder(lease);
    Pair pair = holder.equals(lease + "-a") ? new Pair(a, holder, b, lease + "-b")
        : new Pair(b, holder, a, lease + "-a");
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(pair.leader.log())
        .contains("Became leader (" + pair.leaderName + ")"));
    return pair;
  }

  private OperatorProcess start(String lease, String identity) {
    OperatorProcess operator = OperatorProcess.start(Map.of("POD_NAME", identity), "--leader-election=true",
        "--leader-election-namespace=" + cluster.ns(), "--leader-election-id=" + lease, "--namespaces=" + cluster.ns(),
        "--frameworks=pytorch");
    started.add(operator);
    return operator;
  }

  private static String holder(String lease) {
    Lease found = cluster.resources(Lease.class).withName(lease).get();
    return found == null || found.getSpec() == null ? null : found.getSpec().getHolderIdentity();
  }

  private static List<?> pods(String job) {
    return cluster.pods().withLabel("training.kubeflow.org/job-name", job).list().getItems();
  }

  /** A PyTorchJob of a master and a worker, in the class's namespace. */
  private static void apply(String name) {
    MnistJob.apply(cluster.ns(), name, 1);
  }
}
