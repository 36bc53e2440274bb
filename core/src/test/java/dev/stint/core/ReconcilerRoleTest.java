package dev.stint.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The role follows the leader election, keeps the caller's callbacks and configuration, and runs its tasks. */
class ReconcilerRoleTest {

  @Test
  void leadingFollowsTheCallbacksAndTheCallersOwnStillRun() {
    List<String> seen = new ArrayList<>();
    var theirs = new LeaderCallbacks(() -> seen.add("their start"), () -> seen.add("their stop"),
        identity -> seen.add("new leader " + identity));
    var config = new LeaderElectionConfiguration("stint", "ops", Duration.ofSeconds(30), Duration.ofSeconds(20),
        Duration.ofSeconds(4), "me", theirs, false);
    ReconcilerRole role = new ReconcilerRole();
    role.whenLeading(() -> seen.add("release orphans, leading=" + role.leading()));
    role.whenLeading(() -> {
      throw new IllegalStateException("a failing task does not stop the others");
    });
    role.whenLeading(() -> seen.add("second task"));

    LeaderElectionConfiguration following = role.following(config);
    assertThat(role.leading()).isFalse();
    assertThat(following.getLeaseName()).isEqualTo("stint");
    assertThat(following.getLeaseNamespace()).contains("ops");
    assertThat(following.getIdentity()).contains("me");
    assertThat(following.getLeaseDuration()).isEqualTo(Duration.ofSeconds(30));
    assertThat(following.getRenewDeadline()).isEqualTo(Duration.ofSeconds(20));
    assertThat(following.getRetryPeriod()).isEqualTo(Duration.ofSeconds(4));
    assertThat(following.isExitOnStopLeading()).isFalse();

    LeaderCallbacks callbacks = following.getLeaderCallbacks().orElseThrow();
    callbacks.onNewLeader("me");
    callbacks.onStartLeading();
    assertThat(role.leading()).isTrue();
    callbacks.onStopLeading();
    assertThat(role.leading()).isFalse();
    assertThat(seen).containsExactly("new leader me", "release orphans, leading=true", "second task", "their start",
        "their stop");
  }
}
