package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.e2e.KueueKindCase.Job;
import dev.stint.e2e.LocalKueue.FlavorQuota;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Every kind, the JAXJob plugin included, under {@code --kueue=native} with the real Kueue v0.17.0 configured with
 * {@code externalFrameworks} only, through the protocol's scenarios: queued until admitted, then run on the admitted
 * flavor and finished; preempted by a higher-priority job of its kind, released, and re-admitted on the other flavor;
 * evicted by a pods-ready timeout and released; deleted while queued; partially succeeded. Partial admission needs
 * an elastic kind and is {@link KueueNativeIT}'s (PyTorchJob). Each kind is a row of {@link KueueKindCase#ALL}; every
 * job is two pods of 1 CPU. One operator process and one Kueue for the class; each test its own namespace and queues.
 * The latencies seen are printed at the end ({@code KUEUE-LATENCY}), never asserted.
 */
class KueueNativeKindsIT {
  static final Duration WAIT = Duration.ofSeconds(90);
  static final List<KueueKindCase> KINDS = KueueKindCase.ALL;
  static final KueueLatencies LATENCIES = new KueueLatencies();
  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.crds().withJaxPlugin("kueue-plugins-").withKueue()
      .withOperator("--kueue=native");
  String ns;
  LocalKueue kueue;
  KueueScenario jobs;

  @AfterAll
  static void printLatencies() {
    LATENCIES.print();
  }

  @BeforeEach
  void setUp() {
    ns = LocalCluster.namespace(cluster.client(), "kueue-kinds");
    // no quota on either flavor: every job waits until its test gives some
    kueue = LocalKueue.start(cluster.client(), ns, FlavorQuota.of(LocalKueue.FLAVOR_A, "0"),
        FlavorQuota.of(LocalKueue.FLAVOR_B, "0"));
    jobs = new KueueScenario(cluster.client(), ns, kueue);
  }

  @AfterEach
  void tearDown() {
    for (KueueKindCase k : KINDS) { // Stint lets their Workloads go
      cluster.client().genericKubernetesResources(k.kind().apiVersion(), k.kind().kind()).inNamespace(ns).delete();
    }
    if (kueue != null) {
      kueue.close();
    }
    cluster.client().namespaces().withName(ns).delete();
  }

  void quotas(int poolA, int poolB) {
    kueue.setQuotas(FlavorQuota.of(LocalKueue.FLAVOR_A, "" + poolA), FlavorQuota.of(LocalKueue.FLAVOR_B, "" + poolB));
  }

  void awaitRunning(KueueKindCase k, String name) {
    await().atMost(WAIT).untilAsserted(() -> assertThat(jobs.isTrue(k.kind(), name, "Running")).isTrue());
  }

  String suspendedReason(KueueKindCase k, String name) {
    return jobs.condition(k.kind(), name, "Suspended").map(Condition::getReason).orElse(null);
  }

  /** Waits until the admitted job runs, every pod on the flavor of that pool, and records the latency. */
  void awaitRunningOn(KueueKindCase k, String name, String workload, String pool) {
    KueueWorkload admitted = kueue.awaitAdmitted(workload);
    Instant admittedSeen = Instant.now();
    awaitRunning(k, name);
    Instant runningSeen = Instant.now();
    LATENCIES.admissionToRunning(k.toString(), name + " on pool-" + pool, kueue.workload(workload),
        jobs.condition(k.kind(), name, "Running").orElseThrow(), admittedSeen, runningSeen);
    assertThat(admitted.admission().orElseThrow().podSetAssignments()).allSatisfy(a ->
        assertThat(a.flavors()).containsValue("pool-" + pool));
    assertThat(jobs.pods(name)).hasSize(k.pods()).allSatisfy(p -> {
      assertThat(p.getSpec().getNodeSelector()).containsEntry(LocalKueue.POOL_LABEL, pool);
      assertThat(p.getMetadata().getAnnotations()).containsEntry("kueue.x-k8s.io/workload", workload);
    });
  }

  /** Waits until Kueue evicts the Workload for that reason and Stint hands its quota back; records the latency. */
  KueueWorkload awaitEvictedAndReleased(KueueKindCase k, String workload, String reason) {
    kueue.awaitCondition(workload, "Evicted", "True", reason);
    Instant evictedSeen = Instant.now();
    KueueWorkload released = kueue.awaitWorkload(workload, "released",
        w -> w.admission().isEmpty() && w.condition("QuotaReserved").filter(c -> "False".equals(c.getStatus()))
            .isPresent());
    LATENCIES.evictionToQuotaReleased(k.toString(), released, evictedSeen, Instant.now());
    assertThat(released.isTrue("Admitted")).isFalse();
    assertThat(released.isTrue("PodsReady")).isFalse();
    return released;
  }

  @ParameterizedTest(name = "{0}")
  @FieldSource("KINDS")
  void neverRunsBeforeAdmissionThenRunsOnTheFlavorAndFinishes(KueueKindCase k) {
    jobs.create(k.job("queued").yaml());
    String workload = jobs.workloadOf(k.kind(), "queued");
    KueueWorkload pending = kueue.awaitCondition(workload, "QuotaReserved", "False", null);
    assertThat(pending.podSetCounts()).containsExactlyEntriesOf(k.podSets());
    assertThat(pending.priority()).isEqualTo(LocalKueue.LOW_VALUE);
    await().atMost(WAIT).untilAsserted(() -> assertThat(suspendedReason(k, "queued"))
        .isEqualTo(k.kind().kind() + "WaitingForAdmission"));
    assertThat(jobs.pods("queued")).as("no pod before admission, although suspend is false").isEmpty();

    quotas(0, k.pods());
    awaitRunningOn(k, "queued", workload, "b");
    kueue.awaitCondition(workload, "PodsReady", "True", "Started");

    await().atMost(WAIT).untilAsserted(() -> {
      jobs.exitAll("queued", 0); // again while a pod is replaced meanwhile
      assertThat(jobs.isTrue(k.kind(), "queued", "Succeeded")).isTrue();
    });
    kueue.awaitCondition(workload, "Finished", "True", "Succeeded");
    kueue.awaitWorkload(workload, "finalizer removed", w -> w.finalizers().isEmpty());
  }

  @ParameterizedTest(name = "{0}")
  @FieldSource("KINDS")
  void preemptedByAHigherPriorityJobReleasedAndReadmittedOnTheOtherFlavor(KueueKindCase k) {
    quotas(k.pods(), 0); // room for one job, on pool-a
    jobs.create(k.job("low").yaml());
    String low = jobs.workloadOf(k.kind(), "low");
    awaitRunningOn(k, "low", low, "a");
    kueue.awaitCondition(low, "PodsReady", "True", "Started");

    jobs.create(k.job("high").priority(LocalKueue.HIGH).yaml());
    KueueWorkload released = awaitEvictedAndReleased(k, low, "Preempted");
    assertThat(released.condition("Requeued").orElseThrow()).as("requeued at once after a preemption").satisfies(c -> {
      assertThat(c.getStatus()).isEqualTo("True");
      assertThat(c.getReason()).isEqualTo("Preempted");
    });
    await().atMost(WAIT).untilAsserted(() -> assertThat(jobs.pods("low")).isEmpty());
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(suspendedReason(k, "low")).isEqualTo(k.kind().kind() + "Evicted");
      assertThat(jobs.isTrue(k.kind(), "low", "Running")).isFalse();
    });
    awaitRunningOn(k, "high", jobs.workloadOf(k.kind(), "high"), "a");

    quotas(k.pods(), k.pods()); // pool-a is full: the low job comes back on pool-b, its pods with pool-b's labels
    awaitRunningOn(k, "low", low, "b");
  }

  @ParameterizedTest(name = "{0}")
  @FieldSource("KINDS")
  void aPodsReadyTimeoutEvictsAndReleases(KueueKindCase k) {
    quotas(k.pods(), 0);
    // a node selector no node matches: the pods stay Pending and PodsReady never comes (timeout 20 s on this cluster)
    jobs.create(k.job("stuck").nodeSelector("stint.dev/nowhere: \"true\"").yaml());
    String stuck = jobs.workloadOf(k.kind(), "stuck");
    kueue.awaitAdmitted(stuck);
    quotas(0, 0); // Kueue evicts nothing for that, but re-admits nothing after its backoff either
    await().atMost(WAIT).untilAsserted(() -> assertThat(jobs.pods("stuck")).hasSize(k.pods()));

    KueueWorkload released = awaitEvictedAndReleased(k, stuck, "PodsReadyTimeout");
    // Stint writes Requeued=False (PodsReadyTimeout); once its backoff is over Kueue turns it True (BackoffFinished)
    assertThat(released.reason("Requeued")).isIn("PodsReadyTimeout", "BackoffFinished");
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(jobs.pods("stuck")).isEmpty();
      Condition suspended = jobs.condition(k.kind(), "stuck", "Suspended").orElseThrow();
      assertThat(suspended.getReason()).isEqualTo(k.kind().kind() + "Evicted");
      assertThat(suspended.getMessage()).contains("PodsReadyTimeout");
    });
  }

  @ParameterizedTest(name = "{0}")
  @FieldSource("KINDS")
  void aJobDeletedWhileQueuedLeavesNoWorkloadAndNoFinalizer(KueueKindCase k) {
    jobs.create(k.job("doomed").yaml());
    String uid = jobs.job(k.kind(), "doomed").getMetadata().getUid();
    kueue.awaitCondition(jobs.workloadOf(k.kind(), "doomed"), "QuotaReserved", "False", null);

    cluster.client().genericKubernetesResources(k.kind().apiVersion(), k.kind().kind()).inNamespace(ns)
        .withName("doomed").delete();

    await().atMost(WAIT).untilAsserted(() -> assertThat(jobs.job(k.kind(), "doomed")).isNull());
    kueue.awaitNoWorkloadOfJob(uid); // listed while a finalizer held it
  }

  @ParameterizedTest(name = "{0}")
  @FieldSource("KINDS")
  void aPartialSuccessFinishesTheWorkloadAsSucceededAndFreesTheQuota(KueueKindCase k) {
    quotas(k.pods(), 0);
    Job job = k.job("partial").partialSuccessAllowed();
    jobs.create(job.yaml());
    String partial = jobs.workloadOf(k.kind(), "partial");
    kueue.awaitAdmitted(partial);
    awaitRunning(k, "partial");
    // a competitor of the same priority for the whole quota: admitted only once the job gives its quota back
    String waiting = kueue.createWorkload("waiting", LocalKueue.LOW, 1, "" + k.pods()).name();
    kueue.awaitCondition(waiting, "QuotaReserved", "False", null);

    jobs.exit(job.pod(k.failingPod()), 1);
    await().atMost(WAIT).untilAsserted(() -> assertThat(jobs.failedReplicas(k.kind(), "partial", k.failingType()))
        .as("the failure counted").isEqualTo(1));
    assertThat(jobs.isTrue(k.kind(), "partial", "Failed")).as("and not fatal").isFalse();
    jobs.exit(job.pod(k.succeedingPod()), 0);

    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(jobs.isTrue(k.kind(), "partial", "PartiallySucceeded")).isTrue();
      assertThat(jobs.isTrue(k.kind(), "partial", "Succeeded")).isTrue();
    });
    KueueWorkload finished = kueue.awaitCondition(partial, "Finished", "True", "Succeeded");
    assertThat(finished.condition("Finished").orElseThrow().getMessage()).contains("partially succeeded");
    kueue.awaitWorkload(partial, "finalizer removed", w -> w.finalizers().isEmpty());
    kueue.awaitAdmitted(waiting);
  }
}
