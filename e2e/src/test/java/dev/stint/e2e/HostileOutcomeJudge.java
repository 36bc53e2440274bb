package dev.stint.e2e;

import static dev.stint.e2e.HostileKind.KINDS;
import static dev.stint.e2e.HostileKind.PYTORCH;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.e2e.HostileCase.Expect;
import dev.stint.e2e.HostileCase.HeldName;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Applies the hostile specs in a namespace and judges what each comes to: refused naming a field, {@code Failed=True}
 * naming the field or object, or valid and {@code Created=True}. What breaks the property is a violation in the tally.
 */
final class HostileOutcomeJudge {
  static final Duration OUTCOME_TIMEOUT = Duration.ofSeconds(60);
  static final KubernetesSerialization JSON = new KubernetesSerialization();
  static final String BATCH_LABEL = "stint.dev/hostile-batch";

  private final KubernetesClient client;
  private final String ns;

  HostileOutcomeJudge(KubernetesClient client, String ns) {
    this.client = client;
    this.ns = ns;
  }

  /** Creates a case's job with kubectl; a refusal is judged at once. */
  void create(HostileCase c, int batch, HostileTally tally) {
    if (c.heldName != null) {
      holdName(c.heldName);
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> metadata = (Map<String, Object>) c.job.get("metadata");
    metadata.put("labels", Map.of(BATCH_LABEL, Integer.toString(batch)));
    Kubectl.Result result = Kubectl.runWithInput(JSON.asJson(c.job), "create", "-n", ns, "-f", "-");
    if (result.exitCode() == 0) return;
    tally.refused++;
    String words = result.stderr().strip();
    c.outcome = "refused: " + words;
    if (c.expect == Expect.VALID) {
      tally.violate(c, "a valid spec was refused by the API server: " + words);
    } else if (c.words.stream().noneMatch(words::contains)) {
      tally.violate(c, "refused by the API server without naming any of " + c.words + ": " + words);
    }
  }

  /** Creates a PyTorchJob Stint must leave alone, and an object it controls named as the case's child would be. */
  private void holdName(HeldName held) {
    String job = JSON.asJson(Map.of("apiVersion", "kubeflow.org/v1", "kind", "PyTorchJob",
        "metadata", Map.of("name", held.holder()),
        "spec", Map.of("runPolicy", Map.of("managedBy", "kueue.x-k8s.io/multikueue"),
            "pytorchReplicaSpecs", Map.of("Worker", HostileSpecGenerator.replica(PYTORCH, 1)))));
    Kubectl.runWithInput(job, "create", "-n", ns, "-f", "-").assertOk();
    String uid = client.genericKubernetesResources("kubeflow.org/v1", "PyTorchJob").inNamespace(ns)
        .withName(held.holder()).get().getMetadata().getUid();
    Map<String, Object> owner = Map.of("apiVersion", "kubeflow.org/v1", "kind", "PyTorchJob", "name", held.holder(),
        "uid", uid, "controller", true);
    Map<String, Object> metadata = Map.of("name", held.name(), "ownerReferences", List.of(owner));
    Map<String, Object> object = switch (held.objectKind()) {
      case "Pod" -> Map.of("apiVersion", "v1", "kind", "Pod", "metadata", metadata,
          "spec", Map.of("containers", List.of(Map.of("name", "c", "image", "busybox"))));
      case "Service" -> Map.of("apiVersion", "v1", "kind", "Service", "metadata", metadata,
          "spec", Map.of("clusterIP", "None", "selector", Map.of("app", held.holder())));
      // suspended: it holds the name and runs nothing
      case "Job" -> Map.of("apiVersion", "batch/v1", "kind", "Job", "metadata", metadata,
          "spec", Map.of("suspend", true, "template", Map.of("spec", Map.of("restartPolicy", "Never",
              "containers", List.of(Map.of("name", "c", "image", "busybox"))))));
      default -> Map.of("apiVersion", "v1", "kind", "ConfigMap", "metadata", metadata, "data", Map.of("k", "v"));
    };
    Kubectl.runWithInput(JSON.asJson(object), "create", "-n", ns, "-f", "-").assertOk();
  }

  /** Waits, for every accepted case together, until it shows its outcome or has had its time; then judges it. */
  void awaitOutcomes(List<HostileCase> cases, HostileTally tally) {
    List<HostileCase> accepted = cases.stream().filter(c -> c.outcome.isEmpty()).toList();
    try {
      // every job was created before this wait began, so each has at least OUTCOME_TIMEOUT
      await().atMost(OUTCOME_TIMEOUT).pollInterval(Duration.ofMillis(500))
          .until(() -> accepted.stream().allMatch(this::settled));
    } catch (ConditionTimeoutException e) {
      // judged below, case by case
    }
    for (HostileCase c : accepted) {
      judge(c, tally);
    }
  }

  private void judge(HostileCase c, HostileTally tally) {
    Map<String, Map<String, String>> conditions = conditions(c);
    Optional<Map<String, String>> failed = isTrue(conditions, "Failed");
    Optional<Map<String, String>> created = isTrue(conditions, "Created");
    c.outcome = "conditions " + conditions.keySet() + failed.map(f -> ", Failed " + f.get("reason") + ": "
        + f.get("message")).orElse("");
    if (failed.isPresent()) {
      tally.failed++;
      String message = failed.get().get("message") == null ? "" : failed.get().get("message");
      if (c.expect == Expect.VALID) {
        tally.violate(c, "a valid job ended Failed: " + failed.get().get("reason") + ": " + message);
      } else if (c.words.stream().noneMatch(message::contains)) {
        tally.violate(c, "Failed without naming any of " + c.words + ": " + failed.get().get("reason") + ": "
            + message);
      }
    } else if (conditions.isEmpty()) {
      tally.violate(c, "no condition at all after " + OUTCOME_TIMEOUT.toSeconds() + " s");
    } else if (c.expect == Expect.INVALID) {
      tally.violate(c, "accepted by the API server and not Failed after " + OUTCOME_TIMEOUT.toSeconds()
          + " s; conditions " + conditions);
    } else if (created.isPresent()) {
      tally.valid++;
    } else {
      tally.violate(c, "valid, but no Created=True after " + OUTCOME_TIMEOUT.toSeconds() + " s; conditions "
          + conditions);
    }
  }

  /** Whether a case shows what it waits for: Failed=True for an invalid one, Created=True for a valid one. */
  private boolean settled(HostileCase c) {
    Map<String, Map<String, String>> conditions = conditions(c);
    if (isTrue(conditions, "Failed").isPresent()) return true;
    return c.expect == Expect.VALID && isTrue(conditions, "Created").isPresent();
  }

  /** The job's conditions by type (type, status, reason, message), in order; empty when it has none or is gone. */
  @SuppressWarnings("unchecked")
  private Map<String, Map<String, String>> conditions(HostileCase c) {
    GenericKubernetesResource job = client.genericKubernetesResources(c.kind.apiVersion(), c.kind.kind())
        .inNamespace(ns).withName(c.name).get();
    Map<String, Map<String, String>> byType = new LinkedHashMap<>();
    if (job == null || !(job.getAdditionalProperties().get("status") instanceof Map<?, ?> status)) return byType;
    if (status.get("conditions") instanceof List<?> list) {
      for (Object item : list) {
        Map<String, Object> condition = (Map<String, Object>) item;
        Map<String, String> fields = new LinkedHashMap<>();
        condition.forEach((k, v) -> fields.put(k, v == null ? null : v.toString()));
        byType.put(fields.get("type"), fields);
      }
    }
    return byType;
  }

  private static Optional<Map<String, String>> isTrue(Map<String, Map<String, String>> conditions, String type) {
    return Optional.ofNullable(conditions.get(type)).filter(c -> "True".equals(c.get("status")));
  }

  void deleteBatch(int batch) {
    for (HostileKind kind : KINDS) {
      client.genericKubernetesResources(kind.apiVersion(), kind.kind()).inNamespace(ns)
          .withLabel(BATCH_LABEL, Integer.toString(batch)).delete();
    }
  }

  /** A valid job created after all the hostile ones still runs: the operator is not only alive but working. */
  String controlJobReachesRunning() {
    HostileSpecGenerator generator = new HostileSpecGenerator(0);
    HostileCase control = generator.valid(PYTORCH, "control", "control");
    Kubectl.runWithInput(JSON.asJson(control.job), "create", "-n", ns, "-f", "-").assertOk();
    await().atMost(OUTCOME_TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
        assertThat(isTrue(conditions(control), "Running")).as("control job Running=True; conditions %s",
            conditions(control)).isPresent());
    return "control job Running=True";
  }
}
