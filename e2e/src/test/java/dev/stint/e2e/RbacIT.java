package dev.stint.e2e;

import static dev.stint.e2e.RbacJobs.JAX;
import static dev.stint.e2e.RbacJobs.MPI;
import static dev.stint.e2e.RbacJobs.PYTORCH;
import static dev.stint.e2e.RbacJobs.TENSORFLOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.e2e.RbacJobs.Kind;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * deploy/ on the real API server, as the release's install.yaml ships it (bin/release) and its overlays: applied with
 * kubectl as a user would, then the operator runs with the
 * ServiceAccount's identity (a token) and the Deployment's own command, arguments and environment, through the life
 * of every kind. The audit log (e2e/cluster.sh) then shows that no request was refused, so no rule is missing, and
 * that every rule granted was used, so none is granted that no test needs: dropping any rule makes one of the two
 * checks fail, naming the rule and the scenario that needs it. The API server enforces
 * OwnerReferencesPermissionEnforcement, as OpenShift does.
 */
class RbacIT {
  private static final Duration WAIT = Duration.ofSeconds(90);
  /** What exercises each right, for the message when one goes unused. */
  private static final Map<String, String> NEEDED_BY = Map.ofEntries(
      Map.entry("get pods", "job taken-pod: its pod's name is held by another pod, the create answers 409 and the "
          + "operator reads the holder"),
      Map.entry("get services", "job taken-svc: as taken-pod, for a Service"),
      Map.entry("get configmaps", "MPIJob taken-cm: as taken-pod, for its hostfile ConfigMap"),
      Map.entry("get secrets", "MPIJob taken-secret: as taken-pod, for its SSH Secret"),
      Map.entry("get jobs", "MPIJob taken-job: as taken-pod, for its launcher's batch Job"),
      Map.entry("delete jobs", "MPIJob life: suspended, its launcher's batch Job goes"),
      Map.entry("get horizontalpodautoscalers", "elastic PyTorchJob taken-hpa: as taken-pod, for its autoscaler"),
      Map.entry("update horizontalpodautoscalers", "elastic PyTorchJob elastic: maxReplicas changed while it runs"),
      Map.entry("delete horizontalpodautoscalers", "elastic PyTorchJob elastic: suspended"),
      Map.entry("update configmaps", "MPIJob life: its hostfile's discover_hosts follows the running workers"),
      Map.entry("update services", "MPIJob life: runLauncherAsWorker changed"),
      Map.entry("delete pods", "every life job: suspended"),
      Map.entry("patch events", "every life job: its pods created again on resume, the same events, counted up"),
      Map.entry("delete services", "life jobs of PyTorchJob, TFJob, JAXJob: suspended"),
      Map.entry("delete", "ttl job of each kind: ttlSecondsAfterFinished 0"),
      Map.entry("create leases", "any run: the Lease stint is deleted before the operator starts"),
      Map.entry("patch leases", "any run: the leader renews its Lease"),
      Map.entry("update leases", "any run: the leader gives its Lease up when it stops"));

  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.crds().withCrdsFrom("examples/plugins/jax/crds");
  static Path operatorKubeconfig;

  @BeforeAll
  static void install() {
    // the release's install.yaml (bin/release: crds/ and deploy/) as a user applies it; its CRDs are the ones the
    // cluster has, applied by the test's own field manager, hence --force-conflicts
    Kubectl.Result installed = Kubectl.run("apply", "--server-side", "--force-conflicts", "-f",
        ReleaseBuild.installYaml().toString());
    assertThat(installed.exitCode()).as("kubectl apply -f install.yaml: %s", installed.stderr()).isZero();
    assertThat(installed.stderr()).as("kubectl apply -f install.yaml printed to stderr").isEmpty();
    assertThat(installed.stdout()).contains("deployment.apps/stint serverside-applied");
    operatorKubeconfig = DeployedOperator.serviceAccountKubeconfig();
  }

  /** deploy/ with the plugins overlay (its ClusterRole is deploy/'s and the plugin kind's): every kind's life. */
  @Test
  void everyKindRunsWithDeploysRightsAndUsesEachOfThem() throws Exception {
    List<HasMetadata> plugins = DeployedOperator.build(cluster.client(), "deploy/overlays/plugins");
    DeployedOperator.apply("deploy/overlays/plugins");
    Map<Kind, String> namespaces = new LinkedHashMap<>();
    for (Kind kind : List.of(PYTORCH, TENSORFLOW, MPI, JAX)) {
      namespaces.put(kind, LocalCluster.namespace(cluster.client(), "rbac-" + kind.plural()));
    }
    freshLease();
    AuditLog audit = AuditLog.fromNow();
    int metricsPort = DeployedMetrics.freePort();
    try (OperatorProcess operator = DeployedOperator.start(plugins, operatorKubeconfig, "stint-rbac-0", metricsPort,
        JaxPluginJar.build())) {
      operator.awaitStarted(WAIT);
      new KindLives(cluster.client(), namespaces, WAIT, audit).run();
      assertThat(operator.alive()).as("the operator is up after the lives; %s", operator.logFile()).isTrue();
      DeployedMetrics.assertShowLives(DeployedMetrics.scrape(metricsPort),
          List.of("PyTorchJob", "TFJob", "MPIJob", "JAXJob"));
    } catch (RuntimeException | AssertionError e) {
      assertNoneRefused(audit.operatorRequests()); // a missing rule, named, rather than the wait it made fail
      throw e;
    } finally {
      namespaces.values().forEach(ns -> cluster.client().namespaces().withName(ns).delete());
    }
    List<AuditLog.Request> requests = audit.operatorRequests();
    assertNoneRefused(requests);
    // deploy/'s grants are the plugins overlay's but for the plugin kind: both are checked
    List<RbacGrants.Grant> grants = Stream.concat(RbacGrants.of(plugins).stream(),
        RbacGrants.of(DeployedOperator.build(cluster.client(), "deploy")).stream()).distinct().toList();
    List<String> unused = RbacGrants.unused(grants, requests,
            g -> g.resource().endsWith("/finalizers") && childCreated(requests, g, namespaces))
        .stream().map(g -> g.describe() + " (meant for: " + NEEDED_BY.getOrDefault(key(g), "nothing known") + ")")
        .toList();
    assertThat(unused).as("rules granted that no request of the operator used").isEmpty();
  }

  /**
   * deploy/overlays/namespaced: rights in the listed namespaces only (RoleBindings), so a job there runs and a job
   * elsewhere is left alone, and no request goes beyond them.
   */
  @Test
  void theNamespacedOverlayRunsJobsInItsNamespacesOnly() throws Exception {
    List<HasMetadata> namespaced = DeployedOperator.build(cluster.client(), "deploy/overlays/namespaced");
    for (String ns : List.of("team-a", "team-b")) {
      if (cluster.client().namespaces().withName(ns).get() == null) {
        cluster.client().namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
            .withName(ns).endMetadata().build()).create();
      }
    }
    // the cluster-wide binding of deploy/ goes, as when a user moves to the overlay (server-side apply adds only)
    Kubectl.run("delete", "clusterrolebinding", "stint", "--ignore-not-found").assertOk();
    DeployedOperator.apply("deploy/overlays/namespaced");
    String elsewhere = LocalCluster.namespace(cluster.client(), "rbac-unwatched");
    freshLease();
    AuditLog audit = AuditLog.fromNow();
    try (OperatorProcess operator = DeployedOperator.start(namespaced, operatorKubeconfig, "stint-rbac-1")) {
      operator.awaitStarted(WAIT);
      String job = "ns-" + Long.toString(System.nanoTime() % 1_000_000L, 36);
      for (String ns : List.of("team-a", "team-b", elsewhere)) {
        Kubectl.runWithInput(PYTORCH.manifest(job, 0, "Never", "{}", ""), "create", "-n", ns, "-f", "-").assertOk();
      }
      for (String ns : List.of("team-a", "team-b")) {
        await("job in watched " + ns + " succeeded").atMost(WAIT)
            .until(() -> "True".equals(RbacJobs.condition(cluster.client(), PYTORCH, ns, job, "Succeeded")));
      }
      // both watched jobs ran to the end: the operator had all the time it needed to touch the third
      assertThat(RbacJobs.hasStatus(cluster.client(), PYTORCH, elsewhere, job)).as("status of the unwatched job")
          .isFalse();
      assertThat(RbacJobs.pods(cluster.client(), elsewhere, job)).as("pods of the unwatched job").isEmpty();
      assertThat(operator.alive()).as("the operator is up; %s", operator.logFile()).isTrue();
    } catch (RuntimeException | AssertionError e) {
      assertNoneRefused(audit.operatorRequests());
      throw e;
    } finally {
      cluster.client().namespaces().withName(elsewhere).delete();
      Kubectl.run("delete", "-n", "team-a", "pytorchjobs", "--all");
      Kubectl.run("delete", "-n", "team-b", "pytorchjobs", "--all");
    }
    List<AuditLog.Request> requests = audit.operatorRequests();
    assertNoneRefused(requests);
    assertThat(requests.stream().filter(r -> !r.namespace().isEmpty() && !r.namespace().equals("stint-system"))
        .map(AuditLog.Request::namespace).distinct()).as("namespaces the operator asked about")
        .containsExactlyInAnyOrder("team-a", "team-b");
  }

  /**
   * Why the ClusterRole grants update on each kind's finalizers: this API server, as OpenShift's, refuses a child
   * naming its job as owner with blockOwnerDeletion to a client without it (OwnerReferencesPermissionEnforcement).
   */
  @Test
  void aChildThatBlocksItsJobsDeletionNeedsUpdateOnTheJobsFinalizers() {
    String ns = LocalCluster.namespace(cluster.client(), "rbac-owner");
    try {
      Kubectl.runWithInput(PYTORCH.running("owner"), "create", "-n", ns, "-f", "-").assertOk();
      String uid = RbacJobs.get(cluster.client(), PYTORCH, ns, "owner").getMetadata().getUid();
      Kubectl.run("create", "serviceaccount", "creator", "-n", ns).assertOk();
      Kubectl.run("create", "role", "creator", "-n", ns, "--verb=create", "--resource=pods").assertOk();
      Kubectl.run("create", "rolebinding", "creator", "-n", ns, "--role=creator",
          "--serviceaccount=" + ns + ":creator").assertOk();
      String child = """
          apiVersion: v1
          kind: Pod
          metadata:
            name: %s
            ownerReferences: [{apiVersion: kubeflow.org/v1, kind: PyTorchJob, name: owner, uid: %s,
                               controller: true, blockOwnerDeletion: true}]
          spec: {containers: [{name: c, image: busybox}]}
          """;
      String as = "--as=system:serviceaccount:" + ns + ":creator";

      Kubectl.Result refused = Kubectl.runWithInput(child.formatted("first", uid), "create", "-n", ns, as, "-f", "-");
      Kubectl.run("create", "role", "finalizers", "-n", ns, "--verb=update",
          "--resource=pytorchjobs.kubeflow.org/finalizers").assertOk();
      Kubectl.run("create", "rolebinding", "finalizers", "-n", ns, "--role=finalizers",
          "--serviceaccount=" + ns + ":creator").assertOk();
      Kubectl.Result allowed = await("the finalizers right in force").atMost(WAIT).until(
          () -> Kubectl.runWithInput(child.formatted("second", uid), "create", "-n", ns, as, "-f", "-"),
          r -> r.exitCode() == 0);

      assertThat(refused.exitCode()).isNotZero();
      assertThat(refused.stderr()).contains("forbidden").contains("cannot set blockOwnerDeletion");
      assertThat(allowed.stdout()).contains("pod/second created");
    } finally {
      cluster.client().namespaces().withName(ns).delete();
    }
  }

  /**
   * A child created with blockOwnerDeletion in the namespace of the kind's jobs: the API server checked update on
   * that kind's finalizers (OwnerReferencesPermissionEnforcement), with no request of its own in the log.
   */
  static boolean childCreated(List<AuditLog.Request> requests, RbacGrants.Grant finalizers,
                                      Map<Kind, String> namespaces) {
    String plural = finalizers.resource().substring(0, finalizers.resource().indexOf('/'));
    return namespaces.entrySet().stream().filter(e -> e.getKey().plural().equals(plural))
        .anyMatch(e -> requests.stream().anyMatch(r -> "create".equals(r.verb()) && r.code() == 201
            && "pods".equals(r.resource()) && e.getValue().equals(r.namespace())));
  }

  private static String key(RbacGrants.Grant g) {
    return g.apiGroup().equals("kubeflow.org") && g.verb().equals("delete") ? "delete"
        : g.verb() + " " + g.resource();
  }

  static void assertNoneRefused(List<AuditLog.Request> requests) {
    assertThat(requests).as("requests of the operator in the audit log").isNotEmpty();
    List<String> refused = requests.stream().filter(AuditLog.Request::forbidden).map(AuditLog.Request::describe)
        .distinct().collect(Collectors.toList());
    assertThat(refused).as("requests of the operator that the API server refused (a rule deploy/ lacks)").isEmpty();
  }

  /** The Lease is created by the first leader: deleting it makes the run use create too. */
  static void freshLease() {
    cluster.client().leases().inNamespace("stint-system").withName("stint").delete();
    await().atMost(WAIT)
        .until(() -> cluster.client().leases().inNamespace("stint-system").withName("stint").get() == null);
  }
}
