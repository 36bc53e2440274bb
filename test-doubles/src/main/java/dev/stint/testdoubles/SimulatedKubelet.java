package dev.stint.testdoubles;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stand-in for the kubelet on an API server without nodes (the fabric8 mock server, or a bare kube-apiserver): it
 * polls the pods of every namespace and writes the status a kubelet would. A pod goes Pending → Running (containers
 * running and ready) after the start delay; if it has the {@value #RUN_SECONDS} annotation, its containers exit after
 * that many seconds with the code of {@value #EXIT_CODE} (default 0; with {@value #EXIT_CODE_INDEXES}, only the pods of
 * those replica indexes exit with it, the others with 0), and the pod ends Succeeded or Failed, or its
 * containers restart in place when the pod's restart policy says so (Always; OnFailure after a non-zero exit), with
 * {@code restartCount} and {@code lastState} as a kubelet reports them. Without the annotation, pods run until deleted.
 * Each pass first plays the batch Job controller ({@link FakeJobController}, over every namespace): an MPIJob's
 * launcher runs in a Job.
 *
 * <p>Use {@link #start()} and {@link #stop()} for a background kubelet, or {@link #syncOnce()} to step it by hand
 * (with a controllable {@link Clock}).
 */
public final class SimulatedKubelet implements AutoCloseable {
  /** Seconds (decimals allowed) a pod's containers run before they exit; absent: they run until deleted. */
  public static final String RUN_SECONDS = "stint.dev/demo-run-seconds";
  /** Exit code of a pod's containers when they exit; default 0. */
  public static final String EXIT_CODE = "stint.dev/demo-exit-code";
  /**
   * Replica indexes ({@code training.kubeflow.org/replica-index}, comma-separated, such as {@code "1,3"}) whose pods
   * exit with {@value #EXIT_CODE}; the pods of the other indexes exit with 0. Absent: every pod exits with it. This is
   * how one replica of a type fails while its siblings, made from the same template, succeed.
   */
  public static final String EXIT_CODE_INDEXES = "stint.dev/demo-exit-code-indexes";
  /**
   * Attempts of a job with a failure policy ({@code training.kubeflow.org/restart-attempt}, comma-separated, such as
   * {@code "0"}) whose pods exit with {@value #EXIT_CODE}; the pods of later attempts exit with 0. Absent: every
   * attempt. This is how a member fails once and the gang, restarted, succeeds.
   */
  public static final String EXIT_CODE_ATTEMPTS = "stint.dev/demo-exit-code-attempts";
  public static final Duration DEFAULT_START_DELAY = Duration.ofMillis(500);
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(200);

  private static final Logger LOG = LoggerFactory.getLogger(SimulatedKubelet.class);

  private final KubernetesClient client;
  private final Clock clock;
  private final Duration startDelay;
  private final Duration pollInterval;
  /** Per pod uid: the state the kubelet last saw it in, and since when. */
  private final Map<String, Tracked> tracked = new ConcurrentHashMap<>();
  private final Set<String> reportedInvalid = ConcurrentHashMap.newKeySet();
  private final FakeJobController jobController;
  private ScheduledExecutorService executor;

  private record Tracked(String state, Instant since) { }

  public SimulatedKubelet(KubernetesClient client, Clock clock) {
    this(client, clock, DEFAULT_START_DELAY, DEFAULT_POLL_INTERVAL);
  }

  public SimulatedKubelet(KubernetesClient client, Clock clock, Duration startDelay, Duration pollInterval) {
    this.client = client;
    this.clock = clock;
    this.startDelay = startDelay;
    this.pollInterval = pollInterval;
    this.jobController = FakeJobController.everyNamespace(client);
  }

  /** Starts polling on a daemon thread. */
  public synchronized void start() {
    if (executor != null) {
      return;
    }
    executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread thread = new Thread(r, "simulated-kubelet");
      thread.setDaemon(true);
      return thread;
    });
    executor.scheduleWithFixedDelay(this::syncSafely, 0, pollInterval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Stops polling and waits for a pass in progress to end. */
  public synchronized void stop() {
    if (executor == null) {
      return;
    }
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    executor = null;
  }

  @Override
  public void close() {
    stop();
  }

  /**
   * One pass over every pod, in namespace and name order, so that pods whose containers end in the same pass are
   * written in an order that does not change from run to run; returns how many pod statuses it wrote.
   */
  public synchronized int syncOnce() {
    jobController.syncOnce();
    List<Pod> pods = new java.util.ArrayList<>(client.pods().inAnyNamespace().list().getItems());
    pods.sort(java.util.Comparator.comparing((Pod p) -> p.getMetadata().getNamespace())
        .thenComparing(p -> p.getMetadata().getName()));
    Set<String> present = new HashSet<>();
    int written = 0;
    for (Pod pod : pods) {
      present.add(pod.getMetadata().getUid());
      if (sync(pod)) {
        written++;
      }
    }
    tracked.keySet().retainAll(present);
    reportedInvalid.retainAll(present);
    return written;
  }

  private void syncSafely() {
    try {
      syncOnce();
    } catch (RuntimeException e) {
      // keep polling: a scheduled task that throws is never run again
      LOG.warn("Simulated kubelet pass failed: {}", e.getMessage());
    }
  }

  private boolean sync(Pod pod) {
    Instant now = clock.instant();
    String uid = pod.getMetadata().getUid();
    String state = stateOf(pod);
    Tracked seen = tracked.compute(uid, (k, t) -> t != null && t.state().equals(state) ? t : new Tracked(state, now));
    Optional<PodStatus> next;
    try {
      next = PodLifecycle.next(pod, Duration.between(seen.since(), now), startDelay, now);
    } catch (IllegalArgumentException e) {
      if (reportedInvalid.add(uid)) {
        LOG.warn("Pod {}/{}: {}; it keeps running", pod.getMetadata().getNamespace(), pod.getMetadata().getName(),
            e.getMessage());
      }
      return false;
    }
    return next.isPresent() && write(pod, next.get(), now);
  }

  private boolean write(Pod pod, PodStatus status, Instant now) {
    Pod updated = new PodBuilder(pod).withStatus(status).build();
    try {
      Pod written = client.pods().inNamespace(pod.getMetadata().getNamespace()).resource(updated).updateStatus();
      tracked.put(pod.getMetadata().getUid(), new Tracked(stateOf(written), now));
      LOG.debug("Pod {}/{} is {}", pod.getMetadata().getNamespace(), pod.getMetadata().getName(), status.getPhase());
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404 || e.getCode() == 409) {
        return false; // deleted or changed meanwhile: the next pass sees the current pod
      }
      throw e;
    }
  }

  /** Phase and restart count: a restart in place starts a new run of the containers. */
  private static String stateOf(Pod pod) {
    PodStatus status = pod.getStatus();
    if (status == null || status.getPhase() == null) {
      return "Pending/0";
    }
    return status.getPhase() + "/" + PodLifecycle.restartCount(pod);
  }
}
