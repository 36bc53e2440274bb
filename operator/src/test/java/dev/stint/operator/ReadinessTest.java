package dev.stint.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ReadinessTest {

  /** The kinds and their informers as the operator would report them. */
  private record FakeInformers(boolean started, List<String> unhealthy, Map<String, String> down,
                               boolean anyServed) implements Readiness.Informers {
    FakeInformers(boolean started, List<String> unhealthy) {
      this(started, unhealthy, Map.of(), true);
    }
  }

  private static final String NO_RIGHT = "the service account may not list jaxjobs.kubeflow.org cluster-wide";

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

  @ParameterizedTest(name = "{0}")
  @MethodSource("kindsDown")
  void namesTheKindsDown(String name, Map<String, String> down, boolean anyServed, boolean ready,
                         String description) {
    Readiness readiness = new Readiness(() -> true, new FakeInformers(true, List.of(), down, anyServed),
        leadership(Lead.LEADER));

    assertThat(readiness.check()).isEqualTo(new Readiness.State(ready, description));
  }

  static Stream<Arguments> kindsDown() {
    Map<String, String> twoDown = new LinkedHashMap<>();
    twoDown.put("JAXJob", NO_RIGHT);
    twoDown.put("TFJob", "CRD tfjobs.kubeflow.org is not installed");
    return Stream.of(
        Arguments.of("a kind down while others are served: ready, and said", Map.of("JAXJob", NO_RIGHT), true, true,
            "ready: leader\nnot served: JAXJob: " + NO_RIGHT),
        Arguments.of("each kind down on a line of its own, in the kinds' order", twoDown, true, true,
            "ready: leader\nnot served: JAXJob: " + NO_RIGHT
                + "\nnot served: TFJob: CRD tfjobs.kubeflow.org is not installed"),
        Arguments.of("no kind served: not ready", Map.of("JAXJob", NO_RIGHT), false, false,
            "not ready: no kind served\nnot served: JAXJob: " + NO_RIGHT));
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
