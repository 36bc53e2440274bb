package dev.stint.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.testing.TestJobs;
import dev.stint.spi.api.FailurePolicySpec;
import dev.stint.spi.api.RunPolicy;
import dev.stint.testdoubles.TestJob;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JobFactsTest {
  static final String OURS = "kubeflow.org/training-operator";

  static Stream<Arguments> runPolicies() {
    return Stream.of(
        // run policy edit, suspended, managedBy, ours, gang, one Service per job
        Arguments.of("none", (Consumer<RunPolicy>) p -> { }, false, null, true, false, false),
        Arguments.of("suspended", (Consumer<RunPolicy>) p -> p.setSuspend(true), true, null, true, false, false),
        Arguments.of("suspend false", (Consumer<RunPolicy>) p -> p.setSuspend(false), false, null, true, false, false),
        Arguments.of("managed by us", (Consumer<RunPolicy>) p -> p.setManagedBy(OURS), false, OURS, true, false,
            false),
        Arguments.of("managed by MultiKueue", (Consumer<RunPolicy>) p -> p.setManagedBy("kueue.x-k8s.io/multikueue"),
            false, "kueue.x-k8s.io/multikueue", false, false, false),
        Arguments.of("managed by an empty value", (Consumer<RunPolicy>) p -> p.setManagedBy(""), false, "", false,
            false, false),
        Arguments.of("a failure policy", (Consumer<RunPolicy>) p -> p.setFailurePolicy(new FailurePolicySpec()),
            false, null, true, true, false),
        Arguments.of("PerJob", (Consumer<RunPolicy>) p -> p.setServiceMode("PerJob"), false, null, true, false, true),
        Arguments.of("PerReplica", (Consumer<RunPolicy>) p -> p.setServiceMode("PerReplica"), false, null, true, false,
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("runPolicies")
  void readsTheRunPolicyOnce(String name, Consumer<RunPolicy> edit, boolean suspended, String managedBy, boolean ours,
                             boolean gang, boolean servicePerJob) {
    JobFacts facts = JobFacts.of(TestJobs.job("j").workers(2).runPolicy(edit).build());
    assertThat(facts.suspended()).as("suspended").isEqualTo(suspended);
    assertThat(facts.managedBy()).as("managedBy").isEqualTo(managedBy);
    assertThat(facts.ours(OURS)).as("ours").isEqualTo(ours);
    assertThat(facts.gang()).as("gang").isEqualTo(gang);
    assertThat(facts.servicePerJob()).as("one Service per job").isEqualTo(servicePerJob);
  }

  @Test
  void aJobWithoutSpecOrRunPolicyHasEveryDefault() {
    TestJob noSpec = new TestJob();
    noSpec.setSpec(null);
    TestJob noRunPolicy = TestJobs.job("j").workers(1).build();
    noRunPolicy.getSpec().setRunPolicy(null);
    for (TestJob job : new TestJob[] {noSpec, noRunPolicy}) {
      JobFacts facts = JobFacts.of(job);
      assertThat(facts.runPolicy()).isNotNull();
      assertThat(facts.suspended()).isFalse();
      assertThat(facts.ours(OURS)).isTrue();
      assertThat(facts.gang()).isFalse();
    }
  }
}
