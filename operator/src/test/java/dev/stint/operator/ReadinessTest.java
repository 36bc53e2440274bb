package dev.stint.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ReadinessTest {

  /** The informers as JOSDK would report them. */
  private record FakeInformers(boolean started, List<String> unhealthy) implements Readiness.Informers { }

  private enum Lead { OFF, NOBODY_SEEN, LEADER, STANDBY }

  static Stream<Arguments> states() {
    List<String> none = List.of();
    return Stream.of(
        Arguments.of("before the start or after a stop", false, true, none, Lead.LEADER, false,
            "not ready: starting or stopping"),
        Arguments.of("informers not synced yet", true, false, none, Lead.LEADER, false,
            "not ready: informers not started or not synced"),
        Arguments.of("an event source unhealthy", true, true, List.of("tfjob-controller/tensorflow-pods"), Lead.LEADER,
            false, "not ready: unhealthy event sources tfjob-controller/tensorflow-pods"),
        Arguments.of("leading", true, true, none, Lead.LEADER, true, "ready: leader"),
        Arguments.of("a standby is ready, or a rolling update never ends", true, true, none, Lead.STANDBY, true,
            "ready: standby (leader stint-abc)"),
        Arguments.of("a standby before it saw the Lease", true, true, none, Lead.NOBODY_SEEN, true,
            "ready: standby (leader not known yet)"),
        Arguments.of("leader election off", true, true, none, Lead.OFF, true, "ready: leader election off"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("states")
  void answers(String name, boolean running, boolean started, List<String> unhealthy, Lead lead, boolean ready,
               String description) {
    Readiness readiness = new Readiness(() -> running, new FakeInformers(started, unhealthy), leadership(lead));

    assertThat(readiness.check()).isEqualTo(new Readiness.State(ready, description));
  }

  private static Leadership leadership(Lead lead) {
    if (lead == Lead.OFF) {
      return null;
    }
    Leadership leadership = new Leadership("stint-me", code -> { });
    LeaderCallbacks callbacks = leadership.configuration("stint-system", "stint").getLeaderCallbacks().orElseThrow();
    if (lead == Lead.LEADER) {
      callbacks.onNewLeader("stint-me");
      callbacks.onStartLeading();
    } else if (lead == Lead.STANDBY) {
      callbacks.onNewLeader("stint-abc");
    }
    return leadership;
  }
}
