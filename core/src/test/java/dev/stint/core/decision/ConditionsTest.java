package dev.stint.core.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.spi.api.JobStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The upstream condition algorithm, step by step (kubeflow-v1-behaviour §1.5). */
class ConditionsTest {

  static List<String> types(JobStatus s) {
    return s.getConditions().stream().map(c -> c.getType() + "=" + c.getStatus()).toList();
  }

  @Test
  void sameStatusAndReasonChangesNothing() {
    JobStatus s = new JobStatus();
    assertThat(Conditions.set(s, ConditionType.Running, true, "R", "first", "t1")).isTrue();
    assertThat(Conditions.set(s, ConditionType.Running, true, "R", "second", "t2")).isFalse();
    assertThat(s.condition("Running").orElseThrow().getMessage()).isEqualTo("first");
  }

  @Test
  void sameStatusOtherReasonKeepsTransitionTimeAndMovesToTheEnd() {
    JobStatus s = new JobStatus();
    Conditions.set(s, ConditionType.Running, true, "A", "m", "t1");
    Conditions.set(s, ConditionType.Created, true, "C", "m", "t2");
    Conditions.set(s, ConditionType.Running, true, "B", "m", "t3");
    assertThat(types(s)).containsExactly("Created=True", "Running=True");
    assertThat(s.condition("Running").orElseThrow().getLastTransitionTime()).isEqualTo("t1");
    assertThat(s.condition("Running").orElseThrow().getLastUpdateTime()).isEqualTo("t3");
  }

  @Test
  void aJobThatFailsWhileRestartingNoLongerSaysItRestarts() {
    JobStatus s = new JobStatus();
    Conditions.set(s, ConditionType.Restarting, true, "X", "new pods start in 80 s", "t1");
    Conditions.set(s, ConditionType.Failed, true, "F", "m", "t2");
    assertThat(types(s)).containsExactly("Restarting=False", "Failed=True");
  }

  @Test
  void messageRefreshedInPlaceOnlyForTheSameStatusAndReason() {
    JobStatus s = new JobStatus();
    Conditions.set(s, ConditionType.Suspended, true, "W", "by LocalQueue a.", "t1");
    Conditions.set(s, ConditionType.Created, true, "C", "m", "t2");
    assertThat(Conditions.refreshMessage(s, ConditionType.Suspended, true, "W", "by LocalQueue b.")).isTrue();
    assertThat(s.condition("Suspended").orElseThrow().getMessage()).isEqualTo("by LocalQueue b.");
    assertThat(types(s)).containsExactly("Suspended=True", "Created=True"); // not moved
    assertThat(Conditions.refreshMessage(s, ConditionType.Suspended, true, "W", "by LocalQueue b.")).isFalse();
    assertThat(Conditions.refreshMessage(s, ConditionType.Suspended, true, "Other", "x")).isFalse();
    assertThat(Conditions.refreshMessage(s, ConditionType.Suspended, false, "W", "x")).isFalse();
  }

  @Test
  void runningAndRestartingExcludeEachOther() {
    JobStatus s = new JobStatus();
    Conditions.set(s, ConditionType.Running, true, "R", "m", "t1");
    Conditions.set(s, ConditionType.Restarting, true, "X", "m", "t2");
    assertThat(types(s)).containsExactly("Restarting=True");
    Conditions.set(s, ConditionType.Running, true, "R", "m", "t3");
    assertThat(types(s)).containsExactly("Running=True");
  }

  @Test
  void terminalConditionTurnsRunningFalseAndFailedIsAbsorbing() {
    JobStatus s = new JobStatus();
    Conditions.set(s, ConditionType.Running, true, "R", "m", "t1");
    Conditions.set(s, ConditionType.Failed, true, "F", "m", "t2");
    assertThat(types(s)).containsExactly("Running=False", "Failed=True");
    assertThat(Conditions.set(s, ConditionType.Succeeded, true, "S", "m", "t3")).isFalse();
    assertThat(types(s)).containsExactly("Running=False", "Failed=True");
  }
}
