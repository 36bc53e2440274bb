package dev.stint.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.spi.ReplicaId;
import dev.stint.spi.ReplicaOutcomes;
import dev.stint.spi.SupportingResource;
import dev.stint.testkit.Outcomes;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The framework's answers to the engine: identity, defaults, names, gating, supporting objects, validation. */
class MpiFrameworkTest {
  static final MpiFramework FRAMEWORK = new MpiFramework();
  static final ReplicaId LAUNCHER = new ReplicaId(MPIJobSpec.LAUNCHER, 0);

  /** Outcomes with {@code workers} desired and the given worker indexes running. */
  static ReplicaOutcomes workersRunning(int workers, Integer... running) {
    return Outcomes.of(o -> o.type(MPIJobSpec.LAUNCHER, 1).active(MPIJobSpec.WORKER, workers, running));
  }

  @Test
  void identityIsTheMpiOperators() {
    assertThat(FRAMEWORK.name()).isEqualTo("mpi");
    assertThat(FRAMEWORK.replicaTypes()).containsExactly("Launcher", "Worker");
    assertThat(FRAMEWORK.controllerName()).isEqualTo("mpi-operator");
    assertThat(FRAMEWORK.managedByValue()).isEqualTo("kubeflow.org/mpi-operator");
    assertThat(FRAMEWORK.servicePerPod()).isFalse();
    assertThat(FRAMEWORK.defaults().namesContainer()).as("containers[0] is the main container").isFalse();
    assertThat(FRAMEWORK.defaults().hasPort()).isFalse();
  }

  @Test
  void defaultsDifferByReplicaType() {
    assertThat(FRAMEWORK.defaultRestartPolicy("Launcher")).isEqualTo("OnFailure");
    assertThat(FRAMEWORK.defaultRestartPolicy("Worker")).isEqualTo("Never");
    assertThat(FRAMEWORK.defaultReplicas("Launcher")).isEqualTo(1);
    assertThat(FRAMEWORK.defaultReplicas("Worker")).isZero();
  }

  @Test
  void podNamesAreUpstreams() {
    MPIJob job = TestMPIJobs.job("pi").launcher().workers(2).build();
    assertThat(FRAMEWORK.podName(job, LAUNCHER)).isEqualTo("pi-launcher");
    assertThat(FRAMEWORK.podName(job, new ReplicaId("Worker", 1))).isEqualTo("pi-worker-1");
    assertThat(FRAMEWORK.isLeader(job, LAUNCHER)).isFalse();
  }

  @Test
  void launcherWaitsForEveryWorkerOnlyWhenAsked() {
    MPIJob atStartup = TestMPIJobs.job("pi").launcher().workers(2).build();
    MPIJob waiting = TestMPIJobs.job("pi").launcher().workers(2)
        .spec(s -> s.setLauncherCreationPolicy(MPIJobSpec.WAIT_FOR_WORKERS_READY)).build();

    assertThat(FRAMEWORK.readyToCreate(atStartup, LAUNCHER, workersRunning(2))).isTrue();
    assertThat(FRAMEWORK.readyToCreate(waiting, LAUNCHER, workersRunning(2))).isFalse();
    assertThat(FRAMEWORK.readyToCreate(waiting, LAUNCHER, workersRunning(2, 1))).isFalse();
    assertThat(FRAMEWORK.readyToCreate(waiting, LAUNCHER, workersRunning(2, 0, 1))).isTrue();
    assertThat(FRAMEWORK.readyToCreate(waiting, new ReplicaId("Worker", 0), workersRunning(2))).isTrue();
    assertThat(FRAMEWORK.readyToCreate(waiting, LAUNCHER, workersRunning(0))).as("no workers to wait for").isTrue();
  }

  @Test
  void supportingObjectsLiveWithTheJobAndOnlyTheSecretIsCreatedOnce() {
    MPIJob job = TestMPIJobs.job("pi").namespace("ns").launcher().workers(2).build();
    List<SupportingResource> resources = FRAMEWORK.supportingResources(job, workersRunning(2));

    assertThat(resources).extracting(r -> r.resource().getKind() + "/" + r.resource().getMetadata().getName())
        .containsExactly("Service/pi", "ConfigMap/pi-config", "Secret/pi-ssh");
    assertThat(resources).allSatisfy(r -> assertThat(r.lifetime()).isEqualTo(SupportingResource.Lifetime.WITH_JOB));
    assertThat(resources).extracting(SupportingResource::createOnly).containsExactly(false, false, true);
    assertThat(FRAMEWORK.supportingResourceTypes()).containsExactly(Service.class, ConfigMap.class, Secret.class);
    assertThat(FRAMEWORK.supportingResources(job, workersRunning(2)).get(2).resource())
        .as("the same key pair on every reconcile").isEqualTo(resources.get(2).resource());
  }

  @Test
  void serviceSelectsEveryPodOfTheJob() {
    Service plain = MpiFramework.service(TestMPIJobs.job("pi").launcher().workers(2).build());
    Service launcherComputes = MpiFramework.service(TestMPIJobs.job("pi").launcher().workers(2)
        .spec(s -> s.setRunLauncherAsWorker(true)).build());

    assertThat(plain.getSpec().getClusterIP()).isEqualTo("None");
    assertThat(plain.getSpec().getSelector()).containsOnly(
        Map.entry("training.kubeflow.org/operator-name", "mpi-operator"),
        Map.entry("training.kubeflow.org/job-name", "pi"));
    assertThat(plain.getSpec().getPublishNotReadyAddresses()).isFalse();
    assertThat(launcherComputes.getSpec().getPublishNotReadyAddresses()).isTrue();
  }

  @Test
  void configMapFollowsTheRunningWorkers() {
    MPIJob job = TestMPIJobs.job("pi").namespace("ns").launcher().workers(2).build();

    ConfigMap none = FRAMEWORK.configMap(job, workersRunning(2));
    ConfigMap one = FRAMEWORK.configMap(job, workersRunning(2, 1));

    assertThat(none.getData()).containsExactly(
        Map.entry("hostfile", "pi-worker-0.pi.ns.svc slots=1\npi-worker-1.pi.ns.svc slots=1\n"),
        Map.entry("discover_hosts.sh", "#!/bin/sh\n"));
    assertThat(one.getData().get("discover_hosts.sh")).isEqualTo("#!/bin/sh\necho pi-worker-1.pi.ns.svc\n");
    assertThat(one.getData().get("hostfile")).isEqualTo(none.getData().get("hostfile"));
    assertThat(FRAMEWORK.configMap(TestMPIJobs.job("solo").namespace("ns").launcher().build(), workersRunning(0))
        .getData().get("hostfile")).as("Workers default to 0").isEmpty();
  }

  @Test
  void clusterDomainReachesTheHostfile() {
    MPIJob job = TestMPIJobs.job("pi").namespace("ns").launcher().workers(1).build();
    assertThat(new MpiFramework("example.org").configMap(job, workersRunning(1, 0)).getData()).containsExactly(
        Map.entry("hostfile", "pi-worker-0.pi.ns.svc.example.org slots=1\n"),
        Map.entry("discover_hosts.sh", "#!/bin/sh\necho pi-worker-0.pi.ns.svc.example.org\n"));
  }

  @Test
  void messagesAreTheMpiOperators() {
    var messages = FRAMEWORK.messages(TestMPIJobs.job("pi").namespace("ns").launcher().build());
    assertThat(messages.running()).isEqualTo("MPIJob ns/pi is running.");
    assertThat(messages.succeeded()).isEqualTo("MPIJob ns/pi successfully completed.");
    assertThat(messages.failed("Launcher", 1))
        .isEqualTo("MPIJob ns/pi has failed because 1 Launcher replica(s) failed.");
  }

  @Test
  void validationNamesTheField() {
    assertThat(FRAMEWORK.validate(TestMPIJobs.job("ok").launcher().workers(2).build())).isEmpty();
    assertThat(FRAMEWORK.validate(TestMPIJobs.job("bad").workers(0).restartPolicy("Worker", "Always")
        .spec(s -> {
          s.setSlotsPerWorker(-1);
          s.setMpiImplementation("LAM");
          s.setLauncherCreationPolicy("Later");
        }).build())).containsExactly(
            "spec.mpiReplicaSpecs.Launcher: must be set",
            "spec.mpiReplicaSpecs.Worker.replicas: must be greater than or equal to 1",
            "spec.mpiReplicaSpecs.Worker.restartPolicy: must be Never or OnFailure",
            "spec.slotsPerWorker: must be greater than or equal to 0",
            "spec.mpiImplementation must be one of OpenMPI, Intel, MPICH",
            "spec.launcherCreationPolicy must be AtStartup or WaitForWorkersReady");
    MPIJob twoLaunchers = TestMPIJobs.job("two").launcher().build();
    twoLaunchers.getSpec().getMpiReplicaSpecs().get("Launcher").setReplicas(2);
    assertThat(FRAMEWORK.validate(twoLaunchers)).containsExactly("spec.mpiReplicaSpecs.Launcher.replicas: must be 1");
  }
}
