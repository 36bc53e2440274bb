package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.pytorch.PyTorchJob;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How long a gang restart takes on the local control plane (kwok nodes, no container start, pods deleted at once):
 * from a member's failure (its pod seen {@code Failed} by a watch) to the last pod of the new attempt created (seen by
 * the watch), and to the job's {@code Running=True} again, for N replicas (a master and N-1 workers). It prints the
 * figures and asserts only what happened, never how fast.
 */
class GangRestartTimingIT {
  static final Duration WAIT = Duration.ofMinutes(4);
  static final String ATTEMPT = "training.kubeflow.org/restart-attempt";
  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.namespace("gang-timing").withOperator();

  static String job(String name, int replicas) {
    String template = "      template: {spec: {containers: [{name: pytorch, image: busybox}]}}\n";
    return "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: " + name + "}\nspec:\n"
        + "  runPolicy: {failurePolicy: {maxRestarts: 1}}\n  pytorchReplicaSpecs:\n"
        + "    Master:\n      replicas: 1\n      restartPolicy: OnFailure\n" + template
        + "    Worker:\n      replicas: " + (replicas - 1) + "\n      restartPolicy: OnFailure\n" + template;
  }

  boolean running(String name) {
    PyTorchJob job = cluster.resources(PyTorchJob.class).withName(name).get();
    return job != null && job.getStatus() != null && job.getStatus().isTrue("Running");
  }

  /**
   * What the cluster held when the wait ran out (each pod's UID, attempt, node, phase and deletion, and the job's
   * status), so that a hang says whether the pods, the kubelet (kwok) or the operator stopped.
   */
  void dumpState(String name, int createdSeen, Instant runningAgainSeen) {
    System.out.printf("GANG-RESTART TIMEOUT %s: new pods seen %d, Running again seen %s%n", name, createdSeen,
        runningAgainSeen);
    for (Pod p : cluster.pods().withLabel("training.kubeflow.org/job-name", name).list().getItems()) {
      System.out.printf("  pod %s uid=%s attempt=%s node=%s phase=%s deletion=%s created=%s%n",
          p.getMetadata().getName(), p.getMetadata().getUid(), p.getMetadata().getLabels().get(ATTEMPT),
          p.getSpec().getNodeName(), p.getStatus() == null ? null : p.getStatus().getPhase(),
          p.getMetadata().getDeletionTimestamp(), p.getMetadata().getCreationTimestamp());
    }
    System.out.println("  job " + Kubectl.run("get", "pytorchjob", name, "-n", cluster.ns(), "-o", "yaml").stdout());
  }

  @ParameterizedTest(name = "N = {0}")
  @ValueSource(ints = {4, 100})
  void restartOfNReplicas(int replicas) {
    String name = "timing-" + replicas;
    Instant create = Instant.now();
    Kubectl.runWithInput(job(name, replicas), "create", "-n", cluster.ns(), "-f", "-").assertOk();
    await().atMost(WAIT).until(() -> running(name));
    Duration firstStart = Duration.between(create, Instant.now()); // for comparison: the job's first start

    AtomicReference<Instant> failed = new AtomicReference<>();
    Map<String, Instant> created = new ConcurrentHashMap<>();
    AtomicReference<Instant> runningAgain = new AtomicReference<>();
    AtomicReference<Instant> failedFallback = new AtomicReference<>();
    String member = name + "-worker-" + (replicas - 2);
    try (Watch pods = cluster.pods().withLabel("training.kubeflow.org/job-name", name).watch(new Watcher<>() {
          @Override
          public void eventReceived(Action action, Pod pod) {
            Instant now = Instant.now();
            if (member.equals(pod.getMetadata().getName()) && pod.getStatus() != null
                && "Failed".equals(pod.getStatus().getPhase())) {
              failed.compareAndSet(null, now);
            }
            if (action == Action.ADDED && "1".equals(pod.getMetadata().getLabels().get(ATTEMPT))) {
              created.putIfAbsent(pod.getMetadata().getName(), now);
            }
          }

          @Override
          public void onClose(WatcherException cause) { }
        });
         Watch jobs = cluster.resources(PyTorchJob.class).withName(name).watch(new Watcher<>() {
          @Override
          public void eventReceived(Action action, PyTorchJob job) {
            if (job.getStatus() != null && Integer.valueOf(1).equals(job.getStatus().getRestarts())
                && job.getStatus().isTrue("Running")) {
              runningAgain.compareAndSet(null, Instant.now());
            }
          }

          @Override
          public void onClose(WatcherException cause) { }
        })) {
      failedFallback.set(Instant.now());
      Kubectl.run("annotate", "pod", member, "-n", cluster.ns(), "stint.dev/kwok-exit-code=137").assertOk();
      try {
        await().atMost(WAIT).until(() -> runningAgain.get() != null && created.size() == replicas);
      } catch (ConditionTimeoutException e) {
        dumpState(name, created.size(), runningAgain.get());
        throw e;
      }
    }
    Instant lastCreated = created.values().stream().max(Instant::compareTo).orElseThrow();
    failed.compareAndSet(null, failedFallback.get()); // the watch missed Failed: from the exit's annotation
    System.out.printf("GANG-RESTART N=%d: failure to last new pod created %d ms, failure to Running=True %d ms "
            + "(for comparison, kubectl create to Running=True: %d ms, polled)%n", replicas,
        Duration.between(failed.get(), lastCreated).toMillis(), Duration.between(failed.get(), runningAgain.get())
            .toMillis(), firstStart.toMillis());
    assertThat(cluster.pods().withLabel("training.kubeflow.org/job-name", name).list().getItems())
        .hasSize(replicas).allSatisfy(p -> assertThat(p.getMetadata().getLabels()).containsEntry(ATTEMPT, "1"));
    assertThat(Set.copyOf(created.keySet())).hasSize(replicas);
    Kubectl.run("delete", "pytorchjob", name, "-n", cluster.ns()).assertOk();
  }
}
