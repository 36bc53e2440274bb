package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.e2e.LocalKueue.FlavorQuota;
import dev.stint.pytorch.PyTorchJob;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Stint with {@code --kueue=native} against the real Kueue v0.17.0, configured with {@code externalFrameworks} only
 * (no webhook, no Kueue integration for Stint's kinds): Stint creates each PyTorchJob's Workload, runs no pod before
 * admission, builds the pods on the admitted flavor, reports PodsReady and Finished, and hands the quota back after a
 * preemption or a pods-ready timeout. Each test has its own namespace and ClusterQueue (pool-a and pool-b flavors).
 */
class KueueNativeIT {
  static final Duration WAIT = Duration.ofSeconds(90);
  OperatorInNamespace cluster;
  KubernetesClient client;
  String ns;
  LocalKueue kueue;
  KueueScenario jobs;

  @BeforeEach
  void setUp() {
    KubernetesClient probe = LocalCluster.client();
    LocalCluster.installCrds();
    ns = LocalCluster.namespace(probe, "kueue-native");
    kueue = LocalKueue.start(probe, ns, FlavorQuota.of(LocalKueue.FLAVOR_A, "2"),
        FlavorQuota.of(LocalKueue.FLAVOR_B, "0"));
    cluster = new OperatorInNamespace(probe, ns, OperatorProcess.start("--kueue=native"));
    client = probe;
    jobs = new KueueScenario(client, ns, kueue);
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    if (client != null) {
      client.resources(PyTorchJob.class).inNamespace(ns).delete(); // Stint lets their Workloads go
    }
    if (kueue != null) {
      kueue.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  /** A PyTorchJob created unsuspended in the test's LocalQueue: a master and {@code workers} workers of 1 CPU each. */
  static String job(String name, String priorityClass, int workers, String extraNodeSelector) {
    String template = String.join("\n",
        "      template:",
        "        spec:",
        extraNodeSelector == null ? "" : "          nodeSelector: {" + extraNodeSelector + "}",
        "          containers:",
        "          - name: pytorch",
        "            image: busybox",
        "            resources: {requests: {cpu: \"1\"}}");
    return String.join("\n",
        "apiVersion: kubeflow.org/v1",
        "kind: PyTorchJob",
        "metadata:",
        "  name: " + name,
        "  labels: {kueue.x-k8s.io/queue-name: " + LocalKueue.LOCAL_QUEUE + ", kueue.x-k8s.io/priority-class: "
            + priorityClass + "}",
        "spec:",
        "  runPolicy: {suspend: false}",
        "  pytorchReplicaSpecs:",
        "    Master:",
        "      replicas: 1",
        template,
        "    Worker:",
        "      replicas: " + workers,
        template, "");
  }

  PyTorchJob pytorchJob(String name) {
    return client.resources(PyTorchJob.class).inNamespace(ns).withName(name).get();
  }

  JobStatus status(String name) {
    PyTorchJob job = pytorchJob(name);
    return job == null || job.getStatus() == null ? new JobStatus() : job.getStatus();
  }

  /** A job of a master and a worker on the low priority, admitted and then Running; returns its Workload's name. */
  String runningOnAdmission(String name) {
    jobs.create(job(name, LocalKueue.LOW, 1, null));
    String workload = workloadOf(name);
    kueue.awaitAdmitted(workload);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status(name).isTrue("Running")).isTrue());
    return workload;
  }

  String workloadOf(String job) {
    return kueue.awaitWorkloadOfJob(pytorchJob(job).getMetadata().getUid()).name();
  }

  @Test
  void queuedUntilAdmittedRunsOnTheFlavorReportsPodsReadyAndFinishes() {
    jobs.create(job("big", LocalKueue.LOW, 3, null)); // 4 CPU: more than the queue's 2
    String big = workloadOf("big");
    KueueWorkload pending = kueue.awaitCondition(big, "QuotaReserved", "False", null);
    assertThat(pending.podSetCounts()).containsExactly(java.util.Map.entry("master", 1),
        java.util.Map.entry("worker", 3));
    assertThat(pending.priority()).isEqualTo(LocalKueue.LOW_VALUE);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("big").condition("Suspended").orElseThrow().getReason())
        .isEqualTo("PyTorchJobWaitingForAdmission"));
    assertThat(status("big").condition("Suspended").orElseThrow().getMessage()).contains("LocalQueue user-queue");
    assertThat(jobs.pods("big")).as("no pod before admission, although suspend is false").isEmpty();

    Instant created = Instant.now();
    String fits = runningOnAdmission("fits");
    System.out.printf("KUEUE-LATENCY creation to Running: %d ms%n",
        Duration.between(created, Instant.now()).toMillis());
    assertThat(jobs.pods("fits")).hasSize(2).allSatisfy(p -> {
      assertThat(p.getSpec().getNodeSelector()).containsEntry(LocalKueue.POOL_LABEL, "a");
      assertThat(p.getMetadata().getLabels()).containsEntry("kueue.x-k8s.io/local-queue-name", "user-queue")
          .containsEntry("kueue.x-k8s.io/cluster-queue-name", kueue.clusterQueue())
          .containsKey("kueue.x-k8s.io/podset");
      assertThat(p.getMetadata().getAnnotations()).containsEntry("kueue.x-k8s.io/workload", fits);
    });
    kueue.awaitCondition(fits, "PodsReady", "True", "Started");

    jobs.exitAll("fits", 0);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("fits").isTrue("Succeeded")).isTrue());
    KueueWorkload finished = kueue.awaitCondition(fits, "Finished", "True", "Succeeded");
    kueue.awaitWorkload(fits, "finalizer removed", w -> w.finalizers().isEmpty());
    assertThat(finished.name()).isEqualTo(fits);
    assertThat(jobs.pods("big")).isEmpty();
  }

  /**
   * A failure policy's gang restart keeps the job's admission and quota: the same Workload (never recreated) stays
   * admitted, PodsReady goes False while the gang restarts and True again ({@code Recovered}), and the new attempt's
   * pods carry the admission.
   */
  /**
   * Kueue's defaults for a job of its own integrations, as Stint applies them: an unlabelled job, in a namespace with a
   * LocalQueue named {@code default}, while a WorkloadPriorityClass named {@code default} exists, is labelled with
   * both on its first pass and queued there: no pod before admission, its Workload in queue {@code default} with that
   * class's priority. A job that labels its own queue keeps it.
   */
  @Test
  void anUnlabelledJobIsQueuedInTheNamespacesDefaultLocalQueueWithTheDefaultPriority() {
    kueue.createLocalQueue("default");
    kueue.createPriorityClass("default", 7);

    jobs.create(unlabelled("big", 3)); // 4 CPU: more than the queue's 2, so it waits
    await().atMost(WAIT).untilAsserted(() -> assertThat(pytorchJob("big").getMetadata().getLabels())
        .containsEntry(LocalKueue.QUEUE_LABEL, "default").containsEntry(LocalKueue.PRIORITY_CLASS_LABEL, "default"));
    KueueWorkload big = kueue.awaitCondition(workloadOf("big"), "QuotaReserved", "False", null);
    assertThat(big.queueName()).isEqualTo("default");
    assertThat(big.priorityClassName()).isEqualTo("default");
    assertThat(big.priority()).isEqualTo(7);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("big").condition("Suspended").orElseThrow().getReason())
        .isEqualTo("PyTorchJobWaitingForAdmission"));
    assertThat(jobs.pods("big")).as("never outside quota: no pod before admission").isEmpty();

    jobs.create(job("own", LocalKueue.LOW, 1, null)); // its own queue and class: kept
    String own = workloadOf("own");
    kueue.awaitAdmitted(own);
    assertThat(kueue.workload(own).queueName()).isEqualTo(LocalKueue.LOCAL_QUEUE);
    assertThat(kueue.workload(own).priority()).isEqualTo(LocalKueue.LOW_VALUE);
    assertThat(pytorchJob("own").getMetadata().getLabels()).containsEntry(LocalKueue.QUEUE_LABEL,
        LocalKueue.LOCAL_QUEUE).containsEntry(LocalKueue.PRIORITY_CLASS_LABEL, LocalKueue.LOW);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("own").isTrue("Running")).isTrue());
  }

  /**
   * Without a LocalQueue named {@code default} an unlabelled job runs as before, with no Workload and no label; a
   * {@code default} LocalQueue made afterwards does not move it into a queue, as Kueue's webhook would not.
   */
  @Test
  void withoutADefaultLocalQueueAnUnlabelledJobRunsAsBeforeAndALaterOneLeavesItAlone() {
    jobs.create(unlabelled("free", 1));
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("free").isTrue("Running")).isTrue());
    String uid = pytorchJob("free").getMetadata().getUid();
    assertThat(kueue.workloadOfJob(uid)).isEmpty();

    kueue.createLocalQueue("default");
    jobs.exitAll("free", 0); // passes over the job, now that the default LocalQueue exists
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("free").isTrue("Succeeded")).isTrue());
    assertThat(pytorchJob("free").getMetadata().getLabels()).doesNotContainKey(LocalKueue.QUEUE_LABEL);
    assertThat(kueue.workloadOfJob(uid)).isEmpty();
  }

  /** {@link #job} without Kueue's labels. */
  static String unlabelled(String name, int workers) {
    return job(name, LocalKueue.LOW, workers, null).replaceFirst("(?m)^  labels: .*\\n", "");
  }

  @Test
  void aGangRestartKeepsTheAdmissionAndTheWorkload() {
    jobs.create(job("gang", LocalKueue.LOW, 1, null).replace("runPolicy: {suspend: false}",
        "runPolicy: {suspend: false, failurePolicy: {maxRestarts: 2}}"));
    String workload = workloadOf("gang");
    KueueWorkload admitted = kueue.awaitAdmitted(workload);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("gang").isTrue("Running")).isTrue());
    kueue.awaitCondition(workload, "PodsReady", "True", "Started");

    jobs.exit("gang-worker-0", 137);
    await().atMost(WAIT).untilAsserted(() -> assertThat(jobs.pods("gang")).hasSize(2).allSatisfy(p -> {
      assertThat(p.getMetadata().getLabels()).containsEntry("training.kubeflow.org/restart-attempt", "1");
      assertThat(p.getSpec().getNodeSelector()).containsEntry(LocalKueue.POOL_LABEL, "a");
      assertThat(p.getMetadata().getAnnotations()).containsEntry("kueue.x-k8s.io/workload", workload);
    }));
    KueueWorkload recovered = kueue.awaitCondition(workload, "PodsReady", "True", "Recovered");
    assertThat(recovered.isTrue("Admitted")).isTrue();
    assertThat(recovered.isTrue("Evicted")).isFalse();
    assertThat(recovered.requeueCount()).isEqualTo(admitted.requeueCount());
    assertThat(kueue.workloadsOfJob(pytorchJob("gang").getMetadata().getUid())).extracting(KueueWorkload::name)
        .containsExactly(workload);
    assertThat(kueue.workload(workload).resource().getMetadata().getUid())
        .as("the same Workload, never recreated").isEqualTo(admitted.resource().getMetadata().getUid());
    assertThat(status("gang").getRestarts()).isEqualTo(1);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("gang").isTrue("Running")).isTrue());
  }

  @Test
  void preemptedByPriorityReleasedAndReadmittedOnTheOtherFlavor() {
    String low = runningOnAdmission("low");
    kueue.awaitCondition(low, "PodsReady", "True", "Started");

    Instant highCreated = Instant.now();
    jobs.create(job("high", LocalKueue.HIGH, 1, null));
    kueue.awaitCondition(low, "Evicted", "True", "Preempted");
    Instant evicted = Instant.now();
    KueueWorkload released = kueue.awaitWorkload(low, "released", w -> w.admission().isEmpty());
    Instant releasedAt = Instant.now();
    assertThat(released.reason("Requeued")).isEqualTo("Preempted");
    assertThat(released.isTrue("QuotaReserved")).isFalse();
    assertThat(released.isTrue("PodsReady")).isFalse();
    assertThat(jobs.pods("low")).allSatisfy(p -> assertThat(p.getMetadata().getDeletionTimestamp()).isNotNull());
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("high").isTrue("Running")).isTrue());
    System.out.printf("KUEUE-LATENCY eviction seen to quota released: %d ms; preemptor created to Running: %d ms%n",
        Duration.between(evicted, releasedAt).toMillis(), Duration.between(highCreated, Instant.now()).toMillis());
    assertThat(status("low").condition("Suspended").orElseThrow().getReason()).isEqualTo("PyTorchJobEvicted");

    // room on pool-b: the low job comes back there, its pods built with the other flavor's node labels
    kueue.setQuotas(FlavorQuota.of(LocalKueue.FLAVOR_A, "2"), FlavorQuota.of(LocalKueue.FLAVOR_B, "2"));
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("low").isTrue("Running")).isTrue());
    assertThat(jobs.pods("low")).hasSize(2).allSatisfy(p ->
        assertThat(p.getSpec().getNodeSelector()).containsEntry(LocalKueue.POOL_LABEL, "b"));
    assertThat(status("low").getSuspensions()).isEqualTo(1);
  }

  @Test
  void aPodsReadyTimeoutEvictsReleasesAndTheJobWaitsAgain() {
    // a node selector no node has: the pods stay Pending, so PodsReady never comes (timeout 20 s on this cluster)
    jobs.create(job("stuck", LocalKueue.LOW, 1, "stint.dev/nowhere: \"true\""));
    String stuck = workloadOf("stuck");
    kueue.awaitAdmitted(stuck);
    await().atMost(WAIT).untilAsserted(() -> assertThat(jobs.pods("stuck")).hasSize(2));

    kueue.awaitCondition(stuck, "Evicted", "True", "PodsReadyTimeout");
    KueueWorkload released = kueue.awaitWorkload(stuck, "released", w -> w.admission().isEmpty()
        && "PodsReadyTimeout".equals(w.reason("Requeued")));
    assertThat(released.isTrue("Requeued")).isFalse();
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("stuck").condition("Suspended").orElseThrow()
        .getReason()).isIn("PyTorchJobEvicted", "PyTorchJobResumed"));
  }

  @Test
  void anElasticJobIsAdmittedPartiallyAndRunsTheAdmittedWorkers() {
    String yaml = job("elastic", LocalKueue.LOW, 4, null)
        .replace("  pytorchReplicaSpecs:", "  elasticPolicy: {minReplicas: 2, maxReplicas: 4}\n  pytorchReplicaSpecs:");
    yaml = yaml.substring(0, yaml.indexOf("    Master:")) + yaml.substring(yaml.indexOf("    Worker:"));
    jobs.create(yaml); // 4 workers of 1 CPU, at least 2; the queue has 2 CPU

    String elastic = workloadOf("elastic");
    KueueWorkload admitted = kueue.awaitAdmitted(elastic);
    assertThat(admitted.admission().orElseThrow().podSet("worker").count()).isEqualTo(2);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("elastic").isTrue("Running")).isTrue());
    assertThat(jobs.pods("elastic")).extracting(p -> p.getMetadata().getName())
        .containsExactlyInAnyOrder("elastic-worker-0", "elastic-worker-1");
    kueue.awaitCondition(elastic, "PodsReady", "True", "Started");
  }

  @Test
  void aJobDeletedWhileQueuedLeavesNoWorkload() {
    jobs.create(job("waiting", LocalKueue.LOW, 3, null));
    String uid = pytorchJob("waiting").getMetadata().getUid();
    kueue.awaitCondition(workloadOf("waiting"), "QuotaReserved", "False", null);

    client.resources(PyTorchJob.class).inNamespace(ns).withName("waiting").delete();

    kueue.awaitNoWorkloadOfJob(uid);
  }

  @Test
  void aWorkerThatSucceededGivesItsQuotaToAWaitingJobWhileTheMasterRuns() {
    String part = runningOnAdmission("part"); // master and worker: the queue's 2 CPU
    String small = job("small", LocalKueue.LOW, 0, null);
    jobs.create(small.substring(0, small.indexOf("    Worker:")) + "\n"); // a master alone: 1 CPU
    kueue.awaitCondition(workloadOf("small"), "QuotaReserved", "False", null);

    jobs.exit("part-worker-0", 0);

    KueueWorkload reclaimed = kueue.awaitWorkload(part, "worker reclaimable",
        w -> java.util.Map.of("worker", 1).equals(w.reclaimablePods()));
    assertThat(reclaimed.isTrue("Admitted")).isTrue();
    assertThat(reclaimed.isTrue("PodsReady")).as("Kueue's and Stint's other status fields kept").isTrue();
    kueue.awaitAdmitted(workloadOf("small"));
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("small").isTrue("Running")).isTrue());
    assertThat(status("part").isTrue("Succeeded")).isFalse();
  }

  @Test
  void aPartialSuccessFinishesTheWorkloadAsSucceededAndTheQuotaGoesToAWaitingJob() {
    jobs.create(String.join("\n",
        "apiVersion: kubeflow.org/v1",
        "kind: PyTorchJob",
        "metadata:",
        "  name: partial", // the same priority as the waiting job, which must not preempt it
        "  labels: {kueue.x-k8s.io/queue-name: " + LocalKueue.LOCAL_QUEUE + ", kueue.x-k8s.io/priority-class: "
            + LocalKueue.LOW + "}",
        "spec:",
        "  runPolicy:",
        "    suspend: false",
        "    successPolicy: {rules: [{succeeded: {Worker: 1}}]}",
        "  pytorchReplicaSpecs:",
        "    Worker:",
        "      replicas: 2", // the queue's 2 CPU
        "      restartPolicy: Never",
        "      template:",
        "        spec:",
        "          containers: [{name: pytorch, image: busybox, resources: {requests: {cpu: \"1\"}}}]", ""));
    String partial = workloadOf("partial");
    kueue.awaitAdmitted(partial);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("partial").isTrue("Running")).isTrue());
    jobs.create(job("waiting", LocalKueue.LOW, 1, null));
    String waiting = workloadOf("waiting");
    kueue.awaitCondition(waiting, "QuotaReserved", "False", null);

    jobs.exit("partial-worker-1", 1);
    await().atMost(WAIT).untilAsserted(() -> assertThat(jobs.pods("partial")).filteredOn(
        p -> p.getStatus() != null && "Failed".equals(p.getStatus().getPhase())).hasSize(1));
    jobs.exit("partial-worker-0", 0);

    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(status("partial").isTrue("PartiallySucceeded")).isTrue();
      assertThat(status("partial").isTrue("Succeeded")).isTrue();
    });
    KueueWorkload finished = kueue.awaitCondition(partial, "Finished", "True", "Succeeded");
    assertThat(finished.condition("Finished").orElseThrow().getMessage()).contains("partially succeeded");
    kueue.awaitWorkload(partial, "finalizer removed", w -> w.finalizers().isEmpty());
    kueue.awaitAdmitted(waiting);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("waiting").isTrue("Running")).isTrue());
  }

  @Test
  void aJobShrunkWhileQueuedGetsItsWorkloadUpdatedAndIsAdmitted() {
    jobs.create(job("shrunk", LocalKueue.LOW, 3, null)); // 4 CPU: more than the queue's 2
    String shrunk = workloadOf("shrunk");
    kueue.awaitCondition(shrunk, "QuotaReserved", "False", null);

    client.resources(PyTorchJob.class).inNamespace(ns).withName("shrunk").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"pytorchReplicaSpecs\":{\"Worker\":{\"replicas\":1}}}}");

    KueueWorkload admitted = kueue.awaitAdmitted(shrunk);
    assertThat(admitted.name()).as("the same Workload, updated in place").isEqualTo(shrunk);
    assertThat(admitted.podSetCounts()).containsExactly(java.util.Map.entry("master", 1),
        java.util.Map.entry("worker", 1));
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("shrunk").isTrue("Running")).isTrue());
    assertThat(jobs.pods("shrunk")).hasSize(2);
  }

  @Test
  void aRunningJobDeletedWhileStintWasDownHasItsQuotaFreedWhenStintStartsLeading() throws InterruptedException {
    jobs.create(job("left", LocalKueue.LOW, 1, null)); // 2 CPU: the whole queue
    String uid = pytorchJob("left").getMetadata().getUid();
    String left = workloadOf("left");
    kueue.awaitAdmitted(left);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("left").isTrue("Running")).isTrue());
    cluster.operator().close();

    client.resources(PyTorchJob.class).inNamespace(ns).withName("left").delete();
    await().atMost(WAIT).untilAsserted(() -> assertThat(pytorchJob("left")).isNull());
    // the garbage collector marks the Workload for deletion, but Kueue's finalizer holds it and its quota
    kueue.awaitWorkload(left, "marked for deletion, still admitted",
        w -> w.deleting() && w.finalizers().contains("kueue.x-k8s.io/resource-in-use") && w.admission().isPresent());
    jobs.create(job("next", LocalKueue.LOW, 1, null)); // needs that quota; its Workload comes once Stint is back

    // leading through a Lease, so the release runs from the start-of-leadership callback
    cluster = new OperatorInNamespace(client, ns, OperatorProcess.start("--kueue=native", "--leader-election=true",
        "--leader-election-namespace=" + ns, "--leader-election-id=stint-kueue"));
    kueue.awaitNoWorkloadOfJob(uid);
    kueue.awaitAdmitted(workloadOf("next"));
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("next").isTrue("Running")).isTrue());
  }

  @Test
  void theUsersSuspendDeactivatesTheWorkloadAndFreesTheQuota() {
    String paused = runningOnAdmission("paused");

    client.resources(PyTorchJob.class).inNamespace(ns).withName("paused").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"runPolicy\":{\"suspend\":true}}}");
    kueue.awaitWorkload(paused, "deactivated and released", w -> !w.active() && w.admission().isEmpty());
    await().atMost(WAIT).untilAsserted(() -> assertThat(jobs.pods("paused")).isEmpty());

    client.resources(PyTorchJob.class).inNamespace(ns).withName("paused").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"runPolicy\":{\"suspend\":false}}}");
    kueue.awaitAdmitted(paused);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("paused").isTrue("Running")).isTrue());
  }

  /**
   * MultiKueue's two sides on one cluster. A worker's copy of a job names the Workload MultiKueue made for it
   * beforehand: Stint adopts that Workload (no second one), runs the job once it is admitted and finishes it. In the
   * manager, a job with {@code managedBy: kueue.x-k8s.io/multikueue} gets its Workload and nothing else: no pod and
   * no status write, even once admitted; suspending it deactivates the Workload and its quota is released at once.
   */
  @Test
  void aWorkersCopyAdoptsItsPrebuiltWorkloadAndAManagersJobGetsAWorkloadButNoPod() {
    kueue.createPrebuiltWorkload("made-by-multikueue", java.util.Map.of("master", 1, "worker", 1), "1");
    jobs.create(job("copy", LocalKueue.LOW, 1, null).replace("labels: {",
        "labels: {kueue.x-k8s.io/prebuilt-workload-name: made-by-multikueue, "));
    String uid = pytorchJob("copy").getMetadata().getUid();
    kueue.awaitWorkload("made-by-multikueue", "adopted", w -> uid.equals(w.controllerUid()));
    assertThat(kueue.workloadsOfJob(uid)).extracting(KueueWorkload::name).containsExactly("made-by-multikueue");
    kueue.awaitAdmitted("made-by-multikueue");
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("copy").isTrue("Running")).isTrue());
    assertThat(jobs.pods("copy")).hasSize(2).allSatisfy(p -> assertThat(p.getMetadata().getAnnotations())
        .containsEntry("kueue.x-k8s.io/workload", "made-by-multikueue"));
    jobs.exitAll("copy", 0);
    kueue.awaitCondition("made-by-multikueue", "Finished", "True", "Succeeded");
    kueue.awaitWorkload("made-by-multikueue", "finalizer removed", w -> w.finalizers().isEmpty());

    jobs.create(job("dispatched", LocalKueue.LOW, 1, null).replace("runPolicy: {suspend: false}",
        "runPolicy: {suspend: false, managedBy: kueue.x-k8s.io/multikueue}"));
    String dispatched = workloadOf("dispatched");
    kueue.awaitAdmitted(dispatched); // no MultiKueue admission check here: the ClusterQueue admits it at once
    client.resources(PyTorchJob.class).inNamespace(ns).withName("dispatched")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"runPolicy\":{\"suspend\":true}}}");
    // a pass after the admission was seen: had Stint made pods, they would be there by now
    kueue.awaitWorkload(dispatched, "deactivated and released", w -> !w.active() && w.admission().isEmpty());
    assertThat(jobs.pods("dispatched")).isEmpty();
    assertThat(pytorchJob("dispatched").getStatus()).isNull();
  }

  /**
   * A waiting job made urgent by its {@code kueue.x-k8s.io/priority-class} label: its Workload takes the new
   * WorkloadPriorityClass and value, and Kueue preempts the running job of lower priority for it.
   */
  @Test
  void aWaitingJobMadeUrgentByItsLabelPreemptsALowerOne() {
    String first = runningOnAdmission("first");
    jobs.create(job("urgent", LocalKueue.LOW, 1, null));
    String urgent = workloadOf("urgent");
    kueue.awaitCondition(urgent, "QuotaReserved", "False", null);

    Kubectl.run("label", "-n", ns, "--overwrite", "pytorchjob/urgent",
        "kueue.x-k8s.io/priority-class=" + LocalKueue.HIGH).assertOk();

    assertThat(kueue.awaitWorkload(urgent, "priority raised", w -> Integer.valueOf(LocalKueue.HIGH_VALUE).equals(w.priority()))
        .priority()).isEqualTo(LocalKueue.HIGH_VALUE);
    kueue.awaitCondition(first, "Evicted", "True", "Preempted");
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("urgent").isTrue("Running")).isTrue());
    assertThat(status("first").condition("Suspended").orElseThrow().getReason()).isEqualTo("PyTorchJobEvicted");
  }
}
