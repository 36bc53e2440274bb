package dev.stint.operator.demo;

import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The part of Kubernetes' batch Job controller that Stint needs, for an API server without one (the demo's): an MPIJob's
 * launcher runs in a Job, whose pod the Job controller makes. Every Job that is active (not suspended, not finished,
 * not being deleted) and has no pod gets one from its template, {@code <job>-<5 characters>}, controlled by the Job.
 * Nothing else: no retries, no Job status, no garbage collection (Stint deletes a Job's pod with the Job).
 */
final class SimulatedJobController {
  private static final String SUFFIX_CHARS = "bcdfghjklmnpqrstvwxz2456789";

  private final KubernetesClient client;

  SimulatedJobController(KubernetesClient client) {
    this.client = client;
  }

  /** One pass over the Jobs of every namespace; returns how many pods it created. */
  int syncOnce() {
    List<Job> jobs = client.batch().v1().jobs().inAnyNamespace().list().getItems();
    if (jobs.isEmpty()) {
      return 0;
    }
    Set<String> withPods = new HashSet<>();
    for (Pod pod : client.pods().inAnyNamespace().list().getItems()) {
      if (pod.getMetadata().getOwnerReferences() != null) {
        pod.getMetadata().getOwnerReferences().forEach(r -> withPods.add(r.getUid()));
      }
    }
    int created = 0;
    for (Job job : jobs) {
      if (active(job) && !withPods.contains(job.getMetadata().getUid())) {
        client.pods().inNamespace(job.getMetadata().getNamespace()).resource(podOf(job)).create();
        created++;
      }
    }
    return created;
  }

  static Pod podOf(Job job) {
    StringBuilder suffix = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      suffix.append(SUFFIX_CHARS.charAt(ThreadLocalRandom.current().nextInt(SUFFIX_CHARS.length())));
    }
    var template = job.getSpec().getTemplate();
    return new PodBuilder()
        .withNewMetadata()
          .withName(job.getMetadata().getName() + "-" + suffix).withNamespace(job.getMetadata().getNamespace())
          .withLabels(template.getMetadata() == null ? null : template.getMetadata().getLabels())
          .withAnnotations(template.getMetadata() == null ? null : template.getMetadata().getAnnotations())
          .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("batch/v1").withKind("Job")
              .withName(job.getMetadata().getName()).withUid(job.getMetadata().getUid())
              .withController(true).withBlockOwnerDeletion(true).build())
        .endMetadata()
        .withSpec(template.getSpec())
        .build();
  }

  private static boolean active(Job job) {
    boolean finished = job.getStatus() != null && job.getStatus().getConditions() != null
        && job.getStatus().getConditions().stream().anyMatch(c -> "True".equals(c.getStatus())
            && ("Complete".equals(c.getType()) || "Failed".equals(c.getType())));
    return !finished && job.getMetadata().getDeletionTimestamp() == null
        && !Boolean.TRUE.equals(job.getSpec().getSuspend());
  }
}
