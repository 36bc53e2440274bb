package dev.stint.core.kube;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * The bounds on the requests that {@link ActionApplier}'s passes have in flight beyond each reconcile thread's own:
 * a permit taken before a request is sent and given back when it is answered.
 */
final class RequestsInFlight {
  /**
   * Requests in flight beyond each reconcile thread's own one: a pass sends its concurrent creations and deletions
   * without a thread each, and waits for their answers. Bounded: the client multiplexes every request over one
   * HTTP/2 connection, and the API server refuses streams beyond its limit per connection ("too many concurrent
   * streams"), which an unbounded number reached with 50 reconcile threads; 16 were too few (suspending 500 jobs,
   * active 0 p99 went from 16 s to 35 s: docs/benchmarks.md).
   */
  static final int IN_FLIGHT = 64;
  /**
   * Of those, pod and service creations at most. Deletions free what others wait for (a suspension's {@code active}
   * 0 is what Kueue waits for), so they may take the whole bound; creations only queue up at a saturated API server,
   * beside the scheduler's bindings and the kubelets' status updates that the pods already created need before they
   * run. With 64 for creations too, resuming 500 jobs of four (every pass sending its four pods at once) doubled the
   * API server's time per pod creation and per binding, and the jobs reached {@code Running} 40% later
   * (docs/benchmarks.md; measured on kwok as published, whose re-watches then loaded the API server too; 48 measured
   * once on the patched kwok did not decide it).
   */
  static final int CREATIONS_IN_FLIGHT = 16;
  private final Semaphore all = new Semaphore(IN_FLIGHT);
  private final Semaphore creations = new Semaphore(CREATIONS_IN_FLIGHT);

  /** Sends a deletion, first taking one of {@link #IN_FLIGHT} unless it is the thread's own; given back on answer. */
  CompletableFuture<String> deletion(boolean own, Supplier<CompletableFuture<String>> send) {
    return own ? send.get() : limited(all, send);
  }

  /** As {@link #deletion(boolean, Supplier)}, a creation: one of {@link #CREATIONS_IN_FLIGHT} as well. */
  CompletableFuture<String> creation(boolean own, Supplier<CompletableFuture<String>> send) {
    return own ? send.get() : limited(creations, () -> limited(all, send));
  }

  private static CompletableFuture<String> limited(Semaphore bound, Supplier<CompletableFuture<String>> send) {
    try {
      bound.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return CompletableFuture.failedFuture(new KubernetesClientException("Interrupted before sending", e));
    }
    CompletableFuture<String> answer;
    try {
      answer = send.get();
    } catch (RuntimeException e) {
      bound.release();
      return CompletableFuture.failedFuture(e);
    }
    answer.whenComplete((body, failure) -> bound.release());
    return answer;
  }
}
