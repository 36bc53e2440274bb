package dev.stint.core.kueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KueueOwnersTest {
  static final KueueOwners OWNERS = new KueueOwners(Set.of("test.stint.dev/TestJob"));

  @ParameterizedTest(name = "{0} {1}, controller {2}: {3}")
  @CsvSource({
      "jobset.x-k8s.io/v1alpha2, JobSet,     true,  true",
      "trainer.kubeflow.org/v1alpha1, TrainJob, true, true",
      "batch/v1,                 Job,        true,  true",
      "apps/v1,                  Deployment, true,  true",
      "v1,                       Pod,        true,  true",
      "ray.io/v1,                RayJob,     true,  true",
      "test.stint.dev/v1,        TestJob,    true,  true",   // a kind Stint serves: one of Kueue's external frameworks
      "v1,                       ConfigMap,  true,  false",  // not a kind Kueue integrates: the job is defaulted
      "argoproj.io/v1alpha1,     Workflow,   true,  false",
      "example.com/v1,           JobSet,     true,  false",  // the kind's name alone is not enough
      "jobset.x-k8s.io/v1alpha2, JobSet,     false, false"}) // an owner that is not the controller
  void aJobIsLeftToItsOwnerOnlyWhenKueueManagesTheOwnersKind(String apiVersion, String kind, boolean controller,
                                                           boolean managed) {
    OwnerReference owner = new OwnerReferenceBuilder().withApiVersion(apiVersion).withKind(kind).withName("o")
        .withUid("u").withController(controller).build();
    assertThat(OWNERS.controllerManagedByKueue(List.of(owner))).isEqualTo(managed);
  }

  @org.junit.jupiter.api.Test
  void noOwnersIsNoManagedOwner() {
    assertThat(OWNERS.controllerManagedByKueue(null)).isFalse();
    assertThat(OWNERS.controllerManagedByKueue(List.of())).isFalse();
  }
}
