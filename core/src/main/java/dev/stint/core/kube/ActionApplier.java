package dev.stint.core.kube;

import dev.stint.core.decision.Action;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Carries out a decision's actions against the API server. Creating what exists (409) and deleting what is gone
 * (404) count as done, so a pass that runs on a stale cache, or again after an operator restart, is harmless. Any
 * other error is thrown: the reconcile is retried with backoff.
 *
 * <p>The reconciler applies a pass in two steps around its status write: {@link #beforeStatus} first, then
 * {@link #afterStatus}. Within a step, independent actions of one kind (the pods of a pass, the services of a pass)
 * go out concurrently, so suspending or starting a job of n replicas costs one API round trip instead of n; each
 * kind still waits for the one before it, so the order the decision gave between kinds holds.
 */
public final class ActionApplier implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ActionApplier.class);

  private final KubernetesClient client;
  /**
   * Threads for the concurrent part of a batch; the reconcile thread itself does one action of each. Bounded: the
   * client multiplexes every request over one HTTP/2 connection, and the API server refuses streams beyond its limit
   * per connection ("too many concurrent streams"), which an unbounded pool reached with 50 reconcile threads; a
   * pool of 16 was too few (suspending 500 jobs, active 0 p99 went from 16 s to 35 s: docs/benchmarks.md).
   */
  static final int POOL_THREADS = 64;
  private final ExecutorService pool;

  public ActionApplier(KubernetesClient client) {
    this.client = client;
    AtomicInteger n = new AtomicInteger();
    this.pool = Executors.newFixedThreadPool(POOL_THREADS, r -> {
      Thread t = new Thread(r, "stint-actions-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  public KubernetesClient client() {
    return client;
  }

  /**
   * What the status reports on or the job needs to run: pod changes, and the creation of services and supporting
   * objects. Applied before the status, so a status never tells of pods whose services are still to come.
   */
  public static List<Action> beforeStatus(List<Action> actions) {
    return actions.stream().filter(a -> !removal(a)).toList();
  }

  /**
   * Removals of services, supporting objects and the job itself: applied after the status, so a suspension reads
   * {@code active: 0} as soon as its pods are being deleted, without waiting for the rest to go.
   */
  public static List<Action> afterStatus(List<Action> actions) {
    return actions.stream().filter(ActionApplier::removal).toList();
  }

  private static boolean removal(Action a) {
    return a instanceof Action.DeleteService || a instanceof Action.DeleteResource || a instanceof Action.DeleteJob;
  }

  /**
   * Applies the actions in order, except that a run of consecutive actions of the same kind on pods or services goes
   * out concurrently; records an event for each child created or deleted.
   */
  public void apply(HasMetadata job, List<Action> actions, EventRecorder events) {
    String ns = job.getMetadata().getNamespace();
    int i = 0;
    while (i < actions.size()) {
      int end = i + 1;
      Class<?> kind = actions.get(i).getClass();
      if (concurrent(actions.get(i))) {
        while (end < actions.size() && actions.get(end).getClass() == kind) {
          end++;
        }
      }
      applyBatch(job, ns, actions.subList(i, end), events);
      i = end;
    }
  }

  private static boolean concurrent(Action a) {
    return a instanceof Action.CreatePod || a instanceof Action.DeletePod || a instanceof Action.CreateService
        || a instanceof Action.DeleteService;
  }

  /** Runs the batch, one action on this thread and the rest on the pool; the first failure is rethrown. */
  private void applyBatch(HasMetadata job, String ns, List<Action> batch, EventRecorder events) {
    if (batch.size() == 1) {
      applyOne(job, ns, batch.get(0), events);
      return;
    }
    List<CompletableFuture<Void>> rest = new ArrayList<>();
    Map<String, String> mdc = MDC.getCopyOfContextMap(); // the job's namespace/name on the pool's log lines too
    for (Action a : batch.subList(1, batch.size())) {
      rest.add(CompletableFuture.runAsync(() -> {
        if (mdc != null) {
          MDC.setContextMap(mdc);
        }
        try {
          applyOne(job, ns, a, events);
        } finally {
          MDC.clear();
        }
      }, pool));
    }
    RuntimeException first = null;
    try {
      applyOne(job, ns, batch.get(0), events);
    } catch (RuntimeException e) {
      first = e;
    }
    for (CompletableFuture<Void> f : rest) {
      try {
        f.join();
      } catch (CompletionException e) {
        RuntimeException cause = e.getCause() instanceof RuntimeException r ? r : e;
        if (first == null) {
          first = cause;
        } else {
          first.addSuppressed(cause);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  @Override
  public void close() {
    pool.shutdown();
  }

  private void applyOne(HasMetadata job, String ns, Action action, EventRecorder events) {
    if (action instanceof Action.CreatePod a) {
      if (create(() -> client.pods().inNamespace(ns).resource(a.pod()).create())) {
        events.normal(job, "SuccessfulCreatePod", "Created pod: " + a.pod().getMetadata().getName());
      }
    } else if (action instanceof Action.DeletePod a) {
      if (delete(() -> client.pods().inNamespace(ns).withName(a.name()).delete())) {
        LOG.info("Deleted pod {} ({})", a.name(), a.why());
        events.normal(job, "SuccessfulDeletePod", "Deleted pod: " + a.name());
      }
    } else if (action instanceof Action.CreateService a) {
      if (create(() -> client.services().inNamespace(ns).resource(a.service()).create())) {
        events.normal(job, "SuccessfulCreateService", "Created service: " + a.service().getMetadata().getName());
      }
    } else if (action instanceof Action.DeleteService a) {
      delete(() -> client.services().inNamespace(ns).withName(a.name()).delete());
    } else if (action instanceof Action.ApplyResource a) {
      applyResource(ns, a.resource(), a.replacing());
    } else if (action instanceof Action.DeleteResource a) {
      delete(() -> client.resource(a.resource()).inNamespace(ns).delete());
    } else if (action instanceof Action.DeleteJob) {
      LOG.info("Deleting job: ttlSecondsAfterFinished has passed");
      delete(() -> client.resource(job).inNamespace(ns).delete());
    }
  }

  private void applyResource(String ns, HasMetadata desired, String replacing) {
    if (replacing == null) {
      create(() -> client.resource(desired).inNamespace(ns).create());
    } else {
      desired.getMetadata().setResourceVersion(replacing);
      client.resource(desired).inNamespace(ns).update();
    }
  }

  private static boolean create(Runnable call) {
    try {
      call.run();
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        return false;
      }
      throw e;
    }
  }

  private static boolean delete(java.util.function.Supplier<List<?>> call) {
    try {
      return !call.get().isEmpty();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return false;
      }
      throw e;
    }
  }
}
