package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.pytorch.PyTorchJob;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Children the real API server refuses: for good (the job ends Failed at once, in the API server's words, and keeps
 * no pod running), or for a while (exceeded quota: retried, shown, and the job runs once the quota allows).
 */
class RefusedChildrenIT {
  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.namespace("refused").withOperator();

  /** A PyTorchJob of a Master and a Worker as JSON; the extras are JSON members added to the template's metadata
   *  and to its container. */
  static String job(String name, String namespace, String metadataExtra, String containerExtra) {
    String template = """
        {"metadata": {%s}, "spec": {
          "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}],
          "containers": [{"name": "pytorch", "image": "busybox"%s}]}}""".formatted(metadataExtra,
        containerExtra.isEmpty() ? "" : ", " + containerExtra);
    return """
        {"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob",
         "metadata": {"name": "%s", "namespace": "%s"},
         "spec": {"pytorchReplicaSpecs": {
           "Master": {"replicas": 1, "restartPolicy": "OnFailure", "template": %s},
           "Worker": {"replicas": 1, "restartPolicy": "OnFailure", "template": %s}}}}""".formatted(
        name, namespace, template, template);
  }

  static JobStatus status(String namespace, String name) {
    PyTorchJob job = cluster.client().resources(PyTorchJob.class).inNamespace(namespace).withName(name).get();
    return job == null || job.getStatus() == null ? new JobStatus() : job.getStatus();
  }

  static JobCondition failedCondition(String namespace, String name) {
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
        assertThat(status(namespace, name).isTrue("Failed")).as("%s failed", name).isTrue());
    return status(namespace, name).condition("Failed").orElseThrow();
  }

  static List<String> warnings(String namespace, String job, String reason) {
    return cluster.client().v1().events().inNamespace(namespace).list().getItems().stream()
        .filter(e -> job.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason()))
        .map(Event::getMessage).toList();
  }

  @Test
  void aLabelValueTooLongFailsTheJobBeforeAnyPodNamingTheTemplatesField() {
    // the engine checks template labels as the API server would, so the message names the job's field rather than
    // the child's (an MPI launcher's Job would say spec.template.labels)
    String label = "v".repeat(64);
    Kubectl.runWithInput(job("long-label", cluster.ns(), "\"labels\": {\"team\": \"" + label + "\"}", ""),
        "apply", "-f", "-").assertOk();
    JobCondition failed = failedCondition(cluster.ns(), "long-label");
    assertThat(failed.getReason()).isEqualTo("PyTorchJobFailedValidation");
    assertThat(failed.getMessage()).startsWith("PyTorchJob long-label is invalid: ")
        .contains("spec.pytorchReplicaSpecs.Master.template.metadata.labels: Invalid value: \"" + label
            + "\": must be no more than 63 characters")
        .contains("spec.pytorchReplicaSpecs.Worker.template.metadata.labels");
    assertThat(status(cluster.ns(), "long-label").isTrue("Created")).isTrue();
    assertThat(status(cluster.ns(), "long-label").getCompletionTime()).isNotNull();
    assertThat(cluster.pods().withLabel("training.kubeflow.org/job-name", "long-label").list().getItems())
        .as("no pod was ever created").isEmpty();
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(warnings(cluster.ns(), "long-label", "PyTorchJobFailedValidation")).hasSize(1));
  }

  @Test
  void cpuRequestsAboveLimitsEndTheJobNamingTheField() {
    Kubectl.runWithInput(job("greedy", cluster.ns(), "",
        "\"resources\": {\"requests\": {\"cpu\": \"2\"}, \"limits\": {\"cpu\": \"1\"}}"), "apply", "-f", "-").assertOk();
    JobCondition failed = failedCondition(cluster.ns(), "greedy");
    assertThat(failed.getReason()).isEqualTo("PyTorchJobFailedCreate");
    assertThat(failed.getMessage()).contains("greedy-master-0").contains("resources.requests")
        .contains("must be less than or equal to cpu limit");
  }

  @Test
  void aPodNameHeldByAnotherObjectEndsTheJobAndLeavesThatObjectAlone() {
    cluster.pods().resource(new PodBuilder().withNewMetadata().withName("clash-worker-0")
        .endMetadata().withNewSpec().addNewToleration().withKey("kwok.x-k8s.io/node").withOperator("Exists")
        .withEffect("NoSchedule").endToleration().addNewContainer().withName("c").withImage("busybox").endContainer()
        .endSpec().build()).create();
    String foreignUid = cluster.pods().withName("clash-worker-0").get().getMetadata().getUid();
    Kubectl.runWithInput(job("clash", cluster.ns(), "", ""), "apply", "-f", "-").assertOk();

    JobCondition failed = failedCondition(cluster.ns(), "clash");
    assertThat(failed.getReason()).isEqualTo("PyTorchJobFailedCreate");
    assertThat(failed.getMessage()).isEqualTo("PyTorchJob clash failed: Pod clash-worker-0 already exists and is not "
        + "this job's: it has no controller; delete it or give the job another name");
    // the job's own master does not keep running; the other pod is untouched
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
        assertThat(cluster.pods().withName("clash-master-0").get()).isNull());
    assertThat(cluster.pods().withName("clash-worker-0").get().getMetadata().getUid())
        .isEqualTo(foreignUid);
  }

  @Test
  void exceededQuotaIsRetriedShownOnceAndTheJobRunsWhenTheQuotaAllows() {
    String quotaNs = LocalCluster.namespace(cluster.client(), "quota");
    try {
      ResourceQuota quota = new ResourceQuotaBuilder().withNewMetadata().withName("pods").endMetadata()
          .withNewSpec().withHard(Map.of("pods", new Quantity("1"))).endSpec().build();
      cluster.client().resourceQuotas().inNamespace(quotaNs).resource(quota).create();
      // the quota controller counts usage before admission enforces it exactly
      await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(cluster.client().resourceQuotas()
          .inNamespace(quotaNs).withName("pods").get().getStatus().getHard()).containsKey("pods"));
      Kubectl.runWithInput(job("queued", quotaNs, "", ""), "apply", "-f", "-").assertOk();

      await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> {
        JobCondition blocked = status(quotaNs, "queued").condition("ReplicaFailure").orElseThrow();
        assertThat(blocked.getStatus()).isEqualTo("True");
        assertThat(blocked.getReason()).isEqualTo("PyTorchJobQuotaExceeded");
        assertThat(blocked.getMessage()).contains("exceeded quota: pods");
      });
      assertThat(status(quotaNs, "queued").isTrue("Failed")).isFalse();

      cluster.client().resourceQuotas().inNamespace(quotaNs).withName("pods")
          .edit(q -> new ResourceQuotaBuilder(q).editSpec().withHard(Map.of("pods", new Quantity("10"))).endSpec()
              .build());
      // retried with backoff (at most 60 s apart): the job gets its second pod and runs
      await().atMost(Duration.ofSeconds(150)).untilAsserted(() -> {
        assertThat(cluster.client().pods().inNamespace(quotaNs).withLabel("training.kubeflow.org/job-name", "queued")
            .list().getItems()).hasSize(2);
        assertThat(status(quotaNs, "queued").condition("ReplicaFailure")).isEmpty();
      });
      assertThat(status(quotaNs, "queued").isTrue("Failed")).isFalse();
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
          assertThat(warnings(quotaNs, "queued", "PyTorchJobQuotaExceeded")).as("one event per cause").hasSize(1));
    } finally {
      cluster.client().namespaces().withName(quotaNs).delete();
    }
  }
}
