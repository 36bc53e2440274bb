package dev.stint.core.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.decision.FailureRules.Action;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.api.FailurePolicyRule;
import dev.stint.spi.api.FailurePolicySpec;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which member failure triggers what: the failure policy's judgement as a table (rules, counting, limits). */
class FailureRulesTest {

  static MemberFailure exited(String type, int index, int code, String... reasons) {
    return new MemberFailure(new ReplicaId(type, index), code, Set.of(reasons), Optional.empty());
  }

  static MemberFailure disrupted(String type, int index, String reason) {
    return new MemberFailure(new ReplicaId(type, index), 137, Set.of("DisruptionTarget", reason), Optional.of(reason));
  }

  static FailurePolicyRule rule(String name, String action, List<String> types, List<Integer> codes,
                                List<String> reasons) {
    FailurePolicyRule r = new FailurePolicyRule();
    r.setName(name);
    r.setAction(action);
    r.setTargetReplicaTypes(types);
    r.setOnExitCodes(codes);
    r.setOnPodFailureReasons(reasons);
    return r;
  }

  static FailurePolicySpec policy(Integer maxRestarts, FailurePolicyRule... rules) {
    FailurePolicySpec p = new FailurePolicySpec();
    p.setMaxRestarts(maxRestarts);
    p.setRules(rules.length == 0 ? null : List.of(rules));
    return p;
  }

  static final FailurePolicyRule FAIL_ON_1 = rule("bad-input", "FailJob", null, List.of(1), null);
  static final FailurePolicyRule OOM_FREE = rule(null, "RestartJobAndIgnoreMaxRestarts", null, null,
      List.of("OOMKilled"));
  static final FailurePolicyRule LAUNCHER_FAILS = rule("launcher", "FailJob", List.of("Launcher"), null, null);
  static final FailurePolicyRule DISRUPTIONS_COUNT = rule("count-drains", "RestartJob", null, null,
      List.of("DisruptionTarget"));
  static final FailurePolicyRule PREEMPTION_FAILS = rule("no-preemption", "FailJob", null, null,
      List.of("PreemptionByScheduler"));
  static final FailurePolicyRule EVERYTHING_FAILS = rule("strict", "FailJob", null, null, null);

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("no rules: a failure restarts, counted", policy(3), exited("Worker", 3, 137), 0,
            Action.RESTART_COUNTED, null),
        Arguments.of("no rules: the restart beyond maxRestarts fails", policy(3), exited("Worker", 3, 137), 3,
            Action.FAIL_AT_LIMIT, null),
        Arguments.of("maxRestarts unset is 0, as JobSet's", policy(null), exited("Worker", 0, 1), 0,
            Action.FAIL_AT_LIMIT, null),
        Arguments.of("a disruption restarts free", policy(0), disrupted("Worker", 1, "DeletionByPodGC"), 0,
            Action.RESTART_FREE, null),
        Arguments.of("a disruption restarts free even past the limit", policy(1),
            disrupted("Worker", 1, "EvictionByEvictionAPI"), 5, Action.RESTART_FREE, null),
        Arguments.of("a catch-all rule does not see disruptions", policy(3, EVERYTHING_FAILS),
            disrupted("Worker", 1, "EvictionByEvictionAPI"), 0, Action.RESTART_FREE, null),
        Arguments.of("a catch-all rule sees failures", policy(3, EVERYTHING_FAILS), exited("Worker", 1, 137), 0,
            Action.FAIL_BY_RULE, "strict"),
        Arguments.of("a rule naming DisruptionTarget counts disruptions", policy(3, DISRUPTIONS_COUNT),
            disrupted("Worker", 1, "EvictionByEvictionAPI"), 1, Action.RESTART_COUNTED, "count-drains"),
        Arguments.of("a rule naming DisruptionTarget is held to the limit", policy(1, DISRUPTIONS_COUNT),
            disrupted("Worker", 1, "EvictionByEvictionAPI"), 1, Action.FAIL_AT_LIMIT, "count-drains"),
        Arguments.of("a rule naming the disruption's own reason", policy(3, PREEMPTION_FAILS),
            disrupted("Worker", 1, "PreemptionByScheduler"), 0, Action.FAIL_BY_RULE, "no-preemption"),
        Arguments.of("another disruption reason passes that rule", policy(3, PREEMPTION_FAILS),
            disrupted("Worker", 1, "DeletionByPodGC"), 0, Action.RESTART_FREE, null),
        Arguments.of("exit code rule matches", policy(3, FAIL_ON_1), exited("Worker", 2, 1, "Error"), 0,
            Action.FAIL_BY_RULE, "bad-input"),
        Arguments.of("exit code rule passes other codes", policy(3, FAIL_ON_1), exited("Worker", 2, 137, "Error"), 0,
            Action.RESTART_COUNTED, null),
        Arguments.of("reason rule: OOMKilled restarts free", policy(0, FAIL_ON_1, OOM_FREE),
            exited("Worker", 2, 137, "OOMKilled"), 0, Action.RESTART_FREE, "rule 2"),
        Arguments.of("first matching rule wins", policy(3, EVERYTHING_FAILS, OOM_FREE),
            exited("Worker", 2, 137, "OOMKilled"), 0, Action.FAIL_BY_RULE, "strict"),
        Arguments.of("target type matches", policy(3, LAUNCHER_FAILS), exited("Launcher", 0, 1), 0,
            Action.FAIL_BY_RULE, "launcher"),
        Arguments.of("target type passes others", policy(3, LAUNCHER_FAILS), exited("Worker", 0, 1), 0,
            Action.RESTART_COUNTED, null),
        Arguments.of("codes and reasons must both hold", policy(3,
                rule("both", "FailJob", null, List.of(137), List.of("OOMKilled"))), exited("Worker", 0, 137, "Error"),
            0, Action.RESTART_COUNTED, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void judges(String name, FailurePolicySpec policy, MemberFailure failure, int counted, Action action, String rule) {
    FailureRules.Verdict verdict = FailureRules.judge(policy, failure, counted);
    assertThat(verdict.action()).isEqualTo(action);
    assertThat(verdict.rule()).isEqualTo(rule);
  }

  static Stream<Arguments> words() {
    return Stream.of(
        Arguments.of(exited("Worker", 3, 137), "Worker 3 exited with code 137"),
        Arguments.of(exited("Worker", 3, 137, "OOMKilled"), "Worker 3 was OOMKilled (exit code 137)"),
        Arguments.of(disrupted("Worker", 3, "EvictionByEvictionAPI"),
            "Worker 3 was evicted (its node was drained, or the Eviction API was called)"),
        Arguments.of(disrupted("Worker", 3, "DeletionByPodGC"), "Worker 3's node was lost"),
        Arguments.of(disrupted("PS", 0, "PreemptionByScheduler"), "PS 0 was preempted by a pod of higher priority"),
        Arguments.of(disrupted("Worker", 3, "DeletionByTaintManager"), "Worker 3's node was tainted NoExecute"),
        Arguments.of(exited("Launcher", 0, PodState.UNKNOWN_EXIT_CODE), "Launcher 0 failed without an exit code"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("words")
  void saysWhatHappened(MemberFailure failure, String words) {
    assertThat(failure.describe()).isEqualTo(words);
  }
}
