package dev.stint.e2e;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;

/**
 * One kind's jobs in the namespace of a swap test ({@link KubeflowSwapIT}, {@link MpiOperatorSwapIT}: docs/migrating.md
 * between an upstream operator and Stint), created with kubectl as a user creates them and followed through their
 * conditions, whichever operator runs them.
 */
record SwapJobs(KubernetesClient client, RbacJobs.Kind kind, String ns, Duration timeout) {

  void create(String manifest) {
    Kubectl.runWithInput(manifest, "create", "-n", ns, "-f", "-").assertOk();
  }

  void awaitCondition(String name, String type) {
    await(ns + "/" + name + " " + type).atMost(timeout)
        .until(() -> "True".equals(RbacJobs.condition(client, kind, ns, name, type)));
  }

  /**
   * What a swap takes over from the operator running now: a job {@code running}, one {@code suspended} from its
   * creation and one {@code finished} (its pods exit 0 at once), each seen in that state.
   */
  void createOneInEveryState() {
    create(kind.running("running"));
    create(kind.manifest("suspended", null, "OnFailure", "{suspend: true}", ""));
    create(kind.manifest("finished", 0, "OnFailure", "{}", ""));
    awaitCondition("running", "Running");
    awaitCondition("suspended", "Suspended");
    awaitCondition("finished", "Succeeded");
  }
}
