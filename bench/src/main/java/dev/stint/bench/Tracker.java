package dev.stint.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * Watches the PyTorchJobs and pods of one namespace with informers and timestamps each job's milestones as the events
 * arrive (no polling of the API server). A milestone is a predicate on a {@link JobView}; the time it is first true
 * for a job, on the driver's clock, is kept until {@link #clear}.
 */
final class Tracker implements AutoCloseable {
  static final String JOB_NAME_LABEL = "training.kubeflow.org/job-name";

  private final String namespace;
  private final Map<String, JobView> jobs = new ConcurrentHashMap<>();
  private final Map<String, Predicate<JobView>> milestones = new ConcurrentHashMap<>();
  private final Map<String, Map<String, Long>> reached = new ConcurrentHashMap<>();
  private final SharedIndexInformer<GenericKubernetesResource> jobInformer;
  private final SharedIndexInformer<Pod> podInformer;
  private volatile BooleanSupplier operatorAlive = () -> true;

  Tracker(KubernetesClient client, String namespace) {
    this.namespace = namespace;
    this.jobInformer = client.genericKubernetesResources(Manifests.PYTORCHJOB).inNamespace(namespace)
        .inform(new Handler<>(this::onJob, this::onJobDeleted), 0);
    this.podInformer = client.pods().inNamespace(namespace).withLabel(JOB_NAME_LABEL)
        .inform(new Handler<>(this::onPod, this::onPodDeleted), 0);
  }

  String namespace() {
    return namespace;
  }

  /** Starts timing a milestone for every job; jobs for which it already holds get the current time. */
  void watch(String milestone, Predicate<JobView> test) {
    reached.put(milestone, new ConcurrentHashMap<>());
    milestones.put(milestone, test);
    jobs.values().forEach(this::evaluate);
  }

  /** When each job reached the milestone (driver clock, ms). */
  Map<String, Long> reached(String milestone) {
    return reached.getOrDefault(milestone, Map.of());
  }

  /**
   * Makes {@link #await} give up as soon as the operator under test is gone: a dead operator moves no job, and
   * waiting out every scenario's timeout for it only hid the death (a run at N = 2000 once waited forever).
   */
  void abortWhenDead(BooleanSupplier alive) {
    this.operatorAlive = alive;
  }

  /** Whether the operator under test is gone ({@link #abortWhenDead}). */
  boolean operatorGone() {
    return !operatorAlive.getAsBoolean();
  }

  /**
   * Waits, reading only the local state, until every named job reached the milestone, the timeout passed, or the
   * operator died ({@link #abortWhenDead}).
   */
  boolean await(String milestone, Collection<String> names, long timeoutMillis) {
    long end = Time.now() + timeoutMillis;
    while (true) {
      Map<String, Long> r = reached(milestone);
      if (names.stream().allMatch(r::containsKey)) {
        return true;
      }
      if (Time.now() >= end || !operatorAlive.getAsBoolean()) {
        return false;
      }
      Time.sleep(100);
    }
  }

  /** Forgets the milestones and resets the per-job pod counters, before the next scenario. */
  void clear() {
    milestones.clear();
    reached.clear();
    for (JobView v : jobs.values()) {
      synchronized (v) {
        v.podsAdded = 0;
        v.podsDoneAt = -1;
      }
    }
  }

  Collection<JobView> views() {
    return jobs.values();
  }

  JobView view(String name) {
    return jobs.computeIfAbsent(name, JobView::new);
  }

  /** Live pods of a job, by name. */
  List<String> podNames(String job) {
    JobView v = view(job);
    synchronized (v) {
      return List.copyOf(v.pods.keySet());
    }
  }

  private void onJob(GenericKubernetesResource job, boolean added) {
    JobView v = view(job.getMetadata().getName());
    synchronized (v) {
      v.updateJob(job);
      evaluate(v);
    }
  }

  private void onJobDeleted(GenericKubernetesResource job) {
    JobView v = view(job.getMetadata().getName());
    synchronized (v) {
      v.exists = false;
      evaluate(v);
    }
  }

  private void onPod(Pod pod, boolean added) {
    String job = pod.getMetadata().getLabels().get(JOB_NAME_LABEL);
    JobView v = view(job);
    synchronized (v) {
      v.updatePod(pod.getMetadata().getName(), pod.getStatus() == null ? null : pod.getStatus().getPhase(), added,
          Time.now());
      evaluate(v);
    }
  }

  private void onPodDeleted(Pod pod) {
    JobView v = view(pod.getMetadata().getLabels().get(JOB_NAME_LABEL));
    synchronized (v) {
      v.removePod(pod.getMetadata().getName());
      evaluate(v);
    }
  }

  private void evaluate(JobView v) {
    synchronized (v) {
      long now = Time.now();
      milestones.forEach((name, test) -> {
        Map<String, Long> r = reached.get(name);
        if (r != null && !r.containsKey(v.name) && test.test(v)) {
          r.put(v.name, now);
        }
      });
    }
  }

  @Override
  public void close() {
    jobInformer.close();
    podInformer.close();
  }

  /** Adapts the informer callbacks; an update counts as "added" only on onAdd. */
  private static final class Handler<T> implements ResourceEventHandler<T> {
    interface OnChange<T> {
      void accept(T t, boolean added);
    }

    interface OnDelete<T> {
      void accept(T t);
    }

    private final OnChange<T> change;
    private final OnDelete<T> delete;

    Handler(OnChange<T> change, OnDelete<T> delete) {
      this.change = change;
      this.delete = delete;
    }

    @Override
    public void onAdd(T obj) {
      change.accept(obj, true);
    }

    @Override
    public void onUpdate(T oldObj, T newObj) {
      change.accept(newObj, false);
    }

    @Override
    public void onDelete(T obj, boolean deletedFinalStateUnknown) {
      delete.accept(obj);
    }
  }
}
