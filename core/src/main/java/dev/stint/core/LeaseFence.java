package dev.stint.core;

import dev.stint.core.kube.ApiRefusal;
import dev.stint.kubeclient.SendGate;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.time.Clock;
import java.time.Duration;
import java.net.URI;
import java.time.Instant;
import java.util.Locale;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * A leader's writes, fenced by its Lease: once this process has led, the API client sends a write (a create, update,
 * patch or delete; no pod, deletion, status or event) only while the last renewal of the Lease that this process
 * made began less than the renew deadline ago. A standby takes the Lease over only a lease duration after that
 * renewal's time, so a write that starts inside the fence reaches the API server before any write of the next
 * leader unless something holds it in flight for the difference (15 s - 10 s with JOSDK's timings).
 *
 * <p>Why a fence of its own: fabric8's elector notices a lost Lease only on its next turn, every retry period, and a
 * process frozen past its lease (a long pause, SIGSTOP, a VM stalled) wakes with every thread runnable at once: its
 * reconciles, on a cache that is no longer true, ran before the elector told anyone (issue 47 saw a woken leader patch
 * a status, delete a Service and emit an event within 100 ms of waking). The check here runs on the thread that is
 * about to send, against a monotonic clock that a pause does not stop.
 *
 * <p>What passes whatever the fence says: reads and watches; the Lease itself (the elector must renew or learn it
 * lost); access reviews, which change nothing. Before this process first leads, it reconciles nothing, and its only
 * writes are the events about its own Pod ({@code KindEvents}), which pass.
 *
 * <p>It is asked twice: as fabric8's interceptor, when a request is handed to the client, and, on kube-client's JDK
 * clients, as their {@link SendGate} once more when the request's body is about to go, after its headers. A process
 * frozen between the first ask and the socket (issue 47 saw two events sent 7 and 12 ms after waking) is then stopped
 * by the second; what is left is the hand-over of the first buffer to the socket.
 */
public final class LeaseFence implements Interceptor, SendGate {
  /** The interceptor's name in the HTTP client. */
  public static final String NAME = "stint-lease-fence";
  private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

  private final String leasePath;
  private final String identity;
  private final long deadlineNanos;
  private final LongSupplier nanoTime;
  private final Clock clock;
  private volatile boolean led;
  private volatile boolean holding;
  private volatile long renewedAtNanos;
  private volatile long ledAtNanos;

  /**
   * @param namespace the Lease's namespace
   * @param name the Lease's name
   * @param identity this process's name in the Lease
   * @param renewDeadline how long after a renewal's time writes may still start
   * @param nanoTime a monotonic clock ({@link System#nanoTime} but in tests)
   * @param clock the wall clock the elector stamps renewals with
   */
  public LeaseFence(String namespace, String name, String identity, Duration renewDeadline, LongSupplier nanoTime,
                    Clock clock) {
    this.leasePath = "/apis/coordination.k8s.io/v1/namespaces/" + namespace + "/leases";
    this.identity = identity;
    this.deadlineNanos = renewDeadline.toNanos();
    this.nanoTime = nanoTime;
    this.clock = clock;
  }

  /** The Lease's lock, telling this fence of every renewal it makes for {@code identity}. */
  public Lock watching(Lock lock) {
    return new RenewalReportingLock(lock);
  }

  /**
   * This process now leads: told by the election, usually after the renewal that made it leader, but before it when
   * the Lease still names this process (a restarted container keeps its pod's name).
   */
  public void startedLeading() {
    ledAtNanos = nanoTime.getAsLong();
    led = true;
  }

  /** This process no longer leads: told by the election; the fence stays shut, since the process exits or stops. */
  public void stoppedLeading() {
    holding = false;
  }

  /**
   * Whether this process led and has not renewed the Lease for the renew deadline: its leadership is over. Counted
   * from its last renewal, or from when it began leading if that is later: a leader named by a Lease it has not yet
   * renewed (see {@link #startedLeading}) writes nothing until it has, but has not lapsed.
   */
  public boolean lapsed() {
    if (!led) {
      return false;
    }
    long now = nanoTime.getAsLong();
    long since = now - ledAtNanos;
    if (holding) {
      since = Math.min(since, now - renewedAtNanos);
    }
    return since >= deadlineNanos;
  }

  /** Whether a write may start now. */
  public boolean open() {
    return !led || holding && nanoTime.getAsLong() - renewedAtNanos < deadlineNanos;
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    FencedWrite refusal = refusal(request.method(), request.uri());
    if (refusal != null) {
      throw refusal;
    }
  }

  @Override
  public FencedWrite refusal(String method, URI uri) {
    if (open() || passes(method, uri.getPath())) {
      return null;
    }
    return new FencedWrite(method + " " + uri.getPath() + " not sent: this process cannot prove it still holds its "
        + "Lease (" + describe() + ")");
  }

  private boolean passes(String method, String path) {
    return READS.contains(method.toUpperCase(Locale.ROOT))
        || path.startsWith(leasePath)
        || path.startsWith("/apis/authorization.k8s.io/") || path.startsWith("/apis/authentication.k8s.io/");
  }

  private String describe() {
    if (!holding) {
      return "it lost it";
    }
    return "last renewed " + Duration.ofNanos(nanoTime.getAsLong() - renewedAtNanos).toMillis()
        + " ms ago, more than the renew deadline of " + Duration.ofNanos(deadlineNanos).toMillis() + " ms";
  }

  /**
   * A renewal made: the record's renew time is the moment a standby counts the lease duration from, so the fence
   * counts from it too (taken before the elector read the Lease, it is earlier than the write that carried it).
   */
  private void renewed(LeaderElectionRecord record, long calledAtNanos, Instant calledAt) {
    if (!identity.equals(record.getHolderIdentity()) || record.getRenewTime() == null) {
      return;
    }
    long sinceStamp = Math.max(0, Duration.between(record.getRenewTime().toInstant(), calledAt).toNanos());
    long at = calledAtNanos - sinceStamp;
    if (!holding || at - renewedAtNanos > 0) {
      renewedAtNanos = at;
    }
    holding = true;
  }

  /** The refusal of a write outside the fence: a failure that heals (the process is about to stop or step down). */
  public static final class FencedWrite extends KubernetesClientException {
    FencedWrite(String message) {
      super(new StatusBuilder().withCode(0).withStatus("Failure").withReason(ApiRefusal.LEASE_LOST).withMessage(message).build());
    }
  }

  /** Fabric8's Lease lock, reporting the renewals it wrote successfully. */
  private final class RenewalReportingLock implements Lock {
    private final Lock lock;

    RenewalReportingLock(Lock lock) {
      this.lock = lock;
    }

    @Override
    public LeaderElectionRecord get(KubernetesClient client) {
      return lock.get(client);
    }

    @Override
    public void create(KubernetesClient client, LeaderElectionRecord record) {
      reporting(record, () -> lock.create(client, record));
    }

    @Override
    public void update(KubernetesClient client, LeaderElectionRecord record) {
      reporting(record, () -> lock.update(client, record));
    }

    /** The write, then the renewal it made, timed from before it began; a refused write throws and renews nothing. */
    private void reporting(LeaderElectionRecord record, Runnable write) {
      long at = nanoTime.getAsLong();
      Instant wallAt = clock.instant();
      write.run();
      renewed(record, at, wallAt);
    }

    @Override
    public String identity() {
      return lock.identity();
    }

    @Override
    public String describe() {
      return lock.describe();
    }
  }
}
