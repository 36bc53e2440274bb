package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.e2e.LocalKueue.FlavorQuota;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Kueue's Topology-Aware Scheduling through Stint's native Workloads, for every kind and the JAXJob plugin, with the
 * real Kueue v0.17.0 and {@link LocalTopology}'s kwok data centre (2 blocks of 2 racks of 3 one-CPU hosts). A job
 * asks by Kueue's podset annotations on its templates (a leader and its workers in one podset group); Stint puts the
 * request in the Workload and creates each pod with Kueue's topology gate, which Kueue's ungater lifts with the host
 * of the pod's rank. Asserted: each pod on the host its podSet's {@code topologyAssignment} gives its rank, all in
 * one rack, and again so after a gang restart and after a suspension and resumption (every new pod made gated again,
 * with no restart nor host failure but the one the test causes); a job
 * larger than any rack stays queued with no pod, and with {@code preferred} it runs across racks; a host deleted
 * under a running job ends with its pod made again on the host Kueue put in its place (the pod garbage collector
 * takes the lost pod after its 40 s quarantine, so that test takes about a minute per kind).
 */
class KueueTopologyIT {
  static final Duration WAIT = Duration.ofSeconds(90);
  static final String INDEX = "training.kubeflow.org/replica-index";
  static final String TYPE = "training.kubeflow.org/replica-type";

  /** A kind: its leader type (null: workers only), worker type and the container its framework names. */
  record TasKind(RbacJobs.Kind kind, String leader, String worker) {
    @Override
    public String toString() {
      return kind.kind();
    }

    /**
     * A job of {@code pods} pods of one CPU (the leader and the rest workers), each template with these annotations
     * (a YAML flow map's entries); the group's annotation where the kind has a leader.
     */
    String yaml(String name, int pods, String topology, String runPolicy) {
      String annotations = "{" + topology + (leader == null ? "" : ", kueue.x-k8s.io/podset-group-name: job") + "}";
      StringBuilder yaml = new StringBuilder("apiVersion: " + kind.apiVersion() + "\nkind: " + kind.kind()
          + "\nmetadata:\n  name: " + name + "\n  labels: {" + LocalKueue.QUEUE_LABEL + ": " + LocalKueue.LOCAL_QUEUE
          + "}\nspec:\n  runPolicy: " + runPolicy + "\n  " + kind.specField() + ":\n");
      Map<String, Integer> replicas = new LinkedHashMap<>();
      if (leader != null) {
        replicas.put(leader, 1);
      }
      replicas.put(worker, leader == null ? pods : pods - 1);
      replicas.forEach((type, count) -> yaml.append("    ").append(type).append(":\n")
          .append("      replicas: ").append(count).append("\n      restartPolicy: Never\n")
          .append("      template:\n        metadata: {annotations: ").append(annotations).append("}\n")
          .append("        spec:\n          tolerations: ").append(LocalTopology.TOLERATION)
          .append("\n          containers:\n          - {name: ").append(kind.container())
          .append(", image: busybox, resources: {requests: {cpu: \"1\"}}}\n"));
      return yaml.toString();
    }
  }

  static final List<TasKind> KINDS = List.of(
      new TasKind(RbacJobs.PYTORCH, "Master", "Worker"),
      new TasKind(RbacJobs.TENSORFLOW, "Chief", "Worker"),
      new TasKind(RbacJobs.MPI, "Launcher", "Worker"),
      new TasKind(RbacJobs.JAX, null, "Worker"));

  static final String REQUIRED_RACK = "kueue.x-k8s.io/podset-required-topology: " + LocalTopology.RACK;
  static final String PREFERRED_RACK = "kueue.x-k8s.io/podset-preferred-topology: " + LocalTopology.RACK;

  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.crds().withJaxPlugin("kueue-tas-plugins-").withKueue()
      .withTopology().withOperator("--kueue=native");
  String ns;
  LocalKueue kueue;
  KueueScenario jobs;

  @BeforeEach
  void setUp() {
    ns = LocalCluster.namespace(cluster.client(), "kueue-tas");
    kueue = LocalKueue.start(cluster.client(), ns, FlavorQuota.of(LocalTopology.FLAVOR, "12"));
    jobs = new KueueScenario(cluster.client(), ns, kueue);
  }

  @AfterEach
  void tearDown() {
    for (TasKind k : KINDS) {
      cluster.client().genericKubernetesResources(k.kind().apiVersion(), k.kind().kind()).inNamespace(ns).delete();
    }
    if (kueue != null) {
      kueue.close();
    }
    cluster.client().namespaces().withName(ns).delete();
  }

  @ParameterizedTest(name = "{0}")
  @FieldSource("KINDS")
  void eachRankRunsOnItsAssignedHostInOneRackAgainAfterAGangRestartAndAResumption(TasKind k) {
    jobs.create(k.yaml("racked", 3, REQUIRED_RACK, "{suspend: false, failurePolicy: {maxRestarts: 3}}"));
    String workload = jobs.workloadOf(k.kind(), "racked");
    KueueWorkload admitted = kueue.awaitAdmitted(workload);
    assertThat(topologyRequests(admitted)).allSatisfy((podSet, request) -> {
      assertThat(request).containsEntry("required", LocalTopology.RACK).containsEntry("podIndexLabel", INDEX);
      if (k.leader() != null) {
        assertThat(request).containsEntry("podSetGroupName", "job");
      }
    });
    Set<String> first = awaitPlaced("racked", workload, 3, true);

    // a gang restart: every pod made again, gated, and placed by the assignment, which has not changed
    jobs.exit(ReplicaPods.podName(cluster.client(), ns, "racked-worker-0"), 1);
    await().atMost(WAIT).untilAsserted(() -> assertThat(restarts(k, "racked")).isEqualTo(1));
    Set<String> restarted = awaitPlaced("racked", workload, 3, true);
    assertThat(restarted).as("new pods").doesNotContainAnyElementsOf(first);

    RbacJobs.suspend(k.kind(), ns, "racked", true);
    await().atMost(WAIT).untilAsserted(() -> assertThat(jobs.pods("racked")).isEmpty());
    RbacJobs.suspend(k.kind(), ns, "racked", false);
    Set<String> resumed = awaitPlaced("racked", workload, 3, true);
    assertThat(resumed).as("new pods").doesNotContainAnyElementsOf(restarted);
    assertThat(restarts(k, "racked")).as("no restart but the one the test caused").isEqualTo(1);
    assertThat(kueue.workload(workload).resource().<Object>get("status", "unhealthyNodes"))
        .as("no host taken for failed").isNull();
  }

  @ParameterizedTest(name = "{0}")
  @FieldSource("KINDS")
  void aJobLargerThanAnyRackStaysQueuedAndWithPreferredRunsAcrossRacks(TasKind k) {
    jobs.create(k.yaml("too-big", 4, REQUIRED_RACK, "{suspend: false}"));
    String tooBig = jobs.workloadOf(k.kind(), "too-big");
    KueueWorkload pending = kueue.awaitCondition(tooBig, "QuotaReserved", "False", "Pending");
    assertThat(pending.condition("QuotaReserved").orElseThrow().getMessage()).as("Kueue says why")
        .containsIgnoringCase("topology");

    jobs.create(k.yaml("spread", 4, PREFERRED_RACK, "{suspend: false}"));
    String spread = jobs.workloadOf(k.kind(), "spread");
    kueue.awaitAdmitted(spread);
    awaitPlaced("spread", spread, 4, false);
    Set<String> racks = jobs.pods("spread").stream().map(p -> cluster.topology().rackOf(p.getSpec().getNodeName()))
        .collect(Collectors.toSet());
    assertThat(racks).as("four pods of one CPU fill a rack of three and spill into one more").hasSize(2);

    assertThat(kueue.workload(tooBig).isTrue("QuotaReserved")).as("still queued").isFalse();
    assertThat(jobs.pods("too-big")).as("no pod of the job that fits no rack").isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @FieldSource("KINDS")
  void aNodeDeletedUnderARunningJobEndsWithItsPodOnAHostKueueChoseInstead(TasKind k) {
    jobs.create(k.yaml("moved", 2, REQUIRED_RACK, "{suspend: false}"));
    String workload = jobs.workloadOf(k.kind(), "moved");
    awaitPlaced("moved", workload, 2, true);
    Pod victim = cluster.client().pods().inNamespace(ns)
        .withName(ReplicaPods.podName(cluster.client(), ns, "moved-worker-0")).get();
    String lost = victim.getSpec().getNodeName();
    try {
      cluster.topology().deleteNode(lost);
      // the pod garbage collector deletes the pod of the node that is gone, Kueue's node controller replaces the
      // host in the assignment (or evicts and re-admits the job), and Stint makes the pod again, gated
      await("the pod on " + lost + " replaced").atMost(WAIT.multipliedBy(2)).untilAsserted(() ->
          assertThat(jobs.pods("moved")).noneMatch(p -> p.getMetadata().getUid().equals(victim.getMetadata().getUid())));
      // a replaced host changes the order of the assignment's hosts, so ranks may land anywhere on them: Kueue's
      // ungater places by rank only while every running pod is where its rank says
      Set<String> placed = awaitPlaced("moved", workload, 2, true, false);
      assertThat(jobs.pods("moved")).as("nothing left on the deleted host").noneMatch(p ->
          lost.equals(p.getSpec().getNodeName()) || lost.equals(p.getSpec().getNodeSelector().get(LocalTopology.HOST)));
      assertThat(placed).hasSize(2);
    } finally {
      cluster.topology().restore(lost);
    }
  }

  /** The podSets' {@code topologyRequest} of a Workload, by podSet name. */
  @SuppressWarnings("unchecked")
  static Map<String, Map<String, Object>> topologyRequests(KueueWorkload workload) {
    Map<String, Map<String, Object>> requests = new LinkedHashMap<>();
    List<Map<String, Object>> podSets = workload.resource().get("spec", "podSets");
    podSets.forEach(p -> requests.put((String) p.get("name"), (Map<String, Object>) p.get("topologyRequest")));
    return requests;
  }

  Set<String> awaitPlaced(String job, String workload, int pods, boolean oneRack) {
    return awaitPlaced(job, workload, pods, oneRack, true);
  }

  /**
   * Waits until the job has its pods, none gated, each bound to the host its rank has in the Workload's current
   * assignment (or, unless {@code byRank}, the pods' hosts are the assignment's hosts), and (with a required rack)
   * all in one rack; returns their uids.
   */
  @SuppressWarnings("unchecked")
  Set<String> awaitPlaced(String job, String workload, int pods, boolean oneRack, boolean byRank) {
    Set<String> uids = new java.util.concurrent.CopyOnWriteArraySet<>();
    await("the pods of " + job + " on their assigned hosts").atMost(WAIT).untilAsserted(() -> {
      KueueWorkload w = kueue.workload(workload);
      assertThat(w.isTrue("Admitted")).isTrue();
      Map<String, List<String>> hostsByPodSet = new LinkedHashMap<>();
      List<Map<String, Object>> assignments = w.resource().get("status", "admission", "podSetAssignments");
      assignments.forEach(a -> hostsByPodSet.put((String) a.get("name"), LocalTopology.hostsByRank(a)));
      List<Pod> live = jobs.pods(job).stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null
          && !"Failed".equals(p.getStatus().getPhase())).toList();
      uids.clear();
      assertThat(live).hasSize(pods);
      for (Pod pod : live) {
        String podSet = pod.getMetadata().getLabels().get(TYPE).toLowerCase(Locale.ROOT);
        int rank = Integer.parseInt(pod.getMetadata().getLabels().get(INDEX));
        assertThat(pod.getSpec().getSchedulingGates()).as(pod.getMetadata().getName() + " ungated").isNullOrEmpty();
        assertThat(pod.getMetadata().getAnnotations()).containsEntry("kueue.x-k8s.io/workload", workload);
        if (byRank) {
          assertThat(pod.getSpec().getNodeName()).as(pod.getMetadata().getName() + " (" + podSet + " rank " + rank
              + ") on the host of its rank in " + hostsByPodSet).isEqualTo(hostsByPodSet.get(podSet).get(rank));
        }
        assertThat(pod.getSpec().getNodeSelector()).as("Kueue's ungater chose the host")
            .containsEntry(LocalTopology.HOST, pod.getSpec().getNodeName());
      }
      if (!byRank) {
        hostsByPodSet.forEach((podSet, hosts) -> assertThat(live.stream()
            .filter(p -> podSet.equalsIgnoreCase(p.getMetadata().getLabels().get(TYPE)))
            .map(p -> p.getSpec().getNodeName())).as("the hosts of " + podSet).containsExactlyInAnyOrderElementsOf(hosts));
      }
      if (oneRack) {
        assertThat(live.stream().map(p -> cluster.topology().rackOf(p.getSpec().getNodeName())).distinct()).hasSize(1);
      }
      live.forEach(p -> uids.add(p.getMetadata().getUid())); // the pods that passed, not a later read
    });
    return new HashSet<>(uids);
  }

  int restarts(TasKind k, String name) {
    GenericKubernetesResource job = jobs.job(k.kind(), name);
    Number restarts = job == null ? null : job.get("status", "restarts");
    return restarts == null ? 0 : restarts.intValue();
  }
}
