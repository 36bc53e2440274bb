package dev.stint.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stint.core.kube.ApiRefusal;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LeaseFenceTest {
  private static final Instant T0 = Instant.parse("2026-12-06T10:00:00Z");
  private static final String POD_CREATE = "POST /api/v1/namespaces/jobs/pods";
  /** The monotonic clock, in ms since T0 (a pause moves it on, as CLOCK_MONOTONIC does under SIGSTOP). */
  private final AtomicLong millis = new AtomicLong();
  private final Clock wall = new WallClock(millis, ZoneOffset.UTC);
  private final LeaseFence fence = new LeaseFence("stint-system", "stint", "replica-a", Duration.ofSeconds(10),
      () -> Duration.ofMillis(millis.get()).toNanos(), wall);
  private final RecordingLock lease = new RecordingLock();
  private final Lock lock = fence.watching(lease);

  @Test
  void beforeItFirstLeadsAProcessReconcilesNothingAndItsOwnEventsGo() {
    assertThat(fence.open()).isTrue();
    assertThat(fence.lapsed()).as("a standby's leadership cannot lapse").isFalse();
    assertSent(POD_CREATE);
  }

  /** Writes after the renewal that made this process leader, by the time since that renewal's stamp. */
  @ParameterizedTest(name = "{0} ms after the renewal: {1}")
  @CsvSource({"0, true", "2000, true", "9999, true", "10000, false", "16000, false", "600000, false"})
  void aLeaderWritesOnlyWithinTheRenewDeadlineOfItsLastRenewal(long after, boolean sent) {
    renewAt(0);
    fence.startedLeading();

    millis.set(after);

    assertThat(fence.open()).isEqualTo(sent);
    assertThat(fence.lapsed()).as("the leadership is over when writes are").isEqualTo(!sent);
    if (sent) {
      assertSent(POD_CREATE);
    } else {
      assertFenced(POD_CREATE);
    }
  }

  @Test
  void aLeaderNamedByTheLeaseBeforeItsFirstRenewalWritesNothingButHasNotLapsed() {
    // a restarted container: fabric8 calls it leader on the old record, before its renewal's write returns
    fence.startedLeading();
    millis.set(9999);
    assertThat(fence.open()).isFalse();
    assertThat(fence.lapsed()).isFalse();
    renewAt(9999);
    assertThat(fence.open()).isTrue();

    millis.set(19_999);
    assertThat(fence.lapsed()).isTrue();
  }

  @Test
  void aLeaderThatNeverRenewsLapsesARenewDeadlineAfterItBeganToLead() {
    millis.set(5000);
    fence.startedLeading();
    millis.set(14_999);
    assertThat(fence.lapsed()).isFalse();
    millis.set(15_000);
    assertThat(fence.lapsed()).isTrue();
  }

  @Test
  void eachRenewalMovesTheDeadlineOn() {
    renewAt(0);
    fence.startedLeading();
    for (long t = 2000; t <= 60_000; t += 2000) {
      renewAt(t);
    }
    millis.set(69_000);
    assertThat(fence.open()).isTrue();
    millis.set(70_000);
    assertThat(fence.open()).isFalse();
  }

  @Test
  void theDeadlineCountsFromTheRecordsStampNotFromTheWriteThatCarriedIt() {
    // the elector stamps the record, reads the Lease (slowly: 4 s), then writes it
    millis.set(4000);
    lock.update(null, record("replica-a", T0));
    fence.startedLeading();

    millis.set(9999);
    assertThat(fence.open()).isTrue();
    millis.set(10_000);
    assertThat(fence.open()).as("a standby counts its 15 s from the stamp").isFalse();
  }

  @Test
  void aLeaderThatWasPausedPastItsLeaseWritesNothingOnWaking() {
    renewAt(0);
    fence.startedLeading();
    millis.set(2000);
    assertSent("PATCH /apis/kubeflow.org/v1/namespaces/jobs/pytorchjobs/a/status");

    millis.set(22_000); // SIGSTOP for 20 s; every thread wakes at once, the elector's among them

    for (String write : new String[] {POD_CREATE, "DELETE /api/v1/namespaces/jobs/services/a-worker-0",
        "PATCH /apis/kubeflow.org/v1/namespaces/jobs/pytorchjobs/a/status", "POST /api/v1/namespaces/jobs/events",
        "PUT /apis/kueue.x-k8s.io/v1beta2/namespaces/jobs/workloads/a"}) {
      assertFenced(write);
    }
  }

  @Test
  void readsTheLeaseItselfAndAccessReviewsPassAShutFence() {
    renewAt(0);
    fence.startedLeading();
    millis.set(30_000);

    assertSent("GET /api/v1/namespaces/jobs/pods");
    assertSent("GET /api/v1/namespaces/jobs/pods?watch=true");
    assertSent("PUT /apis/coordination.k8s.io/v1/namespaces/stint-system/leases/stint");
    assertSent("POST /apis/coordination.k8s.io/v1/namespaces/stint-system/leases");
    assertSent("POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews");
    assertFenced("PUT /apis/coordination.k8s.io/v1/namespaces/jobs/leases/stint"); // not this election's Lease
  }

  @Test
  void aLostLeaseShutsTheFenceForGoodEvenRightAfterARenewal() {
    renewAt(0);
    fence.startedLeading();
    millis.set(1000);

    fence.stoppedLeading();

    assertFenced(POD_CREATE);
    assertThatThrownBy(() -> before(POD_CREATE)).hasMessageContaining("it lost it");
  }

  @Test
  void onlyWritesOfThisIdentityThatTheApiServerTookCountAsRenewals() {
    renewAt(0);
    fence.startedLeading();
    millis.set(5000);
    lock.update(null, record(null, T0.plusMillis(5000))); // a release
    lock.update(null, record("replica-b", T0.plusMillis(5000))); // not ours
    lease.refuse = true;
    assertThatThrownBy(() -> lock.update(null, record("replica-a", T0.plusMillis(5000))))
        .isInstanceOf(KubernetesClientException.class);

    millis.set(10_000);

    assertThat(fence.open()).isFalse();
  }

  @Test
  void aRefusalSaysWhatWasNotSentAndWhy() {
    renewAt(0);
    fence.startedLeading();
    millis.set(12_345);

    assertThatThrownBy(() -> before(POD_CREATE))
        .isInstanceOf(LeaseFence.FencedWrite.class).isInstanceOf(KubernetesClientException.class)
        .hasMessage("POST /api/v1/namespaces/jobs/pods not sent: this process cannot prove it still holds its Lease "
            + "(last renewed 12345 ms ago, more than the renew deadline of 10000 ms)")
        .satisfies(e -> assertThat(ApiRefusal.of((KubernetesClientException) e))
            .extracting(ApiRefusal::permanent, ApiRefusal::cause).containsExactly(false, "LeaseLost"));
  }

  private void renewAt(long at) {
    millis.set(at);
    lock.update(null, record("replica-a", T0.plusMillis(at)));
  }

  private static LeaderElectionRecord record(String holder, Instant stamp) {
    ZonedDateTime time = stamp.atZone(ZoneOffset.UTC);
    return new LeaderElectionRecord(holder, Duration.ofSeconds(15), time, time, 0);
  }

  private void assertSent(String request) {
    assertThatCode(() -> before(request)).as(request).doesNotThrowAnyException();
  }

  private void assertFenced(String request) {
    assertThatThrownBy(() -> before(request)).as(request).isInstanceOf(LeaseFence.FencedWrite.class);
  }

  private void before(String request) {
    String[] parts = request.split(" ", 2);
    HttpRequest.Builder builder = new StandardHttpRequest.Builder().uri("https://127.0.0.1:6443" + parts[1]);
    if (!parts[0].equals("GET")) {
      builder.method(parts[0], "application/json", "{}");
    }
    StandardHttpRequest built = (StandardHttpRequest) builder.build();
    fence.before(new StandardHttpRequest.Builder(built), built, null);
  }

  /** The Lease's lock, without an API server: every write taken, unless told to refuse. */
  private static final class RecordingLock implements Lock {
    boolean refuse;

    @Override
    public LeaderElectionRecord get(KubernetesClient client) {
      return null;
    }

    @Override
    public void create(KubernetesClient client, LeaderElectionRecord record) {
      update(client, record);
    }

    @Override
    public void update(KubernetesClient client, LeaderElectionRecord record) {
      if (refuse) {
        throw new KubernetesClientException("Operation cannot be fulfilled: the object has been modified", 409,
            null);
      }
    }

    @Override
    public String identity() {
      return "replica-a";
    }

    @Override
    public String describe() {
      return "LeaseLock: stint-system - stint (replica-a)";
    }
  }

  /** The wall clock of the test: T0 plus the same milliseconds as the monotonic one (no NTP step in these cases). */
  private static final class WallClock extends Clock {
    private final AtomicLong millis;
    private final java.time.ZoneId zone;

    WallClock(AtomicLong millis, java.time.ZoneId zone) {
      this.millis = millis;
      this.zone = zone;
    }

    @Override
    public java.time.ZoneId getZone() {
      return zone;
    }

    @Override
    public Clock withZone(java.time.ZoneId other) {
      return new WallClock(millis, other);
    }

    @Override
    public Instant instant() {
      return T0.plusMillis(millis.get());
    }
  }
}
