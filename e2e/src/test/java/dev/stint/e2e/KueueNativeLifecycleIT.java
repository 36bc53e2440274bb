package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.pytorch.PyTorchJob;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.Test;

/**
 * Stint with {@code --kueue=native} against the real Kueue (see {@link KueueNativeCase}): an admitted job's life and
 * its quota. A gang restart keeps the admission; quota comes back when a worker succeeds early, a job partially
 * succeeds, the user suspends, or a job is deleted (queued, or running while Stint was down); MultiKueue's worker copy
 * adopts its prebuilt Workload and the manager's job gets a Workload but no pod.
 */
class KueueNativeLifecycleIT extends KueueNativeCase {
  /**
   * A failure policy's gang restart keeps the job's admission and quota: the same Workload (never recreated) stays
   * admitted, PodsReady goes False while the gang restarts and True again ({@code Recovered}), and the new attempt's
   * pods carry the admission.
   */
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

  /**
   * A job resumed while the queue is full waits for admission: not "evicted" (Kueue keeps {@code Evicted=True
   * Deactivated} on the reactivated Workload until it is admitted), and no eviction event.
   */
  @Test
  void aJobResumedIntoAFullQueueWaitsForAdmissionAndIsNotCalledEvicted() {
    runningOnAdmission("first"); // the queue's 2 CPU
    jobs.create(job("later", LocalKueue.LOW, 1, null).replace("runPolicy: {suspend: false}",
        "runPolicy: {suspend: true}"));
    kueue.awaitWorkload(workloadOf("later"), "made inactive", w -> !w.active());

    client.resources(PyTorchJob.class).inNamespace(ns).withName("later").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"runPolicy\":{\"suspend\":false}}}");
    kueue.awaitWorkload(workloadOf("later"), "active again", KueueWorkload::active);
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(status("later").condition("Suspended").orElseThrow()
        .getReason()).isEqualTo("PyTorchJobWaitingForAdmission"));
    assertThat(events("later", "PyTorchJobEvicted")).isZero();
    assertThat(jobs.pods("later")).isEmpty();
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
   * A queue label put on a job that runs outside Kueue: Kueue's webhook would refuse it, so Stint leaves the job
   * running as it was (no pod deleted, no Workload) and says why; suspended, the job is queued, and resumed it runs
   * once admitted.
   */
  @Test
  void aQueueLabelOnARunningJobLeavesItRunningUntilItIsSuspended() {
    jobs.create(unlabelled("outside", 1)); // no LocalQueue named default here: it runs outside Kueue
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("outside").isTrue("Running")).isTrue());
    java.util.Set<String> running = podUids("outside");

    Kubectl.run("label", "-n", ns, "pytorchjob/outside", LocalKueue.QUEUE_LABEL + "=" + LocalKueue.LOCAL_QUEUE)
        .assertOk();
    await().atMost(WAIT).until(() -> events("outside", "PyTorchJobQueueLabelIgnored") == 1);
    assertThat(podUids("outside")).as("the same pods, none deleted").isEqualTo(running);
    assertThat(kueue.workloadOfJob(pytorchJob("outside").getMetadata().getUid())).isEmpty();
    assertThat(status("outside").isTrue("Running")).isTrue();

    client.resources(PyTorchJob.class).inNamespace(ns).withName("outside").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"runPolicy\":{\"suspend\":true}}}");
    String workload = workloadOf("outside"); // suspended, it is queued: its Workload is made, inactive
    await().atMost(WAIT).untilAsserted(() -> assertThat(jobs.pods("outside")).isEmpty());
    client.resources(PyTorchJob.class).inNamespace(ns).withName("outside").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"runPolicy\":{\"suspend\":false}}}");
    kueue.awaitAdmitted(workload);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("outside").isTrue("Running")).isTrue());
    assertThat(jobs.pods("outside")).allSatisfy(p -> assertThat(p.getMetadata().getAnnotations())
        .containsEntry("kueue.x-k8s.io/workload", workload));
  }

  /**
   * A label {@code kueue.x-k8s.io/priority-class} naming a class that does not exist: as Kueue, no Workload; the job
   * says why, and gets its Workload, with that class's priority, once the class is made.
   */
  @Test
  void aPriorityClassThatDoesNotExistHoldsTheJobUntilItIsMade() {
    jobs.create(job("typo", "hgih", 1, null));
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(status("typo").condition("Suspended").orElseThrow()
        .getReason()).isEqualTo("PyTorchJobWorkloadPriorityClassNotFound"));
    assertThat(status("typo").condition("Suspended").orElseThrow().getMessage()).contains("WorkloadPriorityClass hgih");
    assertThat(kueue.workloadOfJob(pytorchJob("typo").getMetadata().getUid())).isEmpty();
    assertThat(jobs.pods("typo")).isEmpty();
    await().atMost(WAIT).until(() -> events("typo", "PyTorchJobWorkloadPriorityClassNotFound") == 1);

    kueue.createPriorityClass("hgih", 42);
    String workload = workloadOf("typo");
    assertThat(kueue.awaitAdmitted(workload).priority()).isEqualTo(42);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("typo").isTrue("Running")).isTrue());
  }

  /**
   * The pods' PriorityClass ({@code runPolicy.schedulingPolicy.priorityClass}) that does not exist holds the job as
   * Kueue does, with no Workload, and says why; an empty class, label or field, asks for nothing (a review saw
   * "Name must be provided" in a reconcile loop, and no Workload, for either).
   */
  @Test
  void aPodPriorityClassThatDoesNotExistHoldsTheJobAndAnEmptyOneAsksForNothing() {
    String pc = "stint-it-pods-class";
    jobs.create(masterAlone(job("pods-typo", "none", 0, null).replace(", kueue.x-k8s.io/priority-class: none", "")
        .replace("runPolicy: {suspend: false}", "runPolicy: {suspend: false, schedulingPolicy: {priorityClass: "
            + pc + "}}")));
    jobs.create(masterAlone(job("empty", "\"\"", 0, null).replace("runPolicy: {suspend: false}",
        "runPolicy: {suspend: false, schedulingPolicy: {priorityClass: \"\"}}")));
    try {
      await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(status("pods-typo")
          .condition("Suspended").orElseThrow().getReason()).isEqualTo("PyTorchJobPriorityClassNotFound"));
      assertThat(status("pods-typo").condition("Suspended").orElseThrow().getMessage())
          .contains("PriorityClass (runPolicy.schedulingPolicy.priorityClass, else a template's priorityClassName) "
              + "is " + pc + ", which does not exist");
      assertThat(kueue.workloadOfJob(pytorchJob("pods-typo").getMetadata().getUid())).isEmpty();
      await().atMost(WAIT).until(() -> events("pods-typo", "PyTorchJobPriorityClassNotFound") == 1);

      kueue.awaitAdmitted(workloadOf("empty"));
      await().atMost(WAIT).untilAsserted(() -> assertThat(status("empty").isTrue("Running")).isTrue());

      client.scheduling().v1().priorityClasses().resource(new io.fabric8.kubernetes.api.model.scheduling.v1
          .PriorityClassBuilder().withNewMetadata().withName(pc).endMetadata().withValue(55).build()).create();
      assertThat(kueue.awaitAdmitted(workloadOf("pods-typo")).priority()).isEqualTo(55);
      await().atMost(WAIT).untilAsserted(() -> assertThat(status("pods-typo").isTrue("Running")).isTrue());
    } finally {
      client.scheduling().v1().priorityClasses().withName(pc).delete();
    }
  }

  /** The job without its Workers: a master alone, 1 CPU of the queue's 2. */
  private static String masterAlone(String job) {
    return job.substring(0, job.indexOf("    Worker:")) + "\n";
  }

  /**
   * No priority-class label and no PriorityClass in the templates: as Kueue, the Workload takes the cluster's global
   * default PriorityClass (a review saw priority 0 while the pods ran at the default's value, and a lower job preempt
   * it).
   */
  @Test
  void aJobThatAsksForNoPriorityTakesTheClustersGlobalDefault() {
    client.scheduling().v1().priorityClasses().resource(new io.fabric8.kubernetes.api.model.scheduling.v1
        .PriorityClassBuilder().withNewMetadata().withName("stint-it-global-default").endMetadata().withValue(77)
        .withGlobalDefault(true).build()).create();
    try {
      jobs.create(job("plain", "none", 1, null).replace(", kueue.x-k8s.io/priority-class: none", ""));
      String workload = workloadOf("plain");
      assertThat(kueue.awaitAdmitted(workload).priority()).isEqualTo(77);
      await().atMost(WAIT).untilAsserted(() -> assertThat(status("plain").isTrue("Running")).isTrue());
    } finally {
      client.scheduling().v1().priorityClasses().withName("stint-it-global-default").delete();
    }
  }

  java.util.Set<String> podUids(String job) {
    return jobs.pods(job).stream().map(p -> p.getMetadata().getUid()).collect(java.util.stream.Collectors.toSet());
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
}
