package dev.stint.core.kube;

import dev.stint.core.decision.JobEvent;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records core/v1 Events on a job, so that {@code kubectl describe} shows them.
 *
 * <p>Events are sent in the background, as client-go's event broadcaster sends them for the Kubeflow operator: a
 * reconcile builds the event (with its timestamp) and queues it, and a small pool of sender threads posts it. A burst
 * creates about ten events per job; posted inline they were half of a reconcile's API round trips, so a suspension
 * waited on them before its status could say {@code active: 0} (docs/benchmarks.md). Losing an event is not worth
 * failing or slowing a reconcile for: a full queue drops the event and counts it, a failed post is logged. The
 * counters, by the job's kind: {@code stint_events_sent_total}, {@code stint_events_failed_total} (the API server
 * refused or could not be reached) and {@code stint_events_dropped_total} (the queue was full).
 *
 * <p>Under a saturated API server the senders fall behind. The job's own transitions ({@link #record}: created,
 * running, suspended, succeeded, failed) then go first: they have a queue of their own that the senders always empty
 * before they send the per-child events ({@link #normal}: a pod or service created or deleted), which are ten times as
 * many and say less.
 *
 * <p>What is sent for each event is decided as client-go's broadcaster decides it ({@link EventCorrelator}): an event
 * seen before bumps the count of the Event sent then (a PATCH), similar events with many messages are combined into
 * one, and the per-child events of one job are budgeted (25, then one per 5 minutes); those the budget drops are
 * counted as {@code stint_events_filtered_total}. The job's own transitions are never filtered.
 */
public final class EventRecorder implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
  /**
   * Per-child events queued at most: those of 500 jobs created at once (about eight each); client-go's broadcaster
   * queues 1000. A queued event holds about a kilobyte of heap: 20 000 of them, when 2000 jobs were suspended after
   * being created, were a tenth of the operator's live heap (docs/benchmarks.md).
   */
  static final int QUEUE_CAPACITY = 5_000;
  /** Job-level events queued at most: a few per job and transition, so 2000 jobs' worth. */
  static final int JOB_QUEUE_CAPACITY = 2_000;
  /** Few on purpose: events are the lowest-priority writes, and must not crowd out the reconciles' own requests. */
  static final int SENDERS = 2;
  static final String SENT = "stint.events.sent";
  static final String FAILED = "stint.events.failed";
  static final String DROPPED = "stint.events.dropped";
  static final String FILTERED = "stint.events.filtered";

  /** An event waiting for a sender; {@code budgeted}: a per-child event, which the spam filter may drop. */
  record Queued(Event event, boolean budgeted) { }

  private final LeanWrites lean;
  private final Clock clock;
  private final String component;
  private final BlockingQueue<Queued> queue;
  private final BlockingQueue<Queued> jobQueue;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong sequence = new AtomicLong();
  private final EventCorrelator correlator;
  private final Thread[] senders;
  private final MeterRegistry meters;
  private volatile boolean stopping;

  /** Sends events as {@code component}, counting them in {@code meters}. */
  public EventRecorder(KubernetesClient client, Clock clock, String component, MeterRegistry meters) {
    this(client, clock, component, meters, QUEUE_CAPACITY, SENDERS);
  }

  /** With a queue capacity and a number of sender threads of its own (tests: 0 senders, to read the queue order). */
  EventRecorder(KubernetesClient client, Clock clock, String component, MeterRegistry meters, int capacity,
                int senderThreads) {
    this.lean = new LeanWrites(client);
    this.meters = meters;
    this.clock = clock;
    this.correlator = new EventCorrelator(clock);
    this.component = component;
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.jobQueue = new ArrayBlockingQueue<>(Math.min(capacity, JOB_QUEUE_CAPACITY));
    this.senders = new Thread[senderThreads];
    for (int i = 0; i < senderThreads; i++) {
      senders[i] = new Thread(this::send, "stint-events-" + (i + 1));
      senders[i].setDaemon(true);
      senders[i].start();
    }
  }

  public void record(HasMetadata job, JobEvent event) {
    String who = job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
    if (event.type() == JobEvent.Type.Warning) {
      LOG.warn("{} {}: {}", who, event.reason(), event.message());
    } else {
      LOG.info("{} {}: {}", who, event.reason(), event.message());
    }
    enqueue(jobQueue, false, job, event.type().name(), event.reason(), event.message());
  }

  /** An event about one of the job's children (a pod or service created or deleted): sent after the job's own. */
  public void normal(HasMetadata job, String reason, String message) {
    LOG.debug("{}: {}", reason, message);
    enqueue(queue, true, job, "Normal", reason, message);
  }

  /** Events dropped because the queue was full, since the start. */
  public long dropped() {
    return dropped.get();
  }

  /**
   * Waits until every event queued so far has been posted (or failed), at most {@code timeout}.
   *
   * @return whether the queue drained in time
   */
  public boolean awaitSent(Duration timeout) {
    long end = System.nanoTime() + timeout.toNanos();
    while (inFlight.get() > 0) {
      if (System.nanoTime() > end) {
        return false;
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }

  /** Sends what is queued for up to two seconds, then stops the senders. */
  @Override
  public void close() {
    awaitSent(Duration.ofSeconds(2));
    stopping = true;
    for (Thread t : senders) {
      t.interrupt();
    }
  }

  private void enqueue(BlockingQueue<Queued> into, boolean budgeted, HasMetadata job, String type, String reason,
                       String message) {
    Event event = event(job, type, reason, message);
    // counted before it is visible to a sender, so awaitSent never sees an empty queue with this event unsent
    inFlight.incrementAndGet();
    if (!into.offer(new Queued(event, budgeted))) {
      inFlight.decrementAndGet();
      count(DROPPED, "Events not sent because the queue was full", job.getKind());
      if (dropped.incrementAndGet() % 1000 == 1) {
        LOG.warn("Event queue full ({} events): dropped {} on {} ({} dropped so far)", into.size(), reason,
            job.getMetadata().getName(), dropped.get());
      }
    }
  }

  private void send() {
    while (!stopping) {
      Queued queued;
      try {
        queued = nextQueued();
      } catch (InterruptedException e) {
        return;
      }
      if (queued == null) {
        continue;
      }
      Event event = queued.event();
      try {
        if (send(correlator.correlate(event, queued.budgeted()), event)) {
          count(SENT, "Events the API server accepted", event.getInvolvedObject().getKind());
        } else {
          count(FILTERED, "Events not sent because their job's budget of events was spent",
              event.getInvolvedObject().getKind());
        }
      } catch (KubernetesClientException e) {
        count(FAILED, "Events the API server refused or could not be sent", event.getInvolvedObject().getKind());
        // the server's words only: fabric8's message repeats the whole Status, 600 characters for one refusal
        LOG.warn("Could not record event {} on {}/{}: {}", event.getReason(), event.getInvolvedObject().getNamespace(),
            event.getInvolvedObject().getName(), ApiRefusal.of(e).message());
      } catch (RuntimeException e) {
        count(FAILED, "Events the API server refused or could not be sent", event.getInvolvedObject().getKind());
        LOG.warn("Could not record event {} on {}", event.getReason(), event.getInvolvedObject().getName(), e);
      } finally {
        inFlight.decrementAndGet();
      }
    }
  }

  private void count(String name, String description, String kind) {
    Counter.builder(name).description(description).tag("kind", kind == null ? "" : kind).register(meters).increment();
  }

  /** Sends what the correlator decided; whether anything was sent. */
  private boolean send(EventCorrelator.Send what, Event event) {
    String ns = event.getMetadata().getNamespace();
    if (what instanceof EventCorrelator.Send.Create) {
      lean.create(ns, "events", event);
    } else if (what instanceof EventCorrelator.Send.Patch patch) {
      try {
        lean.send("PATCH", "/api/v1/namespaces/" + ns + "/events/" + patch.name(), "application/merge-patch+json",
            lean.json(Map.of("count", patch.count(), "lastTimestamp", patch.lastTimestamp(),
                "message", patch.message())));
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404) {
          throw e;
        }
        // the Event expired (the API server keeps them an hour): post it again, as client-go does
        correlator.forgetSent(patch);
        event.setMessage(patch.message());
        event.setCount(patch.count());
        lean.create(ns, "events", event);
      }
    } else {
      return false;
    }
    return true;
  }

  /** The next event to send, job events first; null after 100 ms without any. */
  Event next() throws InterruptedException {
    Queued queued = nextQueued();
    return queued == null ? null : queued.event();
  }

  private Queued nextQueued() throws InterruptedException {
    Queued queued = jobQueue.poll();
    // a job event that arrives while this waits is taken on the next turn, within 100 ms
    return queued != null ? queued : queue.poll(100, TimeUnit.MILLISECONDS);
  }

  private Event event(HasMetadata job, String type, String reason, String message) {
    Instant at = Instant.now(clock);
    String now = at.truncatedTo(ChronoUnit.SECONDS).toString();
    // named here, as client-go names them (name.hex nanoseconds): a later PATCH of its count needs the name
    long nanos = at.getEpochSecond() * 1_000_000_000L + at.getNano() + sequence.incrementAndGet();
    return new EventBuilder()
        .withNewMetadata()
          .withName(job.getMetadata().getName() + "." + Long.toHexString(nanos))
          .withNamespace(job.getMetadata().getNamespace())
        .endMetadata()
        .withNewInvolvedObject()
          .withApiVersion(job.getApiVersion())
          .withKind(job.getKind())
          .withName(job.getMetadata().getName())
          .withNamespace(job.getMetadata().getNamespace())
          .withUid(job.getMetadata().getUid())
        .endInvolvedObject()
        .withType(type)
        .withReason(reason)
        .withMessage(message)
        .withFirstTimestamp(now)
        .withLastTimestamp(now)
        .withCount(1)
        .withNewSource(component, null)
        .withReportingComponent(component)
        .build();
  }
}
