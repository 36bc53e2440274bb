package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.e2e.LocalKueue.FlavorQuota;
import dev.stint.pytorch.PyTorchJob;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Stint driven the way Kueue drives a job (kueue-jobs-and-peers.md §1.7, §1.9), on the real API server: created
 * suspended with a queue name; admitted by one patch that edits the scheduling directives and unsuspends; preempted
 * by suspending it again; re-admitted with other directives. Also the partial-success contract on the real server,
 * and a failure policy's gang restart under the real Kueue v0.17.0 with its own PyTorchJob integration (Stint's
 * default {@code --kueue=off}).
 */
class KueueStyleIT {
  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.namespace("kueue").withOperator();
  /** As the other Kueue ITs: sized for a loaded 2-core machine. */
  static final Duration WAIT = Duration.ofSeconds(120);

  /** No job is left for the next test: Kueue's own integration would queue a leftover labelled for user-queue. */
  @AfterEach
  void deleteJobs() {
    cluster.resources(PyTorchJob.class).delete();
  }

  static JobStatus status(String name) {
    PyTorchJob job = cluster.resources(PyTorchJob.class).withName(name).get();
    return job == null || job.getStatus() == null ? new JobStatus() : job.getStatus();
  }

  static List<Pod> pods(String job) {
    return cluster.pods().withLabel("training.kubeflow.org/job-name", job).list().getItems();
  }

  static final String QUEUED_JOB = """
      apiVersion: kubeflow.org/v1
      kind: PyTorchJob
      metadata:
        name: queued
        labels: {kueue.x-k8s.io/queue-name: user-queue}
      spec:
        runPolicy: {suspend: true}
        pytorchReplicaSpecs:
          Master:
            replicas: 1
            template:
              spec:
                containers: [{name: pytorch, image: busybox}]
          Worker:
            replicas: 2
            template:
              spec:
                containers: [{name: pytorch, image: busybox}]
      """;

  /** What Kueue's admission does in one patch: inject the flavor's scheduling directives and unsuspend. */
  static String admit(String pool) {
    String podSet = """
        {"metadata":{"labels":{"kueue.x-k8s.io/podset":"%1$s"},"annotations":{"kueue.x-k8s.io/workload":"w-queued"}},
         "spec":{"nodeSelector":{"type":"kwok","pool":"%2$s"},
                 "tolerations":[{"key":"kwok.x-k8s.io/node","operator":"Exists","effect":"NoSchedule"}]}}""";
    return "{\"spec\":{\"runPolicy\":{\"suspend\":false},\"pytorchReplicaSpecs\":{"
        + "\"Master\":{\"template\":" + podSet.formatted("master", pool) + "},"
        + "\"Worker\":{\"template\":" + podSet.formatted("worker", pool) + "}}}}";
  }

  @Test
  void admitPreemptAndReadmitLikeKueue() {
    Kubectl.runWithInput(QUEUED_JOB, "apply", "-n", cluster.ns(), "-f", "-").assertOk();
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(status("queued").isTrue("Suspended")).isTrue());
    assertThat(status("queued").getStartTime()).isNull();
    assertThat(pods("queued")).isEmpty();
    assertThat(cluster.services().list().getItems()).isEmpty();

    // label the fake nodes so that the injected nodeSelector can schedule
    Kubectl.run("label", "nodes", "--all", "pool=a", "--overwrite").assertOk();
    Kubectl.run("patch", "pytorchjob", "queued", "-n", cluster.ns(), "--type", "merge", "-p", admit("a")).assertOk();
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      assertThat(pods("queued")).hasSize(3).allSatisfy(p -> {
        assertThat(p.getSpec().getNodeSelector()).containsEntry("pool", "a");
        assertThat(p.getMetadata().getAnnotations()).containsEntry("kueue.x-k8s.io/workload", "w-queued");
        assertThat(p.getSpec().getTolerations()).anySatisfy(t -> assertThat(t.getKey()).isEqualTo("kwok.x-k8s.io/node"));
      });
      assertThat(status("queued").isTrue("Running")).isTrue();
    });
    assertThat(cluster.pods().withName("queued-worker-1").get().getMetadata().getLabels())
        .containsEntry("kueue.x-k8s.io/podset", "worker");
    String firstStart = status("queued").getStartTime();

    // preemption: Kueue suspends and waits for active 0
    Kubectl.run("patch", "pytorchjob", "queued", "-n", cluster.ns(), "--type", "merge",
        "-p", "{\"spec\":{\"runPolicy\":{\"suspend\":true}}}").assertOk();
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      JobStatus s = status("queued");
      assertThat(s.isTrue("Suspended")).isTrue();
      assertThat(s.isTrue("Running")).isFalse();
      assertThat(s.getReplicaStatuses().values()).allSatisfy(r -> assertThat(r.active()).isZero());
    });
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(pods("queued")).isEmpty());

    // re-admitted on another flavor; startTime is in whole seconds, so it is compared with the moment of the
    // resume (truncated alike), not with the first start, which may fall in the same second
    Instant resumed = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Kubectl.run("label", "nodes", "--all", "pool=b", "--overwrite").assertOk();
    Kubectl.run("patch", "pytorchjob", "queued", "-n", cluster.ns(), "--type", "merge", "-p", admit("b")).assertOk();
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      assertThat(pods("queued")).hasSize(3)
          .allSatisfy(p -> assertThat(p.getSpec().getNodeSelector()).containsEntry("pool", "b"));
      assertThat(status("queued").isTrue("Running")).isTrue();
    });
    JobStatus s = status("queued");
    assertThat(s.getSuspensions()).isEqualTo(1);
    assertThat(Instant.parse(s.getStartTime())).isAfterOrEqualTo(resumed)
        .isAfterOrEqualTo(Instant.parse(firstStart));
    assertThat(s.condition("Suspended").orElseThrow().getReason()).isEqualTo("PyTorchJobResumed");
  }

  @Test
  void threeOfFourWorkersEndsPartiallySucceededWithNothingLeftRunning() {
    String manifest = """
        apiVersion: kubeflow.org/v1
        kind: PyTorchJob
        metadata: {name: partial}
        spec:
          runPolicy:
            successPolicy:
              rules:
              - succeeded: {Worker: 3}
          pytorchReplicaSpecs:
            Worker:
              replicas: 4
              restartPolicy: Never
              template:
                spec:
                  containers: [{name: pytorch, image: busybox}]
        """;
    Kubectl.runWithInput(manifest, "apply", "-n", cluster.ns(), "-f", "-").assertOk();
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(status("partial").isTrue("Running")).isTrue());
    Kubectl.run("annotate", "pod", "partial-worker-1", "-n", cluster.ns(), "stint.dev/kwok-exit-code=1").assertOk();
    for (String pod : List.of("partial-worker-0", "partial-worker-2", "partial-worker-3")) {
      Kubectl.run("annotate", "pod", pod, "-n", cluster.ns(), "stint.dev/kwok-exit-code=0").assertOk();
    }
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      JobStatus s = status("partial");
      assertThat(s.isTrue("PartiallySucceeded")).isTrue();
      assertThat(s.isTrue("Succeeded")).isTrue();
      assertThat(s.getReplicaStatuses().get("Worker").getFailedIndexes()).isEqualTo("1");
      assertThat(s.condition("Succeeded").orElseThrow().getMessage())
          .isEqualTo("PyTorchJob partial partially succeeded: Worker 1 failed (exit code 1)");
    });
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(pods("partial"))
        .noneSatisfy(p -> assertThat(p.getStatus().getPhase()).isIn("Running", "Pending")));
    Kubectl.Result column = Kubectl.run("get", "pytorchjob", "partial", "-n", cluster.ns(), "--no-headers");
    assertThat(column.assertOk().stdout()).contains("PartiallySucceeded");
  }

  static final String GANG_JOB = """
      apiVersion: kubeflow.org/v1
      kind: PyTorchJob
      metadata:
        name: gang
        labels: {kueue.x-k8s.io/queue-name: %s}
      spec:
        runPolicy: {suspend: true, failurePolicy: {maxRestarts: 2}}
        pytorchReplicaSpecs:
          Master:
            replicas: 1
            restartPolicy: OnFailure
            template:
              spec:
                containers: [{name: pytorch, image: busybox, resources: {requests: {cpu: "1"}}}]
          Worker:
            replicas: 2
            restartPolicy: OnFailure
            template:
              spec:
                containers: [{name: pytorch, image: busybox, resources: {requests: {cpu: "1"}}}]
      """.formatted(LocalKueue.LOCAL_QUEUE);

  /**
   * A failure policy's gang restart keeps the admission that Kueue's own {@code kubeflow.org/pytorchjob} integration
   * gave (Stint started without {@code --kueue=native}; Kueue creates the Workload and drives
   * {@code runPolicy.suspend}). The job is created suspended, as Kueue's mutating webhook would make it (the local
   * Kueue runs without its webhooks). Every version of the job and of its Workload from before the failure to the
   * end is recorded: the same Workload stays admitted with its quota, the job is never suspended, and Kueue's
   * {@code PodsReady} (waitForPodsReady is on in e2e/kueue.sh; Kueue reads it from the job's {@code Running}
   * condition) goes False ({@code WaitForRecovery}) and back True ({@code Recovered}).
   */
  @Test
  void aGangRestartKeepsTheAdmissionOfKueuesOwnIntegration() {
    try (LocalKueue kueue = LocalKueue.startWithPyTorchJobIntegration(cluster.client(), cluster.ns(),
        FlavorQuota.of(LocalKueue.FLAVOR_A, "3"), FlavorQuota.of(LocalKueue.FLAVOR_B, "0"))) {
      KueueScenario jobs = new KueueScenario(cluster.client(), cluster.ns(), kueue);
      jobs.create(GANG_JOB);
      String workload = jobs.workloadOf(RbacJobs.PYTORCH, "gang");
      KueueWorkload admitted = kueue.awaitAdmitted(workload);
      await().atMost(WAIT).untilAsserted(() -> assertThat(status("gang").isTrue("Running")).isTrue());
      kueue.awaitCondition(workload, "PodsReady", "True", "Started");
      assertThat(pods("gang")).hasSize(3).allSatisfy(p ->
          assertThat(p.getSpec().getNodeSelector()).containsEntry(LocalKueue.POOL_LABEL, "a"));
      Set<String> firstAttempt = uids(pods("gang"));

      List<GenericKubernetesResource> jobVersions = new CopyOnWriteArrayList<>();
      List<GenericKubernetesResource> workloadVersions = new CopyOnWriteArrayList<>();
      try (var jobWatch = record(cluster.client().genericKubernetesResources("kubeflow.org/v1", "PyTorchJob")
              .inNamespace(cluster.ns()).withName("gang"), jobVersions);
           var workloadWatch = record(kueue.workloads().withName(workload), workloadVersions)) {
        jobs.exit("gang-worker-0", 137);
        await().atMost(WAIT).untilAsserted(() -> {
          assertThat(pods("gang")).hasSize(3).allSatisfy(p -> {
            assertThat(p.getMetadata().getUid()).isNotIn(firstAttempt);
            assertThat(p.getMetadata().getLabels()).containsEntry("training.kubeflow.org/restart-attempt", "1");
            assertThat(p.getSpec().getNodeSelector()).containsEntry(LocalKueue.POOL_LABEL, "a");
          });
          assertThat(status("gang").isTrue("Running")).isTrue();
        });
        assertThat(status("gang").getRestarts()).isEqualTo(1);
        kueue.awaitCondition(workload, "PodsReady", "True", "Recovered");

        jobs.exitAll("gang", 0);
        await().atMost(WAIT).untilAsserted(() -> assertThat(status("gang").isTrue("Succeeded")).isTrue());
        kueue.awaitCondition(workload, "Finished", "True", "Succeeded");
      }
      assertThat(status("gang").getRestarts()).as("succeeded on the second attempt").isEqualTo(1);

      List<JobStatus> statuses = jobVersions.stream()
          .map(j -> StatusHistory.statusOf(cluster.client(), j)).toList();
      assertThat(statuses).as("the restart was seen").anySatisfy(s -> assertThat(s.isTrue("Restarting")).isTrue());
      assertThat(jobVersions).as("never suspended").isNotEmpty().allSatisfy(j ->
          assertThat((Boolean) j.get("spec", "runPolicy", "suspend")).isFalse());
      assertThat(statuses).noneSatisfy(s -> assertThat(s.isTrue("Suspended")).isTrue());

      List<KueueWorkload> workloads = workloadVersions.stream().map(KueueWorkload::new).toList();
      assertThat(workloads).as("the same Workload, never recreated").isNotEmpty().allSatisfy(w ->
          assertThat(w.resource().getMetadata().getUid()).isEqualTo(admitted.resource().getMetadata().getUid()));
      assertThat(kueue.workloadsOfJob(jobs.job(RbacJobs.PYTORCH, "gang").getMetadata().getUid()))
          .extracting(KueueWorkload::name).containsExactly(workload);
      assertThat(workloads.stream().filter(w -> !w.isTrue("Finished")))
          .as("admitted, its quota held, until it finished").isNotEmpty().allSatisfy(w -> {
        assertThat(w.isTrue("Admitted")).isTrue();
        assertThat(w.isTrue("QuotaReserved")).isTrue();
        assertThat(w.isTrue("Evicted")).isFalse();
      });
      assertThat(workloads).as("PodsReady False while the gang restarts").anySatisfy(w -> assertThat(
          w.condition("PodsReady")).hasValueSatisfying(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("WaitForRecovery");
          }));
      assertThat(workloads.get(workloads.size() - 1).requeueCount()).isEqualTo(admitted.requeueCount());
    }
  }

  static Set<String> uids(List<Pod> pods) {
    return pods.stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
  }

  /** Records every version of one object, as an informer delivers them, until closed. */
  static SharedIndexInformer<GenericKubernetesResource> record(Resource<GenericKubernetesResource> object,
      List<GenericKubernetesResource> versions) {
    return object.inform(new ResourceEventHandler<>() {
      @Override
      public void onAdd(GenericKubernetesResource r) {
        versions.add(r);
      }

      @Override
      public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource r) {
        versions.add(r);
      }

      @Override
      public void onDelete(GenericKubernetesResource r, boolean unknownFinalState) { }
    }, 0);
  }
}
