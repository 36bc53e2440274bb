package dev.stint.e2e;

import static dev.stint.e2e.RbacJobs.PYTORCH;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * docs/migrating.md's swap, both ways, with the real Kubeflow training operator v1.9.3 (bench/kubeflow.sh builds it
 * from its Go module): PyTorchJobs running, suspended and finished under one operator are taken over by the other
 * after the documented steps (stop it, apply the other's CRD server-side, start the other) without a pod or service
 * recreated, and then suspend, resume and succeed under the new one.
 */
class KubeflowSwapIT {
  private static final Duration WAIT = Duration.ofSeconds(90);

  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.namespace("swap");

  @Test
  void jobsOfEveryStateMoveFromKubeflowToStintAndBackWithTheirPods() throws Exception {
    String ns = cluster.ns();
    SwapJobs jobs = new SwapJobs(cluster.client(), PYTORCH, ns, WAIT);
    Path upstreamCrd = upstreamPyTorchJobCrd();
    Process kubeflow = startKubeflow(upstreamCrd);
    try {
      jobs.createOneInEveryState();
    } finally {
      stop(kubeflow);
    }
    Map<String, String> before = children(ns);
    assertThat(before).containsKeys("Pod/running-master-0", "Service/running-master-0");

    // to Stint: its CRD over Kubeflow's, server-side, then Stint
    Kubectl.run("apply", "--server-side", "--force-conflicts", "-f",
        LocalCluster.ROOT.resolve("crds/pytorchjobs.kubeflow.org-v1.yml").toString()).assertOk();
    try (OperatorProcess stint = OperatorProcess.start("--frameworks=pytorch")) {
      stint.awaitStarted(WAIT);
      RbacJobs.finish(cluster.client(), ns, "running", 0);
      jobs.awaitCondition("running", "Succeeded"); // only Stint runs: it took the job over
      assertThat(children(ns)).as("pods and services after the swap to Stint").containsAllEntriesOf(before);
      resumeToSuccess(jobs, "suspended", "Stint");
      assertThat(RbacJobs.condition(cluster.client(), PYTORCH, ns, "finished", "Succeeded")).isEqualTo("True");

      // what Stint runs when it hands back
      jobs.create(PYTORCH.running("back-running"));
      jobs.create(PYTORCH.manifest("back-suspended", null, "OnFailure", "{suspend: true}", ""));
      jobs.awaitCondition("back-running", "Running");
      jobs.awaitCondition("back-suspended", "Suspended");
      assertThat(stint.alive()).isTrue();
    }
    Map<String, String> handedBack = children(ns);

    // and back: Kubeflow's CRD, then Kubeflow
    kubeflow = startKubeflow(upstreamCrd);
    try {
      RbacJobs.finish(cluster.client(), ns, "back-running", 0);
      jobs.awaitCondition("back-running", "Succeeded");
      assertThat(children(ns)).as("pods and services after the swap back").containsAllEntriesOf(handedBack);
      resumeToSuccess(jobs, "back-suspended", "Kubeflow");
    } finally {
      stop(kubeflow);
      LocalCluster.installCrds(); // Stint's CRDs again, for the tests after this one
    }
  }

  /** The operator running now resumes the suspended job (its one pod made), whose pod then exits 0: it succeeds. */
  private static void resumeToSuccess(SwapJobs jobs, String name, String operator) {
    RbacJobs.suspend(PYTORCH, jobs.ns(), name, false);
    await(operator + " resumed the suspended job").atMost(WAIT)
        .until(() -> RbacJobs.pods(cluster.client(), jobs.ns(), name).size() == 1);
    RbacJobs.finish(cluster.client(), jobs.ns(), name, 0);
    jobs.awaitCondition(name, "Succeeded");
  }

  /** kind/name -> uid of every pod and service in the namespace. */
  private static Map<String, String> children(String ns) {
    return UpstreamOperator.uids(cluster.client(), ns, List.of(Pod.class, Service.class));
  }

  /** bench/kubeflow.sh: its build (a no-op once built), its CRD over Stint's, its namespace; then it, as a process. */
  private static Process startKubeflow(Path upstreamCrd) throws IOException {
    return UpstreamOperator.start("bench/kubeflow.sh", upstreamCrd);
  }

  private static Path upstreamPyTorchJobCrd() {
    return UpstreamOperator.moduleFile("github.com/kubeflow/training-operator",
        System.getenv().getOrDefault("STINT_KUBEFLOW_VERSION", "v1.9.3"),
        "manifests/base/crds/kubeflow.org_pytorchjobs.yaml");
  }

  private static void stop(Process process) throws InterruptedException {
    UpstreamOperator.stop(process);
  }
}
