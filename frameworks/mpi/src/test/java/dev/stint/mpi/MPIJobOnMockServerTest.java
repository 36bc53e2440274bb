package dev.stint.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.spi.TrainingFramework;
import dev.stint.testkit.FrameworkOnMockServerTest;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** MPIJobs through the engine on the fabric8 CRUD mock server, with a fake kubelet. */
class MPIJobOnMockServerTest extends FrameworkOnMockServerTest<MPIJob> {

  @Override
  protected TrainingFramework<MPIJob> framework() {
    return new MpiFramework();
  }

  ConfigMap configMap(String job) {
    return client.configMaps().inNamespace("default").withName(job + "-config").get();
  }

  Secret secret(String job) {
    return client.secrets().inNamespace("default").withName(job + "-ssh").get();
  }

  Service service(String job) {
    return client.services().inNamespace("default").withName(job).get();
  }

  @Test
  void theLauncherRunsInABatchJobTheMpiOperatorWouldTakeAsItsOwn() {
    MPIJob created = client.resource(TestMPIJobs.job("lj").launcher().workers(1)
        .restartPolicy("Launcher", "Never").build()).create();
    await().untilAsserted(() -> assertThat(client.batch().v1().jobs().inNamespace("default").withName("lj-launcher")
        .get()).isNotNull());
    Job job = client.batch().v1().jobs().inNamespace("default").withName("lj-launcher").get();
    assertThat(job.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
      assertThat(owner.getUid()).isEqualTo(created.getMetadata().getUid());
      assertThat(owner.getController()).isTrue();
      assertThat(owner.getBlockOwnerDeletion()).isTrue();
    });
    assertThat(job.getSpec().getBackoffLimit()).as("the engine counts restarts").isZero();
    assertThat(job.getSpec().getSuspend()).isNull();
    assertThat(job.getSpec().getTemplate().getSpec().getHostname()).isEqualTo("lj-launcher");
    assertThat(job.getSpec().getTemplate().getMetadata().getLabels()).containsEntry(
        "training.kubeflow.org/replica-type", "launcher").containsEntry("training.kubeflow.org/job-role", "launcher");

    await().untilAsserted(() -> assertThat(pod("lj-launcher")).isNotNull());
    assertThat(pod("lj-launcher").getMetadata().getName()).matches("lj-launcher-[a-z0-9]{5}");
    kubelet.run("lj-worker-0");
    kubelet.run("lj-launcher");
    await().untilAsserted(() -> assertThat(status("lj").getReplicaStatuses().get("Launcher").getActive())
        .isEqualTo(1));
    suspend("lj", true);
    await().untilAsserted(() -> assertThat(client.batch().v1().jobs().inNamespace("default").list().getItems())
        .as("suspension deletes the launcher Job").isEmpty());
    await().untilAsserted(() -> assertThat(pods("lj")).isEmpty());
    suspend("lj", false);
    await().untilAsserted(() -> assertThat(podNames("lj")).containsExactly("lj-launcher", "lj-worker-0"));
    assertThat(pods("lj")).filteredOn(p -> p.getMetadata().getName().startsWith("lj-launcher")).hasSize(1);
  }

  @Test
  void piRunsWithUpstreamNamesAndTheHostfileFollowsTheRunningWorkers() {
    client.resource(TestMPIJobs.job("pi").launcher().workers(2).build()).create();
    await().untilAsserted(() -> assertThat(podNames("pi"))
        .containsExactly("pi-launcher", "pi-worker-0", "pi-worker-1"));
    await().untilAsserted(() -> assertThat(configMap("pi")).isNotNull());
    assertThat(service("pi").getSpec().getClusterIP()).isEqualTo("None");
    assertThat(client.services().inNamespace("default").list().getItems()).as("one service for the job").hasSize(1);
    assertThat(secret("pi").getType()).isEqualTo("kubernetes.io/ssh-auth");
    assertThat(configMap("pi").getData().get("hostfile"))
        .isEqualTo("pi-worker-0.pi.default.svc slots=1\npi-worker-1.pi.default.svc slots=1\n");
    assertThat(configMap("pi").getData().get("discover_hosts.sh")).isEqualTo("#!/bin/sh\n");
    assertThat(pod("pi-launcher").getSpec().getRestartPolicy()).isEqualTo("OnFailure");
    assertThat(pod("pi-worker-0").getSpec().getHostname()).isEqualTo("pi-worker-0");

    kubelet.run("pi-worker-1");
    await().untilAsserted(() -> assertThat(configMap("pi").getData().get("discover_hosts.sh"))
        .isEqualTo("#!/bin/sh\necho pi-worker-1.pi.default.svc\n"));
    kubelet.run("pi-worker-0");
    kubelet.run("pi-launcher");
    await().untilAsserted(() -> assertThat(conditions("pi")).containsExactly(
        "Created=True/MPIJobCreated: MPIJob pi is created.",
        "Running=True/MPIJobRunning: MPIJob default/pi is running."));
    assertThat(configMap("pi").getData().get("discover_hosts.sh"))
        .isEqualTo("#!/bin/sh\necho pi-worker-0.pi.default.svc\necho pi-worker-1.pi.default.svc\n");

    kubelet.succeed("pi-launcher");
    await().untilAsserted(() -> assertThat(conditions("pi")).contains(
        "Succeeded=True/MPIJobSucceeded: MPIJob default/pi successfully completed."));
    await().untilAsserted(() -> assertThat(podNames("pi")).containsExactly("pi-launcher"));
    assertThat(configMap("pi")).as("kept until the job is deleted").isNotNull();
  }

  @Test
  void suspendKeepsConfigMapSecretAndServiceAndResumeRecreatesThePods() {
    client.resource(TestMPIJobs.job("sus").launcher().workers(2).spec(s -> {
      s.setRunPolicy(new MpiRunPolicy());
      s.getRunPolicy().setSuspend(true);
    }).build()).create();
    await().untilAsserted(() -> {
      assertThat(configMap("sus")).isNotNull();
      assertThat(secret("sus")).isNotNull();
      assertThat(service("sus")).isNotNull();
      assertThat(conditions("sus")).containsExactly("Created=True/MPIJobCreated: MPIJob sus is created.",
          "Suspended=True/MPIJobSuspended: MPIJob sus is suspended.");
    });
    assertThat(podNames("sus")).isEmpty();
    String key = secret("sus").getData().get("ssh-privatekey");

    suspend("sus", false);
    await().untilAsserted(() -> assertThat(podNames("sus")).hasSize(3));
    kubelet.run("sus-launcher");
    kubelet.run("sus-worker-0");
    kubelet.run("sus-worker-1");
    await().untilAsserted(() -> assertThat(status("sus").isTrue("Running")).isTrue());

    suspend("sus", true);
    await().untilAsserted(() -> assertThat(podNames("sus")).isEmpty());
    await().untilAsserted(() -> assertThat(status("sus").isTrue("Suspended")).isTrue());
    assertThat(configMap("sus").getData().get("discover_hosts.sh")).isEqualTo("#!/bin/sh\n");
    assertThat(secret("sus").getData().get("ssh-privatekey")).as("the same key").isEqualTo(key);
    assertThat(service("sus")).isNotNull();

    suspend("sus", false);
    await().untilAsserted(() -> assertThat(podNames("sus")).containsExactly("sus-launcher", "sus-worker-0",
        "sus-worker-1"));
    assertThat(secret("sus").getData().get("ssh-privatekey")).isEqualTo(key);
  }

  @Test
  void launcherWaitsForTheWorkersWhenAsked() {
    client.resource(TestMPIJobs.job("wait").launcher().workers(2)
        .spec(s -> s.setLauncherCreationPolicy(MPIJobSpec.WAIT_FOR_WORKERS_READY)).build()).create();
    await().untilAsserted(() -> assertThat(podNames("wait")).containsExactly("wait-worker-0", "wait-worker-1"));

    kubelet.run("wait-worker-0");
    kubelet.run("wait-worker-1");
    await().untilAsserted(() -> assertThat(podNames("wait")).contains("wait-launcher"));
  }

  @Test
  void aBadLauncherTemplateLabelFailsTheJobNamingTheMPIJobsFieldNotTheLaunchersJob() {
    MPIJob job = TestMPIJobs.job("label").launcher().workers(1).build();
    job.getSpec().getMpiReplicaSpecs().get("Launcher").getTemplate()
        .setMetadata(new ObjectMetaBuilder().addToLabels("team", "v".repeat(64)).build());
    client.resource(job).create();
    await().untilAsserted(() -> assertThat(status("label").condition("Failed")).hasValueSatisfying(c ->
        assertThat(c.getMessage()).contains("spec.mpiReplicaSpecs.Launcher.template.metadata.labels: Invalid value: \""
            + "v".repeat(64) + "\": must be no more than 63 characters")));
    assertThat(client.batch().v1().jobs().inNamespace("default").list().getItems()).isEmpty();
    assertThat(pods("label")).isEmpty();
  }

  @Test
  void aFailedLauncherUnderNeverFailsTheJob() {
    client.resource(TestMPIJobs.job("bad").launcher().workers(1).restartPolicy("Launcher", "Never").build()).create();
    await().untilAsserted(() -> assertThat(podNames("bad")).hasSize(2));
    kubelet.run("bad-worker-0");
    kubelet.fail("bad-launcher", 1);
    await().untilAsserted(() -> assertThat(status("bad").condition("Failed")).hasValueSatisfying(c -> {
      assertThat(c.getReason()).isEqualTo("MPIJobFailed");
      assertThat(c.getMessage()).isEqualTo("MPIJob default/bad has failed because 1 Launcher replica(s) failed. "
          + "Launcher 0 failed (exit code 1).");
    }));
  }

  @Test
  void aLauncherJobThatCountsAPodWhichIsGoneIsReplacedAfterTheBound() {
    client.resource(TestMPIJobs.job("lost").launcher().workers(1).restartPolicy("Launcher", "Never").build())
        .create();
    await().untilAsserted(() -> assertThat(pod("lost-launcher")).isNotNull());
    kubelet.run("lost-worker-0");
    kubelet.run("lost-launcher");
    // the Job controller counts the pod, then stops seeing: the pod's deletion is lost to it (an API server restart)
    jobController.close();
    Job carrier = client.batch().v1().jobs().inNamespace("default").withName("lost-launcher").get();
    carrier.setStatus(new JobStatusBuilder().withActive(1).build());
    client.batch().v1().jobs().inNamespace("default").resource(carrier).updateStatus();
    client.pods().inNamespace("default").resource(pod("lost-launcher")).delete();
    await().untilAsserted(() -> assertThat(pod("lost-launcher")).isNull());

    await().atMost(Duration.ofMinutes(3)).untilAsserted(() -> assertThat(client.batch().v1().jobs()
        .inNamespace("default").withName("lost-launcher").get()).as("a new launcher Job").isNotNull()
        .extracting(j -> j.getMetadata().getUid()).isNotEqualTo(carrier.getMetadata().getUid()));
    jobController.start();
    await().untilAsserted(() -> assertThat(podNames("lost")).containsExactly("lost-launcher", "lost-worker-0"));
    assertThat(status("lost").condition("Failed")).as("a lost pod is replaced, not judged").isEmpty();
  }
}
