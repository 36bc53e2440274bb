package dev.stint.core.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.decision.Observed;
import dev.stint.core.model.Action;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class CreationsInFlightTest {
  private static final Instant T0 = Instant.parse("2026-12-02T01:00:00Z");

  private Instant now = T0;
  private final CreationsInFlight creations = new CreationsInFlight(new Clock() {
    @Override public ZoneId getZone() { return ZoneOffset.UTC; }
    @Override public Clock withZone(ZoneId zone) { return this; }
    @Override public Instant instant() { return now; }
  });

  static Pod pod(String name) {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata().build();
  }

  static Service service(String name) {
    return new ServiceBuilder().withNewMetadata().withName(name).endMetadata().build();
  }

  static final Action CREATE_A = new Action.CreatePod(pod("a"));
  static final Action CREATE_B = new Action.CreatePod(pod("b"));
  static final Action SERVICE_A = new Action.CreateService(service("a"));
  static final Action DELETE_C = new Action.DeletePod("c", "job suspended");

  private static Observed observing(List<Pod> pods, List<Service> services) {
    return new Observed(pods, services, List.of());
  }

  @Test
  void aCreationSentIsNotSentAgainWhileTheCacheDoesNotShowIt() {
    creations.sent("job", List.of(CREATE_A, SERVICE_A));

    assertThat(creations.unsent("job", List.of(CREATE_A, CREATE_B, SERVICE_A, DELETE_C), Observed.empty()))
        .containsExactly(CREATE_B, DELETE_C);
  }

  @Test
  void aChildTheCacheShowsEndsItsEntry() {
    creations.sent("job", List.of(CREATE_A, SERVICE_A));

    // the pod is shown, the service of the same name not yet: only the pod's entry ends
    assertThat(creations.unsent("job", List.of(SERVICE_A), observing(List.of(pod("a")), List.of())))
        .isEmpty();
    // the service shown too: nothing is held back any more, a pod deleted since it was shown is created again
    assertThat(creations.unsent("job", List.of(CREATE_A, CREATE_B), observing(List.of(), List.of(service("a")))))
        .containsExactly(CREATE_A, CREATE_B);
    assertThat(creations.size()).isZero();
  }

  @Test
  void anEntryLapsesAfterTheExpiry() {
    creations.sent("job", List.of(CREATE_A));

    now = T0.plus(CreationsInFlight.EXPIRY).minusSeconds(1);
    assertThat(creations.unsent("job", List.of(CREATE_A), Observed.empty())).isEmpty();
    now = T0.plus(CreationsInFlight.EXPIRY);
    assertThat(creations.unsent("job", List.of(CREATE_A), Observed.empty())).containsExactly(CREATE_A);
    assertThat(creations.size()).isZero();
  }

  @Test
  void creationsAreKeptPerJobAndForgottenWithTheJob() {
    creations.sent("job", List.of(CREATE_A, DELETE_C));

    assertThat(creations.unsent("other", List.of(CREATE_A), Observed.empty())).containsExactly(CREATE_A);
    creations.forget("job");
    assertThat(creations.unsent("job", List.of(CREATE_A), Observed.empty())).containsExactly(CREATE_A);
  }

  @Test
  void aChildThatLeavesTheCacheEndsItsEntryEvenIfNoPassSawIt() {
    creations.sent("job", List.of(CREATE_A, SERVICE_A));

    creations.removed(owned(pod("a"), "other-job"));
    creations.removed(pod("a")); // no controller: not a child of any job
    assertThat(creations.unsent("job", List.of(CREATE_A), Observed.empty())).as("another job's pod a").isEmpty();

    creations.removed(owned(pod("a"), "job"));
    assertThat(creations.unsent("job", List.of(CREATE_A, SERVICE_A), Observed.empty()))
        .as("the pod was created and deleted before a pass saw it: created again now, not after the expiry")
        .containsExactly(CREATE_A);
    creations.removed(owned(service("a"), "job"));
    assertThat(creations.size()).isZero();
  }

  private static <T extends HasMetadata> T owned(T child, String jobUid) {
    child.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder()
        .withUid(jobUid).withController(true).withKind("PyTorchJob").withName("job").build()));
    return child;
  }

  @Test
  void onlyCreationsOfPodsAndServicesAreRemembered() {
    creations.sent("job", List.of(DELETE_C));

    assertThat(creations.size()).isZero();
  }
}
