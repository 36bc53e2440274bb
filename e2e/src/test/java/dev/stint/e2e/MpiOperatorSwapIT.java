package dev.stint.e2e;

import static dev.stint.e2e.RbacJobs.MPI;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * docs/migrating.md's swap between the MPI Operator v0.6.0 (bench/mpi-operator.sh builds it from its Go module) and
 * Stint, both ways, with one launcher throughout: the MPI Operator runs an MPIJob's launcher as a batch Job
 * {@code <job>-launcher} controlled by the MPIJob, and so does Stint, so each takes the other's Job, with its running
 * pod, as its own. MPIJobs running, finished and suspended are taken over without a pod, Service, ConfigMap or Secret
 * recreated, a running one keeps exactly one launcher pod, and each then goes on under the new operator.
 */
class MpiOperatorSwapIT {
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final List<Class<? extends io.fabric8.kubernetes.api.model.HasMetadata>> CHILDREN =
      List.of(Pod.class, Service.class, ConfigMap.class, Secret.class, Job.class);

  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.namespace("mpiswap");

  @Test
  void mpiJobsMoveFromTheMpiOperatorToStintAndBackWithOneLauncher() throws Exception {
    String ns = cluster.ns();
    SwapJobs jobs = new SwapJobs(cluster.client(), MPI, ns, WAIT);
    Path upstreamCrd = UpstreamOperator.moduleFile("github.com/kubeflow/mpi-operator",
        System.getenv().getOrDefault("STINT_MPI_OPERATOR_VERSION", "v0.6.0"),
        "manifests/base/kubeflow.org_mpijobs.yaml");
    Process mpiOperator = UpstreamOperator.start("bench/mpi-operator.sh", upstreamCrd);
    try {
      jobs.createOneInEveryState();
    } finally {
      UpstreamOperator.stop(mpiOperator);
    }
    assertThat(launcherPods(ns, "running")).as("the MPI Operator's launcher pod").singleElement()
        .satisfies(p -> assertThat(p.getMetadata().getName()).startsWith("running-launcher-"));
    Map<String, String> before = UpstreamOperator.uids(cluster.client(), ns, CHILDREN);
    assertThat(before).containsKeys("Job/running-launcher", "Service/running", "ConfigMap/running-config",
        "Secret/running-ssh", "Pod/running-worker-0");

    // to Stint: its CRD over the MPI Operator's, server-side, then Stint
    Kubectl.run("apply", "--server-side", "--force-conflicts", "-f",
        LocalCluster.ROOT.resolve("crds/mpijobs.kubeflow.org-v2beta1.yml").toString()).assertOk();
    try (OperatorProcess stint = OperatorProcess.start("--frameworks=mpi")) {
      stint.awaitStarted(WAIT);
      await("Stint reconciled the running job").atMost(WAIT).until(() -> reconciledByStint(ns, "running"));
      assertThat(launcherPods(ns, "running")).as("one launcher after the swap to Stint").hasSize(1);
      assertThat(UpstreamOperator.uids(cluster.client(), ns, CHILDREN)).as("children after the swap to Stint")
          .containsAllEntriesOf(withoutJob(before, "suspended"));
      assertThat(RbacJobs.condition(cluster.client(), MPI, ns, "finished", "Succeeded")).isEqualTo("True");
      assertThat(RbacJobs.condition(cluster.client(), MPI, ns, "suspended", "Suspended")).isEqualTo("True");
      assertThat(RbacJobs.pods(cluster.client(), ns, "suspended")).isEmpty();

      // suspended and resumed under Stint: its own launcher Job, then success
      RbacJobs.suspend(MPI, ns, "running", true);
      await("running suspended: no pod, no launcher Job").atMost(WAIT).until(() ->
          RbacJobs.pods(cluster.client(), ns, "running").isEmpty() && launcherJobs(ns, "running").isEmpty());
      // a worker more while suspended: the hostfile, in the MPI Operator's ConfigMap, follows (a review saw it stay)
      Kubectl.run("patch", "mpijobs.kubeflow.org", "running", "-n", ns, "--type=merge", "-p",
          "{\"spec\":{\"mpiReplicaSpecs\":{\"Worker\":{\"replicas\":3}}}}").assertOk();
      RbacJobs.suspend(MPI, ns, "running", false);
      RbacJobs.suspend(MPI, ns, "suspended", false);
      await("the taken-over hostfile lists the third worker").atMost(WAIT).until(() -> cluster.client().configMaps()
          .inNamespace(ns).withName("running-config").get().getData().getOrDefault("hostfile", "")
          .contains("running-worker-2"));
      for (String job : List.of("running", "suspended")) {
        jobs.awaitCondition(job, "Running");
        assertThat(launcherPods(ns, job)).as("%s: one launcher under Stint", job).hasSize(1);
        await(job + " Succeeded under Stint").atMost(WAIT).until(() -> {
          RbacJobs.finish(cluster.client(), ns, job, 0);
          return "True".equals(RbacJobs.condition(cluster.client(), MPI, ns, job, "Succeeded"));
        });
      }

      // what Stint runs when it hands back
      jobs.create(MPI.running("back"));
      jobs.awaitCondition("back", "Running");
      assertThat(launcherJobs(ns, "back")).as("Stint's launcher Job").hasSize(1);
      assertThat(stint.alive()).isTrue();
    }
    assertThat(launcherPods(ns, "back")).hasSize(1);
    Map<String, String> handedBack = UpstreamOperator.uids(cluster.client(), ns, CHILDREN);

    // and back: the MPI Operator's CRD, then the MPI Operator, which finds Stint's launcher Job and keeps it
    mpiOperator = UpstreamOperator.start("bench/mpi-operator.sh", upstreamCrd);
    try {
      await("back Succeeded under the MPI Operator").atMost(WAIT).until(() -> {
        RbacJobs.finish(cluster.client(), ns, "back", 0);
        return "True".equals(RbacJobs.condition(cluster.client(), MPI, ns, "back", "Succeeded"));
      });
      assertThat(launcherJobs(ns, "back")).as("Stint's launcher Job, kept").singleElement()
          .satisfies(j -> assertThat(j.getMetadata().getUid()).isEqualTo(handedBack.get("Job/back-launcher")));
      assertThat(RbacJobs.pods(cluster.client(), ns, "back")).filteredOn(MpiOperatorSwapIT::launcher)
          .as("one launcher pod after the swap back").hasSize(1);
      assertThat(UpstreamOperator.uids(cluster.client(), ns, CHILDREN)).as("children after the swap back")
          .containsAllEntriesOf(handedBack);
    } finally {
      UpstreamOperator.stop(mpiOperator);
      LocalCluster.installCrds(); // Stint's CRDs again, for the tests after this one
    }
  }

  /** A suspended job's launcher Job, which the MPI Operator keeps suspended and Stint deletes, left out. */
  private static Map<String, String> withoutJob(Map<String, String> uids, String job) {
    Map<String, String> result = new java.util.TreeMap<>(uids);
    result.remove("Job/" + job + "-launcher");
    return result;
  }

  /** Launcher pods of the job that are not being deleted. */
  private static List<Pod> launcherPods(String ns, String job) {
    return RbacJobs.pods(cluster.client(), ns, job).stream().filter(MpiOperatorSwapIT::launcher)
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
  }

  private static boolean launcher(Pod pod) {
    return "launcher".equals(pod.getMetadata().getLabels().get("training.kubeflow.org/job-role"));
  }

  /** Batch Jobs controlled by the MPIJob. */
  private static List<Job> launcherJobs(String ns, String job) {
    String uid = RbacJobs.get(cluster.client(), MPI, ns, job).getMetadata().getUid();
    return cluster.client().batch().v1().jobs().inNamespace(ns).list().getItems().stream()
        .filter(j -> j.getMetadata().getOwnerReferences().stream()
            .anyMatch(r -> uid.equals(r.getUid()) && Boolean.TRUE.equals(r.getController())))
        .toList();
  }

  /** Stint has written the job's status: its {@code observedGeneration}, a field the MPI Operator does not write. */
  @SuppressWarnings("unchecked")
  private static boolean reconciledByStint(String ns, String job) {
    GenericKubernetesResource found = RbacJobs.get(cluster.client(), MPI, ns, job);
    Object status = found.getAdditionalProperties().get("status");
    return status instanceof Map<?, ?> map && map.get("observedGeneration") != null;
  }
}
