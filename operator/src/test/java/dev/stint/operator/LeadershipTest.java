package dev.stint.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LeadershipTest {
  private final List<Integer> exits = new CopyOnWriteArrayList<>();
  private final Leadership leadership = new Leadership("stint-0", exits::add);
  private final LeaderElectionConfiguration config = leadership.configuration("stint-system", "stint");
  private final LeaderCallbacks callbacks = config.getLeaderCallbacks().orElseThrow();

  @Test
  void theConfigurationIsJosdksWithThisIdentityAndNoExitOfItsOwn() {
    assertThat(config.getLeaseName()).isEqualTo("stint");
    assertThat(config.getLeaseNamespace()).hasValue("stint-system");
    assertThat(config.getIdentity()).hasValue("stint-0");
    assertThat(config.getLeaseDuration()).isEqualTo(LeaderElectionConfiguration.LEASE_DURATION_DEFAULT_VALUE);
    assertThat(config.isExitOnStopLeading()).isFalse();
  }

  @Test
  void losingTheLeaseWhileLeadingExitsWithOne() {
    callbacks.onNewLeader("stint-0");
    callbacks.onStartLeading();
    assertThat(leadership.leading()).isTrue();

    callbacks.onNewLeader("stint-1");
    callbacks.onStopLeading();

    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(exits).containsExactly(1));
    assertThat(leadership.leading()).isFalse();
    assertThat(leadership.holder()).isEqualTo("stint-1");
  }

  @Test
  void aLeaderWhoseRenewalsLapseExitsOnceWithoutWaitingForTheElector() {
    java.util.concurrent.atomic.AtomicBoolean lapsed = new java.util.concurrent.atomic.AtomicBoolean();
    leadership.watch(lapsed::get);
    callbacks.onStartLeading();

    lapsed.set(true); // the elector's renewal is held in a slow request: it has not called back
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(exits).containsExactly(1));
    assertThat(leadership.leading()).isFalse();

    callbacks.onStopLeading(); // the elector's own word, later
    assertThat(exits).as("one exit").containsExactly(1);
  }

  @Test
  void aStandbyOrAStoppingLeaderIsNotExitedByTheWatch() {
    leadership.checkLapse(() -> true); // a standby: it never renewed, so the fence says lapsed
    callbacks.onStartLeading();
    leadership.checkLapse(() -> false);
    leadership.stopping();
    leadership.checkLapse(() -> true); // SIGTERM: the Lease is given up on purpose
    assertThat(exits).isEmpty(); // the decision is taken before any exit thread is started
    assertThat(leadership.leading()).isTrue();
  }

  @Test
  void releasingTheLeaseOnTheWayOutDoesNotExit() {
    callbacks.onStartLeading();
    leadership.stopping();
    callbacks.onStopLeading();

    assertThat(leadership.leading()).isFalse();
    assertThat(exits).isEmpty(); // the decision is taken before any exit thread is started
  }

  @Test
  void theLeaseNamespaceComesFromTheOptionThePodTheServiceAccountTheKubeconfig(@TempDir Path tmp)
      throws Exception {
    Path file = Files.writeString(tmp.resolve("namespace"), "from-file\n");
    Path none = tmp.resolve("none");
    assertThat(LeaseLocation.namespace("opt", Map.of("POD_NAMESPACE", "pod"), file, "kube")).isEqualTo("opt");
    assertThat(LeaseLocation.namespace(null, Map.of("POD_NAMESPACE", "pod"), file, "kube")).isEqualTo("pod");
    assertThat(LeaseLocation.namespace(null, Map.of(), file, "kube")).isEqualTo("from-file");
    assertThat(LeaseLocation.namespace(null, Map.of(), none, "kube")).isEqualTo("kube");
    assertThat(LeaseLocation.namespace(null, Map.of(), none, null)).isEqualTo("default");
  }

  @Test
  void theIdentityIsThePodsNameElseTheHostsWithASuffix() {
    assertThat(LeaseLocation.identity(Map.of("POD_NAME", "stint-7d9f-abcde"))).isEqualTo("stint-7d9f-abcde");
    String one = LeaseLocation.identity(Map.of());
    String two = LeaseLocation.identity(Map.of());
    assertThat(one).isNotEqualTo(two).matches(".+-[0-9a-f]{8}");
  }
}
