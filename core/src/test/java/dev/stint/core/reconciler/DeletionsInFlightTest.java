package dev.stint.core.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.model.Action;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeletionsInFlightTest {
  private final DeletionsInFlight deletions = new DeletionsInFlight();

  static Pod pod(String name, String uid, String version) {
    return new PodBuilder().withNewMetadata().withName(name).withUid(uid).withResourceVersion(version).endMetadata()
        .build();
  }

  static final Action DELETE_A = new Action.DeletePod("a", "job suspended");
  static final Action DELETE_B = new Action.DeletePod("b", "job suspended");
  static final Action CREATE_C = new Action.CreatePod(new PodBuilder().withNewMetadata().withName("c").endMetadata()
      .build());

  @Test
  void aDeletionSentIsNotSentAgainWhileTheCacheShowsThePodAsItWasDeleted() {
    List<Pod> observed = List.of(pod("a", "ua", "10"), pod("b", "ub", "11"));
    deletions.sent("job", List.of(DELETE_A), observed);

    assertThat(deletions.unsent("job", List.of(DELETE_A, DELETE_B, CREATE_C), observed))
        .containsExactly(DELETE_B, CREATE_C);
  }

  @Test
  void aPodSeenAtAnotherVersionIsDeletedAgainWhenTheDecisionSaysSo() {
    deletions.sent("job", List.of(DELETE_A), List.of(pod("a", "ua", "10")));

    // the cache caught up (deletionTimestamp set: a new version), or the pod changed and the deletion did not happen
    assertThat(deletions.unsent("job", List.of(DELETE_A), List.of(pod("a", "ua", "12")))).containsExactly(DELETE_A);
    // the entry is gone: the old version no longer holds anything back either
    assertThat(deletions.unsent("job", List.of(DELETE_A), List.of(pod("a", "ua", "10")))).containsExactly(DELETE_A);
    assertThat(deletions.size()).isZero();
  }

  @Test
  void aDeletionOnlyOfThePodAsLastSeenIsNotTakenForDone() {
    Action.DeletePod conditional = new Action.DeletePod("a", "job finished", "10");
    List<Pod> observed = List.of(pod("a", "ua", "10"));
    deletions.sent("job", List.of(conditional), observed);

    // refused if the pod ended meanwhile: it stays, and must not look like a pod going (its Service would go)
    assertThat(deletions.asTheDecisionSees("job", observed, "2026-12-07T00:00:00Z"))
        .allSatisfy(p -> assertThat(p.getMetadata().getDeletionTimestamp()).isNull());
    assertThat(deletions.unsent("job", List.of(conditional), observed)).containsExactly(conditional);
  }

  @Test
  void aNewPodOfTheSameNameIsDeletedWhenTheDecisionSaysSo() {
    deletions.sent("job", List.of(DELETE_A), List.of(pod("a", "ua", "10")));

    assertThat(deletions.unsent("job", List.of(DELETE_A), List.of(pod("a", "ua-2", "10")))).containsExactly(DELETE_A);
  }

  @Test
  void deletionsAreKeptPerJobAndForgottenWithTheJob() {
    List<Pod> observed = List.of(pod("a", "ua", "10"));
    deletions.sent("job", List.of(DELETE_A), observed);

    assertThat(deletions.unsent("other", List.of(DELETE_A), observed)).containsExactly(DELETE_A);
    deletions.forget("job");
    assertThat(deletions.unsent("job", List.of(DELETE_A), observed)).containsExactly(DELETE_A);
  }
}
