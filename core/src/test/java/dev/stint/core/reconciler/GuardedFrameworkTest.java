package dev.stint.core.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stint.core.model.EngineFramework;
import dev.stint.core.testing.TestFramework;
import dev.stint.core.testing.TestJobs;
import dev.stint.spi.JobMessages;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.ReplicaOutcomes;
import dev.stint.spi.SuccessPolicy;
import dev.stint.spi.SupportingResource;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.WithFailureTolerance;
import dev.stint.spi.WithMessages;
import dev.stint.spi.WithSupportingResources;
import dev.stint.spi.WithValidation;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GuardedFrameworkTest {
  private static final TestJob JOB = TestJobs.job("j").workers(1).build();
  private static final ReplicaOutcomes NOTHING_YET = new ReplicaOutcomes(Map.of());

  /** Overrides default methods and fails in several ways. */
  static class Overriding extends TestFramework implements WithSupportingResources<TestJob>, WithValidation<TestJob>,
      WithMessages<TestJob>, WithFailureTolerance<TestJob> {
    @Override public boolean servicePerPod() { return false; }

    @Override public List<SupportingResource> supportingResources(TestJob job, ReplicaOutcomes outcomes) {
      return List.of();
    }

    @Override public List<Class<? extends HasMetadata>> supportingResourceTypes() { return List.of(); }

    @Override public List<String> validate(TestJob job) { return List.of("spec.x: wrong"); }

    @Override public void wire(TestJob job, ReplicaId replica, Pod pod) { throw new IllegalStateException("boom"); }

    @Override public boolean isLeader(TestJob job, ReplicaId replica) { throw new NoSuchMethodError("gone"); }

    @Override public SuccessPolicy successPolicy(TestJob job) {
      return outcomes -> { throw new ArithmeticException("/ by zero"); };
    }

    @Override public JobMessages messages(TestJob job) {
      return new JobMessages() {
        @Override public String running() { return "up"; }

        @Override public String succeeded() { throw new UnsupportedOperationException("no words"); }

        @Override public String failed(String type, int count) { return "down"; }
      };
    }

    @Override public boolean failureIsFatal(TestJob job, String type) { throw new OutOfMemoryError("full"); }

    @Override public String toString() { return "the overriding framework"; }
  }

  /** Guarded, and called as the engine calls it: the guard must keep the capability interfaces visible. */
  private final EngineFramework<TestJob> guarded = EngineFramework.of(GuardedFramework.guard(new Overriding()));

  @Test
  void callsReachTheFrameworksOwnImplementationIncludingOverriddenDefaults() {
    assertThat(guarded.name()).isEqualTo("test");
    assertThat(guarded.servicePerPod()).isFalse();
    assertThat(guarded.validate(JOB)).containsExactly("spec.x: wrong");
    assertThat(guarded.controllerName()).isEqualTo("testjob-controller");
    assertThat(guarded.messages(JOB).running()).isEqualTo("up");
  }

  @Test
  void aRuntimeExceptionBecomesAFailureNamingFrameworkAndMethod() {
    assertThatThrownBy(() -> guarded.wire(JOB, new ReplicaId("Worker", 0), new Pod()))
        .isInstanceOf(FrameworkFailure.class)
        .hasMessage("framework test failed in wire(): java.lang.IllegalStateException: boom")
        .hasCauseInstanceOf(IllegalStateException.class);
  }

  @Test
  void aLinkageErrorIsTheFrameworksFailureToo() {
    assertThatThrownBy(() -> guarded.isLeader(JOB, new ReplicaId("Worker", 0)))
        .isInstanceOf(FrameworkFailure.class)
        .hasMessage("framework test failed in isLeader(): java.lang.NoSuchMethodError: gone");
  }

  @Test
  void callbacksTheFrameworkReturnsAreGuardedToo() {
    SuccessPolicy policy = guarded.successPolicy(JOB);
    assertThatThrownBy(() -> policy.holds(NOTHING_YET)).isInstanceOf(FrameworkFailure.class)
        .hasMessage("framework test failed in successPolicy().holds(): java.lang.ArithmeticException: / by zero");
    assertThatThrownBy(() -> guarded.messages(JOB).succeeded()).isInstanceOf(FrameworkFailure.class)
        .hasMessage("framework test failed in messages().succeeded(): "
            + "java.lang.UnsupportedOperationException: no words");
  }

  @Test
  void otherErrorsPassThroughUnchanged() {
    assertThatThrownBy(() -> guarded.failureIsFatal(JOB, "Worker")).isInstanceOf(OutOfMemoryError.class);
  }

  @Test
  void theGuardIsAnObjectOfItsOwn() {
    TrainingFramework<TestJob> guard = GuardedFramework.guard(new Overriding());
    TrainingFramework<TestJob> other = GuardedFramework.guard(new Overriding());
    assertThat(guard).isEqualTo(guard).isNotEqualTo(other).hasToString("guarded the overriding framework");
    assertThat(guard.hashCode()).isEqualTo(System.identityHashCode(guard));
  }
}
