package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * {@code runPolicy.serviceMode: PerJob} on the local control plane, for every kind and the JAXJob plugin: one headless
 * Service named as the job (the MPIJob's own, which it always had), no Service per replica, each pod with its name as
 * {@code hostname} and the job as {@code subdomain}, so the EndpointSlice controller publishes every pod's hostname
 * under the Service (what the cluster's DNS serves as {@code <pod>.<job>.<namespace>.svc}); every address written into
 * the pods names {@code <pod>.<job>}; the same names after a gang restart and after a suspension and resumption; and
 * a change of the mode refused by the CRD.
 */
class JobServiceIT {
  static final Duration WAIT = Duration.ofSeconds(120);

  /** A kind, and the variable (or the MPI hostfile line) that must name a pod under the job's Service. */
  record LeanKind(RbacJobs.Kind kind, String addressVariable, String addressedPod) {
    @Override
    public String toString() {
      return kind.kind();
    }
  }

  static final List<LeanKind> KINDS = List.of(
      new LeanKind(GangRestartIT.kind(RbacJobs.PYTORCH, "Master", 1, "Worker", 2), "MASTER_ADDR", "master-0"),
      new LeanKind(GangRestartIT.kind(RbacJobs.TENSORFLOW, "Chief", 1, "Worker", 2), "TF_CONFIG", "worker-1"),
      new LeanKind(GangRestartIT.kind(RbacJobs.MPI, "Launcher", 1, "Worker", 2), null, null),
      new LeanKind(GangRestartIT.kind(RbacJobs.JAX, "Worker", 3), "COORDINATOR_ADDRESS", "worker-0"));

  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.namespace("lean").withJaxPlugin("lean-plugins-").withOperator();

  @ParameterizedTest(name = "{0}")
  @FieldSource("KINDS")
  void oneServicePerJobNamesEveryPodTheSameThroughRestartsAndSuspensions(LeanKind k) {
    String job = k.kind().kind().toLowerCase() + "-lean";
    Kubectl.runWithInput(k.kind().manifest(job, null, "OnFailure",
        "{serviceMode: PerJob, failurePolicy: {maxRestarts: 3}}", ""), "apply", "-n", cluster.ns(), "-f", "-")
        .assertOk();
    int size = k.kind().replicas().values().stream().mapToInt(Integer::intValue).sum();

    Set<String> first = awaitNamed(k, job, size);
    Kubectl.run("annotate", "pod", ReplicaPods.podName(cluster.client(), cluster.ns(), job + "-worker-0"), "-n",
        cluster.ns(), "--overwrite", KueueScenario.EXIT_CODE + "=1").assertOk();
    await("a gang restart of " + job).atMost(WAIT).untilAsserted(() -> assertThat(uids(job))
        .hasSize(size).doesNotContainAnyElementsOf(first));
    Set<String> restarted = awaitNamed(k, job, size);

    RbacJobs.suspend(k.kind(), cluster.ns(), job, true);
    await("no pod of the suspended " + job).atMost(WAIT).untilAsserted(() ->
        assertThat(RbacJobs.pods(cluster.client(), cluster.ns(), job)).isEmpty());
    RbacJobs.suspend(k.kind(), cluster.ns(), job, false);
    await("new pods of the resumed " + job).atMost(WAIT).untilAsserted(() -> assertThat(uids(job))
        .hasSize(size).doesNotContainAnyElementsOf(restarted));
    awaitNamed(k, job, size);

    Kubectl.Result change = Kubectl.run("patch", k.kind().plural(), job, "-n", cluster.ns(), "--type=merge", "-p",
        "{\"spec\":{\"runPolicy\":{\"serviceMode\":\"PerReplica\"}}}");
    assertThat(change.exitCode()).as("a change of mode is refused").isNotZero();
    // PerJob is an MPIJob's only mode, the same as unset: refused as a value it cannot take, nothing else to keep
    boolean oneMode = "MPIJob".equals(k.kind().kind());
    assertThat(change.stderr()).contains(oneMode ? "spec.runPolicy.serviceMode: an MPIJob always has one Service"
        : "spec.runPolicy.serviceMode is immutable");
    if (!oneMode) {
      Kubectl.Result dropped = Kubectl.run("patch", k.kind().plural(), job, "-n", cluster.ns(), "--type=json", "-p",
          "[{\"op\":\"remove\",\"path\":\"/spec/runPolicy\"}]");
      assertThat(dropped.exitCode()).as("nor by removing the whole runPolicy").isNotZero();
      assertThat(dropped.stderr()).contains("spec.runPolicy.serviceMode is immutable");
    }
  }

  /**
   * Waits until the job runs its pods, each with its name as hostname under the job's Service, the Service is the
   * job's only one and publishes every pod's hostname, and the kind's address names a pod under it.
   */
  Set<String> awaitNamed(LeanKind k, String job, int size) {
    await(job + " named under its Service").atMost(WAIT).untilAsserted(() -> {
      List<Pod> pods = live(job);
      assertThat(pods).hasSize(size).allSatisfy(p -> {
        assertThat(p.getStatus().getPhase()).isEqualTo("Running");
        assertThat(p.getSpec().getSubdomain()).isEqualTo(job);
        assertThat(p.getSpec().getHostname()).isEqualTo(p.getMetadata().getName().startsWith(job + "-launcher")
            ? job + "-launcher" : p.getMetadata().getName());
      });
      List<Service> services = cluster.services().withLabel("training.kubeflow.org/job-name", job)
          .list().getItems();
      assertThat(services).extracting(s -> s.getMetadata().getName()).as("the job's one Service")
          .containsExactly(job);
      assertThat(services.get(0).getSpec().getClusterIP()).isEqualTo("None");
      Set<String> published = cluster.client().discovery().v1().endpointSlices().inNamespace(cluster.ns())
          .withLabel("kubernetes.io/service-name", job).list().getItems().stream()
          .map(EndpointSlice::getEndpoints).filter(Objects::nonNull).flatMap(List::stream)
          .map(Endpoint::getHostname).filter(Objects::nonNull).collect(Collectors.toSet());
      assertThat(published).as("hostnames the DNS serves under " + job)
          .containsAll(pods.stream().map(p -> p.getSpec().getHostname()).toList());
      if (k.addressVariable() != null) {
        String expected = job + "-" + k.addressedPod() + "." + job;
        assertThat(pods).allSatisfy(p -> assertThat(env(p, k.addressVariable())).contains(expected)
            .doesNotContain(job + "-" + k.addressedPod() + "." + cluster.ns()));
      }
    });
    return uids(job);
  }

  static List<Pod> live(String job) {
    return RbacJobs.pods(cluster.client(), cluster.ns(), job).stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
  }

  static Set<String> uids(String job) {
    return live(job).stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toCollection(HashSet::new));
  }

  static String env(Pod pod, String name) {
    return pod.getSpec().getContainers().stream().flatMap(c -> c.getEnv() == null ? null : c.getEnv().stream())
        .filter(e -> name.equals(e.getName())).map(EnvVar::getValue).findFirst().orElse("");
  }
}
