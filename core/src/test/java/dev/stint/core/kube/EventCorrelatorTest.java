package dev.stint.core.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.kube.EventCorrelator.Send;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What is sent for a sequence of events: one row per sequence, each event "at second: job reason message". */
class EventCorrelatorTest {
  private static final Instant T0 = Instant.parse("2026-12-02T01:00:00Z");

  /** One event of a sequence: when (seconds after T0), about which job, whether budgeted. */
  record Recorded(long second, String job, boolean budgeted, String reason, String message) {
    static Recorded child(long second, String job, String reason, String message) {
      return new Recorded(second, job, true, reason, message);
    }

    static Recorded own(long second, String job, String reason) {
      return new Recorded(second, job, false, reason, job + " " + reason);
    }
  }

  static Stream<Arguments> sequences() {
    List<Recorded> thirtyPods = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      thirtyPods.add(Recorded.child(0, "a", "SuccessfulCreatePod", "Created pod: a-" + i));
    }
    List<String> thirtyPodsSent = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      thirtyPodsSent.add("create a Created pod: a-" + i);
    }
    thirtyPodsSent.add("create a (combined from similar events): Created pod: a-9");
    for (int i = 10; i < 25; i++) {
      thirtyPodsSent.add("patch a." + 10 + " count " + (i - 8) + " (combined from similar events): Created pod: a-" + i);
    }
    for (int i = 25; i < 30; i++) {
      thirtyPodsSent.add("drop");
    }
    return Stream.of(
        Arguments.of("distinct events are each created",
            List.of(Recorded.own(0, "a", "Created"), Recorded.child(0, "a", "SuccessfulCreatePod", "Created pod: a-0"),
                Recorded.child(0, "a", "SuccessfulCreatePod", "Created pod: a-1")),
            List.of("create a a Created", "create a Created pod: a-0", "create a Created pod: a-1")),
        Arguments.of("a repeated event bumps the count of the first (resume after suspend)",
            List.of(Recorded.child(0, "a", "SuccessfulCreatePod", "Created pod: a-0"),
                Recorded.child(30, "a", "SuccessfulDeletePod", "Deleted pod: a-0"),
                Recorded.child(60, "a", "SuccessfulCreatePod", "Created pod: a-0")),
            List.of("create a Created pod: a-0", "create a Deleted pod: a-0", "patch a.1 count 2 Created pod: a-0")),
        Arguments.of("the same message about two jobs is two events",
            List.of(Recorded.child(0, "a", "R", "m"), Recorded.child(0, "b", "R", "m")),
            List.of("create a m", "create b m")),
        Arguments.of("from the 10th message of one reason they are combined; 25 per job, then dropped", thirtyPods,
            thirtyPodsSent),
        Arguments.of("the job's own events are never dropped",
            Stream.concat(Stream.generate(() -> Recorded.child(0, "a", "R", "m")).limit(25),
                Stream.of(Recorded.child(0, "a", "R", "m"), Recorded.own(0, "a", "Succeeded"))).toList(),
            Stream.concat(Stream.concat(Stream.of("create a m"),
                Stream.iterate(2, i -> i + 1).limit(24).map(i -> "patch a.1 count " + i + " m")),
                Stream.of("drop", "create a a Succeeded")).toList()),
        Arguments.of("the budget grows back by one every 5 minutes",
            Stream.concat(Stream.generate(() -> Recorded.child(0, "a", "R", "m")).limit(26),
                Stream.of(Recorded.child(299, "a", "R", "m"), Recorded.child(300, "a", "R", "m"))).toList(),
            Stream.concat(Stream.concat(Stream.of("create a m"),
                Stream.iterate(2, i -> i + 1).limit(24).map(i -> "patch a.1 count " + i + " m")),
                Stream.of("drop", "drop", "patch a.1 count 28 m")).toList()),
        Arguments.of("similar messages more than 10 minutes apart are not combined",
            Stream.iterate(0, i -> i + 1).limit(10)
                .map(i -> Recorded.child(i * 601L, "a", "R", "m" + i)).toList(),
            Stream.iterate(0, i -> i + 1).limit(10).map(i -> "create a m" + i).toList()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sequences")
  void sends(String description, List<Recorded> sequence, List<String> expected) {
    SettableClock clock = new SettableClock();
    EventCorrelator correlator = new EventCorrelator(clock);
    List<String> sent = new ArrayList<>();
    int n = 0;
    for (Recorded r : sequence) {
      clock.now = T0.plusSeconds(r.second());
      n++;
      Send what = correlator.correlate(event(r, r.job() + "." + n), r.budgeted());
      sent.add(describe(r.job(), what));
    }
    assertThat(sent).isEqualTo(expected);
  }

  private static String describe(String job, Send what) {
    if (what instanceof Send.Create c) {
      return "create " + job + " " + c.event().getMessage();
    }
    if (what instanceof Send.Patch p) {
      return "patch " + p.name() + " count " + p.count() + " " + p.message();
    }
    return "drop";
  }

  private static Event event(Recorded r, String name) {
    return new EventBuilder().withNewMetadata().withName(name).withNamespace("ns").endMetadata()
        .withNewInvolvedObject().withApiVersion("kubeflow.org/v1").withKind("PyTorchJob").withName(r.job())
        .withNamespace("ns").withUid("uid-" + r.job()).endInvolvedObject()
        .withType("Normal").withReason(r.reason()).withMessage(r.message()).withCount(1)
        .withLastTimestamp(T0.plusSeconds(r.second()).toString()).withNewSource("stint", null).build();
  }

  private static final class SettableClock extends Clock {
    Instant now = T0;

    @Override public ZoneId getZone() { return ZoneOffset.UTC; }

    @Override public Clock withZone(ZoneId zone) { return this; }

    @Override public Instant instant() { return now; }
  }
}
