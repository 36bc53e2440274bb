package dev.stint.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects the driver creates: PyTorchJobs of 1 Master + W Workers (as plain maps, so the driver depends on no
 * operator's classes), and, for the plain-client limit, pods shaped like the ones an operator makes of them.
 */
final class Manifests {
  static final ResourceDefinitionContext PYTORCHJOB = new ResourceDefinitionContext.Builder()
      .withGroup("kubeflow.org").withVersion("v1").withKind("PyTorchJob").withPlural("pytorchjobs")
      .withNamespaced(true).build();
  static final String IMAGE = "docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727";
  static final List<String> COMMAND = List.of("python3", "/opt/pytorch-mnist/mnist.py", "--epochs=1");
  /** kwok (e2e/kwok-stages.yaml): a Running pod with this annotation ends with that exit code. */
  static final String EXIT_CODE = "stint.dev/kwok-exit-code";
  static final String EXIT_AFTER = "stint.dev/kwok-exit-after";

  private Manifests() {
  }

  /**
   * A PyTorchJob; {@code podAnnotations} go on both pod templates (e.g. the kwok exit annotations that make a job
   * finish by itself).
   */
  static GenericKubernetesResource pytorchJob(String namespace, String name, int workers,
                                              Map<String, String> podAnnotations) {
    return pytorchJob(namespace, name, workers, podAnnotations, null);
  }

  /** As above, with {@code runPolicy.serviceMode} when not null. */
  static GenericKubernetesResource pytorchJob(String namespace, String name, int workers,
                                              Map<String, String> podAnnotations, String serviceMode) {
    Map<String, Object> replicaSpecs = new LinkedHashMap<>();
    replicaSpecs.put("Master", replicaSpec(1, podAnnotations));
    replicaSpecs.put("Worker", replicaSpec(workers, podAnnotations));
    GenericKubernetesResource job = new GenericKubernetesResource();
    job.setApiVersion("kubeflow.org/v1");
    job.setKind("PyTorchJob");
    job.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    Map<String, Object> spec = new LinkedHashMap<>();
    if (serviceMode != null) {
      spec.put("runPolicy", Map.of("serviceMode", serviceMode));
    }
    spec.put("pytorchReplicaSpecs", replicaSpecs);
    job.setAdditionalProperty("spec", spec);
    return job;
  }

  private static Map<String, Object> replicaSpec(int replicas, Map<String, String> podAnnotations) {
    Map<String, Object> container = new LinkedHashMap<>();
    container.put("name", "pytorch");
    container.put("image", IMAGE);
    container.put("command", COMMAND);
    Map<String, Object> template = new LinkedHashMap<>();
    if (!podAnnotations.isEmpty()) {
      template.put("metadata", Map.of("annotations", podAnnotations));
    }
    template.put("spec", Map.of("containers", List.of(container)));
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("replicas", replicas);
    spec.put("restartPolicy", "OnFailure");
    spec.put("template", template);
    return spec;
  }

  /** Merge patch that suspends or resumes a job. */
  static String suspendPatch(boolean suspend) {
    return "{\"spec\":{\"runPolicy\":{\"suspend\":" + suspend + "}}}";
  }

  /** Merge patch that makes kwok end a pod with exit code 0. */
  static String exitPatch() {
    return "{\"metadata\":{\"annotations\":{\"" + EXIT_CODE + "\":\"0\"}}}";
  }

  /**
   * A pod as an operator would create it for replica {@code type}/{@code index} of {@code job}: the same container,
   * the Kubeflow labels and the torchrun environment. No owner, so nothing else acts on it.
   */
  static Pod limitPod(String namespace, String job, String type, int index, int worldSize) {
    int rank = "master".equals(type) ? 0 : index + 1;
    return new PodBuilder()
        .withNewMetadata()
          .withName(job + "-" + type + "-" + index)
          .withNamespace(namespace)
          .addToLabels(Tracker.JOB_NAME_LABEL, job)
          .addToLabels("training.kubeflow.org/replica-type", type)
          .addToLabels("training.kubeflow.org/replica-index", Integer.toString(index))
          .addToLabels("bench.stint.dev/limit", "true")
        .endMetadata()
        .withNewSpec()
          .withRestartPolicy("OnFailure")
          .addNewContainer()
            .withName("pytorch")
            .withImage(IMAGE)
            .withCommand(COMMAND)
            .addNewEnv().withName("MASTER_ADDR").withValue(job + "-master-0").endEnv()
            .addNewEnv().withName("MASTER_PORT").withValue("23456").endEnv()
            .addNewEnv().withName("WORLD_SIZE").withValue(Integer.toString(worldSize)).endEnv()
            .addNewEnv().withName("RANK").withValue(Integer.toString(rank)).endEnv()
            .addNewEnv().withName("PYTHONUNBUFFERED").withValue("1").endEnv()
            .addNewPort().withName("pytorchjob-port").withContainerPort(23456).endPort()
          .endContainer()
        .endSpec()
        .build();
  }

  /**
   * The headless service a Kubeflow operator creates beside each replica's pod (its DNS name is MASTER_ADDR), for the
   * limit that counts every object a PyTorchJob needs. Selects the pod, so the endpoint controllers do their share.
   */
  static Service limitService(String namespace, String job, String type, int index) {
    String name = job + "-" + type + "-" + index;
    return new ServiceBuilder()
        .withNewMetadata()
          .withName(name)
          .withNamespace(namespace)
          .addToLabels(Tracker.JOB_NAME_LABEL, job)
          .addToLabels("bench.stint.dev/limit", "true")
        .endMetadata()
        .withNewSpec()
          .withClusterIP("None")
          .addToSelector(Tracker.JOB_NAME_LABEL, job)
          .addToSelector("training.kubeflow.org/replica-type", type)
          .addToSelector("training.kubeflow.org/replica-index", Integer.toString(index))
          .addNewPort().withName("pytorchjob-port").withPort(23456).endPort()
        .endSpec()
        .build();
  }
}
