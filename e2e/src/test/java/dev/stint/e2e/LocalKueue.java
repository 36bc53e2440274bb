package dev.stint.e2e;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The real Kueue of the local cluster ({@code e2e/cluster.sh kueue up}, which this fixture runs) with queues of one
 * test class: two ResourceFlavors on the two node pools that {@code cluster.sh} labels {@value #POOL_LABEL}={a,b}, a
 * ClusterQueue of the test's own with quota in both (flavors tried in that order) that preempts lower priorities
 * inside itself, a LocalQueue {@value #LOCAL_QUEUE} in the test's namespace, and the WorkloadPriorityClasses
 * {@value #LOW} and {@value #HIGH}. Closing it removes what is left of the test's Workloads and its queues. Kueue runs
 * with Stint's kinds as {@code externalFrameworks} ({@code --kueue=native}), or, from
 * {@link #startWithPyTorchJobIntegration}, with its own PyTorchJob integration ({@code --kueue=off}).
 */
final class LocalKueue implements AutoCloseable {
  static final String GROUP = "kueue.x-k8s.io";
  static final String JOB_UID_LABEL = "kueue.x-k8s.io/job-uid";
  static final String QUEUE_LABEL = "kueue.x-k8s.io/queue-name";
  static final String PRIORITY_CLASS_LABEL = "kueue.x-k8s.io/priority-class";
  static final String POOL_LABEL = "stint.dev/pool";
  /** ResourceFlavors, nodeLabels {@value #POOL_LABEL}=a and =b. */
  static final String FLAVOR_A = "pool-a";
  static final String FLAVOR_B = "pool-b";
  /** WorkloadPriorityClasses, values 100 and 1000. */
  static final String LOW = "low";
  static final String HIGH = "high";
  static final int LOW_VALUE = 100;
  static final int HIGH_VALUE = 1000;
  static final String LOCAL_QUEUE = "user-queue";
  static final Duration WAIT = Duration.ofSeconds(90);

  static final ResourceDefinitionContext WORKLOADS = context("Workload", "workloads", true);
  static final ResourceDefinitionContext CLUSTER_QUEUES = context("ClusterQueue", "clusterqueues", false);
  static final ResourceDefinitionContext LOCAL_QUEUES = context("LocalQueue", "localqueues", true);
  static final ResourceDefinitionContext FLAVORS = context("ResourceFlavor", "resourceflavors", false);
  static final ResourceDefinitionContext PRIORITY_CLASSES =
      context("WorkloadPriorityClass", "workloadpriorityclasses", false);

  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private static final String MANAGER = "stint-e2e";

  /** The nominal quota of one flavor in the ClusterQueue. */
  record FlavorQuota(String flavor, String cpu, String memory) {
    static FlavorQuota of(String flavor, String cpu) {
      return new FlavorQuota(flavor, cpu, "1Ti");
    }
  }

  private final KubernetesClient client;
  private final String ns;
  private final String clusterQueue;
  /** Kueue was started in another mode for this test: closing it starts Kueue in the default mode again. */
  private final boolean pytorchJobIntegration;

  private final List<String> extraLocalQueues = new java.util.ArrayList<>();
  private final List<String> extraPriorityClasses = new java.util.ArrayList<>();

  private LocalKueue(KubernetesClient client, String ns, boolean pytorchJobIntegration) {
    this.client = client;
    this.ns = ns;
    this.pytorchJobIntegration = pytorchJobIntegration;
    this.clusterQueue = "cq-" + ns;
  }

  /**
   * Starts Kueue if it is not running, then creates the flavors, priority classes and the test's queues, and waits
   * until Kueue reports the ClusterQueue Active (which proves its controllers run).
   */
  static LocalKueue start(KubernetesClient client, String ns, FlavorQuota... quotas) {
    ClusterControl.kueueUp();
    return setUp(new LocalKueue(client, ns, false), quotas);
  }

  /**
   * As {@link #start}, but with Kueue's own {@code kubeflow.org/pytorchjob} integration on, as Stint's default
   * {@code --kueue=off} expects: Kueue creates each queued PyTorchJob's Workload and drives its
   * {@code runPolicy.suspend}. The CRDs must be installed first. Closing it restarts Kueue with Stint's kinds
   * external again, the configuration the other Kueue ITs (and a Stint with {@code --kueue=native}) need.
   */
  static LocalKueue startWithPyTorchJobIntegration(KubernetesClient client, String ns, FlavorQuota... quotas) {
    ClusterControl.kueueUpWithPyTorchJobIntegration();
    return setUp(new LocalKueue(client, ns, true), quotas);
  }

  /**
   * As {@link #start}, with Kueue's {@code manageJobsWithoutQueueName} on, so that its batch/job integration looks at
   * every Job; closing it restarts Kueue in the default mode.
   */
  static LocalKueue startManagingEveryJob(KubernetesClient client, String ns, FlavorQuota... quotas) {
    ClusterControl.kueueUpManagingEveryJob();
    return setUp(new LocalKueue(client, ns, true), quotas);
  }

  private static LocalKueue setUp(LocalKueue kueue, FlavorQuota... quotas) {
    kueue.apply(FLAVORS, flavor(FLAVOR_A, "a"));
    kueue.apply(FLAVORS, flavor(FLAVOR_B, "b"));
    kueue.apply(PRIORITY_CLASSES, priorityClass(LOW, LOW_VALUE));
    kueue.apply(PRIORITY_CLASSES, priorityClass(HIGH, HIGH_VALUE));
    kueue.apply(CLUSTER_QUEUES, kueue.clusterQueueYaml(quotas));
    kueue.apply(LOCAL_QUEUES, """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: LocalQueue
        metadata: {name: %s, namespace: %s}
        spec: {clusterQueue: %s}
        """.formatted(LOCAL_QUEUE, kueue.ns, kueue.clusterQueue));
    await("ClusterQueue " + kueue.clusterQueue + " Active (is Kueue running? see logs/kueue.log)")
        .atMost(WAIT).until(() -> kueue.conditionTrue(CLUSTER_QUEUES, null, kueue.clusterQueue, "Active"));
    await("LocalQueue " + LOCAL_QUEUE + " Active").atMost(WAIT)
        .until(() -> kueue.conditionTrue(LOCAL_QUEUES, kueue.ns, LOCAL_QUEUE, "Active"));
    return kueue;
  }

  String clusterQueue() {
    return clusterQueue;
  }

  String localQueue() {
    return LOCAL_QUEUE;
  }

  /** Replaces the ClusterQueue's quotas (flavors in the given order), e.g. to steer the next admission's flavor. */
  void setQuotas(FlavorQuota... quotas) {
    apply(CLUSTER_QUEUES, clusterQueueYaml(quotas));
  }

  /** The Workloads in the test's namespace carrying the job-uid label of this job. */
  List<KueueWorkload> workloadsOfJob(String jobUid) {
    return workloads().withLabel(JOB_UID_LABEL, jobUid).list().getItems().stream().map(KueueWorkload::new).toList();
  }

  /** The one Workload of this job; fails when there are two. */
  Optional<KueueWorkload> workloadOfJob(String jobUid) {
    List<KueueWorkload> all = workloadsOfJob(jobUid);
    if (all.size() > 1) {
      throw new AssertionError("job " + jobUid + " has " + all.size() + " Workloads: " + all);
    }
    return all.stream().findFirst();
  }

  KueueWorkload awaitWorkloadOfJob(String jobUid) {
    return await("the Workload of job " + jobUid).atMost(WAIT)
        .until(() -> workloadOfJob(jobUid), Optional::isPresent).orElseThrow();
  }

  /** Waits until the job has no Workload left (deleted, finalizer gone), e.g. after the job was deleted. */
  void awaitNoWorkloadOfJob(String jobUid) {
    await("no Workload of job " + jobUid).atMost(WAIT).until(() -> workloadsOfJob(jobUid).isEmpty());
  }

  /** The Workload by name, or null. */
  KueueWorkload workload(String name) {
    GenericKubernetesResource r = workloads().withName(name).get();
    return r == null ? null : new KueueWorkload(r);
  }

  /** Waits until the named Workload satisfies the predicate, and returns that read of it. */
  KueueWorkload awaitWorkload(String name, String what, Predicate<KueueWorkload> until) {
    return await("Workload " + name + ": " + what).atMost(WAIT).until(() -> workload(name),
        w -> w != null && until.test(w));
  }

  /** Waits until the Workload's condition has this status (and, unless null, this reason). */
  KueueWorkload awaitCondition(String name, String type, String status, String reason) {
    return awaitWorkload(name, type + "=" + status + (reason == null ? "" : " (" + reason + ")"),
        w -> w.condition(type).filter(c -> status.equals(c.getStatus())
            && (reason == null || reason.equals(c.getReason()))).isPresent());
  }

  /** Waits until the Workload is admitted: QuotaReserved and Admitted True, with {@code status.admission}. */
  KueueWorkload awaitAdmitted(String name) {
    return awaitWorkload(name, "admitted", w -> w.isTrue("QuotaReserved") && w.isTrue("Admitted")
        && w.admission().isPresent());
  }

  /**
   * A Workload made by hand in the LocalQueue, one podSet {@code worker} of {@code count} pods requesting {@code cpu}
   * each, with a WorkloadPriorityClass (its value copied into {@code spec.priority}: Kueue reads only that). Useful
   * as a competitor of a job's Workload.
   */
  KueueWorkload createWorkload(String name, String priorityClass, int count, String cpu) {
    int priority = HIGH.equals(priorityClass) ? HIGH_VALUE : LOW_VALUE;
    String yaml = """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: Workload
        metadata: {name: %s, namespace: %s, finalizers: [kueue.x-k8s.io/resource-in-use]}
        spec:
          queueName: %s
          priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: %s}
          priority: %d
          podSets:
          - name: worker
            count: %d
            template:
              spec:
                restartPolicy: Never
                containers:
                - name: main
                  image: busybox
                  resources: {requests: {cpu: "%s"}}
        """.formatted(name, ns, LOCAL_QUEUE, priorityClass, priority, count, cpu);
    return new KueueWorkload(workloads().resource(JSON.unmarshal(yaml, GenericKubernetesResource.class)).create());
  }

  /**
   * A Workload made before its job, as MultiKueue makes a worker's: these podSets of pods requesting {@code cpu}
   * each, no owner, no priority.
   */
  KueueWorkload createPrebuiltWorkload(String name, Map<String, Integer> podSets, String cpu) {
    StringBuilder yaml = new StringBuilder("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: Workload
        metadata: {name: %s, namespace: %s}
        spec:
          queueName: %s
          podSets:
        """.formatted(name, ns, LOCAL_QUEUE));
    new java.util.TreeMap<>(podSets).forEach((podSet, count) -> yaml.append("""
          - name: %s
            count: %d
            template:
              spec:
                containers:
                - name: pytorch
                  image: busybox
                  resources: {requests: {cpu: "%s"}}
        """.formatted(podSet, count, cpu)));
    return new KueueWorkload(workloads().resource(JSON.unmarshal(yaml.toString(), GenericKubernetesResource.class))
        .create());
  }

  /**
   * What the job's controller writes after an eviction once its pods are gone (kueue-native.md §9): one merge patch on
   * {@code /status}, locked by resourceVersion, with the whole conditions list: admission null, QuotaReserved False
   * (Pending), Admitted False (NoReservation), PodsReady False, Requeued True for Preempted/NodeFailures, else False
   * with the eviction's reason. Retries on a conflict. Returns the Workload as written.
   */
  KueueWorkload releaseQuota(String name) {
    for (int attempt = 1; ; attempt++) {
      KueueWorkload w = workload(name);
      try {
        String patch = WorkloadRelease.patch(w);
        return new KueueWorkload(workloads().withName(name).subresource("status")
            .patch(PatchContext.of(PatchType.JSON_MERGE), patch));
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == 5) {
          throw e;
        }
      }
    }
  }

  /** Marks a hand-made Workload Finished (Succeeded), which frees its quota, and removes its finalizer. */
  void finish(String name) {
    applyStatus(name, MANAGER + "-finished", WorkloadRelease.finishedApply(ns, name));
    removeFinalizers(workloads().withName(name));
  }

  /** Sets PodsReady=True (Started) on a hand-made Workload, as a job's controller does once its pods run. */
  void markPodsReady(String name) {
    applyStatus(name, MANAGER + "-podsready", WorkloadRelease.podsReadyApply(ns, name));
  }

  private void applyStatus(String name, String fieldManager, String body) {
    PatchContext apply = new PatchContext.Builder().withPatchType(PatchType.SERVER_SIDE_APPLY)
        .withFieldManager(fieldManager).withForce(true).build();
    workloads().withName(name).subresource("status").patch(apply, body);
  }

  /** Another LocalQueue of the test's ClusterQueue in the test's namespace (deleted by {@link #close()}); once Active. */
  void createLocalQueue(String name) {
    apply(LOCAL_QUEUES, """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: LocalQueue
        metadata: {name: %s, namespace: %s}
        spec: {clusterQueue: %s}
        """.formatted(name, ns, clusterQueue));
    extraLocalQueues.add(name);
    await("LocalQueue " + name + " Active").atMost(WAIT)
        .until(() -> conditionTrue(LOCAL_QUEUES, ns, name, "Active"));
  }

  /** A WorkloadPriorityClass of the test's own (cluster-scoped: deleted by {@link #close()}). */
  void createPriorityClass(String name, int value) {
    apply(PRIORITY_CLASSES, priorityClass(name, value));
    extraPriorityClasses.add(name);
  }

  /** Removes the finalizers of the test's Workloads, then deletes the LocalQueue and the ClusterQueue. */
  @Override
  public void close() {
    for (GenericKubernetesResource w : workloads().list().getItems()) {
      removeFinalizers(workloads().withName(w.getMetadata().getName()));
      workloads().withName(w.getMetadata().getName()).delete();
    }
    client.genericKubernetesResources(LOCAL_QUEUES).inNamespace(ns).withName(LOCAL_QUEUE).delete();
    extraLocalQueues.forEach(q -> client.genericKubernetesResources(LOCAL_QUEUES).inNamespace(ns).withName(q).delete());
    extraPriorityClasses.forEach(c -> client.genericKubernetesResources(PRIORITY_CLASSES).withName(c).delete());
    client.genericKubernetesResources(CLUSTER_QUEUES).withName(clusterQueue).delete();
    if (pytorchJobIntegration) {
      ClusterControl.kueueUp();
    }
  }

  NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
      Resource<GenericKubernetesResource>> workloads() {
    return client.genericKubernetesResources(WORKLOADS).inNamespace(ns);
  }

  private static void removeFinalizers(Resource<GenericKubernetesResource> workload) {
    try {
      workload.patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }

  private boolean conditionTrue(ResourceDefinitionContext kind, String namespace, String name, String type) {
    var op = client.genericKubernetesResources(kind);
    GenericKubernetesResource r = namespace == null ? op.withName(name).get()
        : op.inNamespace(namespace).withName(name).get();
    return r != null && new KueueWorkload(r).isTrue(type);
  }

  private void apply(ResourceDefinitionContext kind, String yaml) {
    GenericKubernetesResource r = JSON.unmarshal(yaml, GenericKubernetesResource.class);
    var op = client.genericKubernetesResources(kind);
    (kind.isNamespaceScoped() ? op.inNamespace(ns).resource(r) : op.resource(r))
        .fieldManager(MANAGER).forceConflicts().serverSideApply();
  }

  private String clusterQueueYaml(FlavorQuota... quotas) {
    String flavors = Stream.of(quotas).map(q -> """
              - name: %s
                resources:
                - {name: cpu, nominalQuota: "%s"}
                - {name: memory, nominalQuota: "%s"}
        """.formatted(q.flavor(), q.cpu(), q.memory())).collect(Collectors.joining());
    return """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: %s}
        spec:
          namespaceSelector: {}
          preemption: {withinClusterQueue: LowerPriority}
          resourceGroups:
          - coveredResources: [cpu, memory]
            flavors:
        %s""".formatted(clusterQueue, flavors);
  }

  private static String flavor(String name, String pool) {
    return """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ResourceFlavor
        metadata: {name: %s}
        spec: {nodeLabels: {%s: %s}}
        """.formatted(name, POOL_LABEL, pool);
  }

  private static String priorityClass(String name, int value) {
    return """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: WorkloadPriorityClass
        metadata: {name: %s}
        value: %d
        """.formatted(name, value);
  }

  private static ResourceDefinitionContext context(String kind, String plural, boolean namespaced) {
    return new ResourceDefinitionContext.Builder().withGroup(GROUP).withVersion("v1beta2").withKind(kind)
        .withPlural(plural).withNamespaced(namespaced).build();
  }
}
