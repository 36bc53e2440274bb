package dev.stint.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The load: API calls made by a fixed pool of threads (the concurrency), each call counted by verb and resource so the
 * report can tell the driver's own requests from the operator's. Failed calls are counted and logged, not thrown: a
 * job whose create failed simply never reaches its milestones.
 */
final class Driver implements AutoCloseable {
  private static final PatchContext MERGE = new PatchContext.Builder().withPatchType(PatchType.JSON_MERGE).build();

  private final KubernetesClient client;
  private final ExecutorService pool;
  private final int concurrency;
  private final Map<String, LongAdder> requests = new ConcurrentHashMap<>();
  private final AtomicInteger errors = new AtomicInteger();

  Driver(KubernetesClient client, int concurrency) {
    this.client = client;
    this.concurrency = concurrency;
    AtomicInteger n = new AtomicInteger();
    this.pool = Executors.newFixedThreadPool(concurrency, r -> {
      Thread t = new Thread(r, "driver-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  KubernetesClient client() {
    return client;
  }

  int concurrency() {
    return concurrency;
  }

  void createJob(GenericKubernetesResource job) {
    call("POST pytorchjobs", () -> client.genericKubernetesResources(Manifests.PYTORCHJOB)
        .inNamespace(job.getMetadata().getNamespace()).resource(job).create());
  }

  // patches go through resource(stub): withName(name).patch(...) would GET the object first

  void patchJob(String namespace, String name, String mergePatch) {
    GenericKubernetesResource stub = new GenericKubernetesResource();
    stub.setApiVersion("kubeflow.org/v1");
    stub.setKind("PyTorchJob");
    stub.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    call("PATCH pytorchjobs", () -> client.genericKubernetesResources(Manifests.PYTORCHJOB).inNamespace(namespace)
        .resource(stub).patch(MERGE, mergePatch));
  }

  void patchPod(String namespace, String name, String mergePatch) {
    Pod stub = new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata().build();
    call("PATCH pods", () -> client.pods().inNamespace(namespace).resource(stub).patch(MERGE, mergePatch));
  }

  void createService(io.fabric8.kubernetes.api.model.Service service) {
    call("POST services", () -> client.services().inNamespace(service.getMetadata().getNamespace()).resource(service)
        .create());
  }

  void createPod(Pod pod) {
    call("POST pods", () -> client.pods().inNamespace(pod.getMetadata().getNamespace()).resource(pod).create());
  }

  /** Runs the tasks on the pool and waits for all of them. */
  void runAll(List<Runnable> tasks) {
    List<Future<?>> futures = new ArrayList<>();
    for (Runnable t : tasks) {
      futures.add(pool.submit(t));
    }
    for (Future<?> f : futures) {
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      } catch (java.util.concurrent.ExecutionException e) {
        errors.incrementAndGet();
      }
    }
  }

  /** Submits one task without waiting (the churn's paced creates). */
  Future<?> submit(Runnable task) {
    return pool.submit(task);
  }

  /** Request counts since the last call, and resets them. */
  Map<String, Double> takeRequestCounts() {
    Map<String, Double> out = new TreeMap<>();
    requests.forEach((k, v) -> {
      long n = v.sumThenReset();
      if (n > 0) {
        out.put(k, (double) n);
      }
    });
    return out;
  }

  int takeErrors() {
    return errors.getAndSet(0);
  }

  private void call(String key, Runnable r) {
    requests.computeIfAbsent(key, k -> new LongAdder()).increment();
    try {
      r.run();
    } catch (KubernetesClientException e) {
      if (errors.incrementAndGet() <= 5) {
        System.err.println("bench: " + key + " failed: " + e.getMessage());
      }
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
