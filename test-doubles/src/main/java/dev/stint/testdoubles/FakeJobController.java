package dev.stint.testdoubles;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The part of Kubernetes' batch Job controller that Stint relies on, for an API server without one (the fabric8 mock
 * server): every Job that is active (not suspended, not finished, not being deleted) and has no pod gets one pod
 * from its template, named {@code <job>-<5 characters>} and controlled by the Job. Nothing else: no retries, no Job
 * status, no garbage collection (Stint deletes a carried pod itself). The tests run one for their namespace; the demo's
 * {@link SimulatedKubelet} runs one over every namespace ({@link #everyNamespace}).
 */
public final class FakeJobController implements AutoCloseable {
  private static final String SUFFIX_CHARS = "bcdfghjklmnpqrstvwxz2456789";

  private final KubernetesClient client;
  /** The namespace whose Jobs it runs; null for every namespace. */
  private final String namespace;
  private ScheduledExecutorService executor;

  /** A Job controller for the Jobs of one namespace. */
  public FakeJobController(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  /** A Job controller for the Jobs of every namespace, as the cluster's own is. */
  public static FakeJobController everyNamespace(KubernetesClient client) {
    return new FakeJobController(client, null);
  }

  /** Polls the namespace's Jobs in the background, every 100 ms. */
  public synchronized FakeJobController start() {
    if (executor == null) {
      executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "fake-job-controller");
        thread.setDaemon(true);
        return thread;
      });
      executor.scheduleWithFixedDelay(this::syncQuietly, 0, 100, TimeUnit.MILLISECONDS);
    }
    return this;
  }

  @Override
  public synchronized void close() {
    if (executor != null) {
      executor.shutdownNow();
      executor = null;
    }
  }

  /** One pass: a pod for every active Job that has none; returns how many it created. */
  public int syncOnce() {
    List<Job> jobs = namespace == null ? client.batch().v1().jobs().inAnyNamespace().list().getItems()
        : client.batch().v1().jobs().inNamespace(namespace).list().getItems();
    if (jobs.isEmpty()) {
      return 0;
    }
    Set<String> withPods = new HashSet<>();
    List<Pod> pods = namespace == null ? client.pods().inAnyNamespace().list().getItems()
        : client.pods().inNamespace(namespace).list().getItems();
    for (Pod pod : pods) {
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

  private void syncQuietly() {
    try {
      syncOnce();
    } catch (KubernetesClientException e) {
      // the next pass tries again; a scheduled task that throws would never run again
    }
  }

  /** The pod the Job controller makes from the Job's template. */
  public static Pod podOf(Job job) {
    StringBuilder suffix = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      suffix.append(SUFFIX_CHARS.charAt(ThreadLocalRandom.current().nextInt(SUFFIX_CHARS.length())));
    }
    OwnerReference controller = new OwnerReferenceBuilder().withApiVersion("batch/v1").withKind("Job")
        .withName(job.getMetadata().getName()).withUid(job.getMetadata().getUid())
        .withController(true).withBlockOwnerDeletion(true).build();
    var template = job.getSpec().getTemplate();
    return new PodBuilder()
        .withNewMetadata()
          .withName(job.getMetadata().getName() + "-" + suffix).withNamespace(job.getMetadata().getNamespace())
          .withLabels(template.getMetadata() == null ? null : template.getMetadata().getLabels())
          .withAnnotations(template.getMetadata() == null ? null : template.getMetadata().getAnnotations())
          .withOwnerReferences(controller)
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
