package dev.stint.core.kube;

import dev.stint.core.model.JobEvent;
import dev.stint.kubeclient.LeanWrites;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
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
   * Heap that per-child events may hold while they wait, in bytes: about 20 000 events, those of 2500 jobs created at
   * once (about eight each). Bounded by bytes, not by count, because a message's length is not bounded: a queue of
   * counted events held 20 000 of about a kilobyte each when 2000 jobs were suspended after being created, a tenth of
   * the operator's live heap then (docs/benchmarks.md). A waiting event is kept as the few strings it needs, not as an
   * Event object (a fifth of the heap that was).
   */
  static final long QUEUE_BYTES = 4L << 20;
  /** Heap that the job-level events may hold while they wait: a few per job and transition, 10 000 jobs' worth. */
  static final long JOB_QUEUE_BYTES = 2L << 20;
  /** Few on purpose: events are the lowest-priority writes, and must not crowd out the reconciles' own requests. */
  static final int SENDERS = 2;
  static final String SENT = "stint.events.sent";
  static final String FAILED = "stint.events.failed";
  static final String DROPPED = "stint.events.dropped";
  static final String FILTERED = "stint.events.filtered";

  /**
   * An event waiting for a sender, as what it takes to build it (the job's strings are the cached job's own);
   * {@code budgeted}: a per-child event, which the spam filter may drop.
   */
  record Queued(String apiVersion, String kind, String namespace, String name, String uid, String type, String reason,
                String message, Instant at, long sequence, boolean budgeted) {
    /** Heap it holds of its own: the record and its message; the rest is shared with the cached job. */
    long bytes() {
      return 96 + 48 + (message == null ? 0 : message.length()) + (reason == null ? 0 : reason.length());
    }
  }

  private final LeanWrites lean;
  private final Clock clock;
  private final String component;
  private final Backlog<Queued> queue;
  private final Backlog<Queued> jobQueue;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong sequence = new AtomicLong();
  private final EventCorrelator correlator;
  private final Thread[] senders;
  private final MeterRegistry meters;
  private volatile boolean stopping;
  private volatile BooleanSupplier shed = () -> false;

  /** Sends events as {@code component}, counting them in {@code meters}. */
  public EventRecorder(KubernetesClient client, Clock clock, String component, MeterRegistry meters) {
    this(client, clock, component, meters, QUEUE_BYTES, SENDERS);
  }

  /**
   * With a budget of queued bytes (that of the job events is the same or {@link #JOB_QUEUE_BYTES}, the smaller) and a
   * number of sender threads of its own (tests: 0 senders, to read the queue order).
   */
  EventRecorder(KubernetesClient client, Clock clock, String component, MeterRegistry meters, long queueBytes,
                int senderThreads) {
    this.lean = new LeanWrites(client);
    this.meters = meters;
    this.clock = clock;
    this.correlator = new EventCorrelator(clock);
    this.component = component;
    this.queue = new Backlog<>(queueBytes, Queued::bytes);
    this.jobQueue = new Backlog<>(Math.min(queueBytes, JOB_QUEUE_BYTES), Queued::bytes);
    this.senders = new Thread[senderThreads];
    for (int i = 0; i < senderThreads; i++) {
      senders[i] = new Thread(this::send, "stint-events-" + (i + 1));
      senders[i].setDaemon(true);
      senders[i].start();
    }
  }

  /**
   * Drops the per-child events ({@link #normal}) while {@code shed} holds (the heap is short); they are counted as
   * dropped. The job's own transitions are always kept.
   */
  public EventRecorder shedChildEventsWhen(BooleanSupplier shed) {
    this.shed = shed;
    return this;
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

  /**
   * An event about the operator itself (its own Pod), never budgeted nor shed; not logged, as its sender has
   * already said it in its own line.
   */
  public void aboutOperator(HasMetadata object, JobEvent event) {
    enqueue(jobQueue, false, object, event.type().name(), event.reason(), event.message());
  }

  /** An event about one of the job's children (a pod or service created or deleted): sent after the job's own. */
  public void normal(HasMetadata job, String reason, String message) {
    LOG.debug("{}: {}", reason, message);
    if (shed.getAsBoolean()) {
      count(DROPPED, "Events not sent because the queue was full or the heap short", job.getKind());
      dropped.incrementAndGet();
      return;
    }
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

  private void enqueue(Backlog<Queued> into, boolean budgeted, HasMetadata job, String type, String reason,
                       String message) {
    ObjectMeta meta = job.getMetadata();
    Queued queued = new Queued(job.getApiVersion(), job.getKind(), meta.getNamespace(), meta.getName(), meta.getUid(),
        type, reason, message, Instant.now(clock), sequence.incrementAndGet(), budgeted);
    // counted before it is visible to a sender, so awaitSent never sees an empty queue with this event unsent
    inFlight.incrementAndGet();
    if (!into.offer(queued)) {
      inFlight.decrementAndGet();
      count(DROPPED, "Events not sent because the queue was full or the heap short", job.getKind());
      if (dropped.incrementAndGet() % 1000 == 1) {
        LOG.warn("Event queue full ({} events, {} KiB): dropped {} on {} ({} dropped so far)", into.size(),
            into.bytes() / 1024, reason, meta.getName(), dropped.get());
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
      Event event = event(queued);
      try {
        if (send(correlator.correlate(event, queued.budgeted()), event)) {
          count(SENT, "Events the API server accepted", event.getInvolvedObject().getKind());
        } else {
          count(FILTERED, "Events not sent because their job's budget of events was spent",
              event.getInvolvedObject().getKind());
        }
      } catch (RuntimeException e) {
        count(FAILED, "Events the API server refused or could not be sent", event.getInvolvedObject().getKind());
        logFailure(event, e);
      } finally {
        inFlight.decrementAndGet();
      }
    }
  }

  private void logFailure(Event event, RuntimeException e) {
    if (stopping) {
      // close() gave up waiting and interrupted this sender: the operator is stopping, nothing went wrong
      LOG.debug("Event {} on {} not sent: the recorder stopped", event.getReason(), event.getInvolvedObject().getName());
    } else if (e instanceof KubernetesClientException refused) {
      // the server's words only: fabric8's message repeats the whole Status, 600 characters for one refusal
      LOG.warn("Could not record event {} on {}/{}: {}", event.getReason(), event.getInvolvedObject().getNamespace(),
          event.getInvolvedObject().getName(), ApiRefusal.of(refused).message());
    } else {
      LOG.warn("Could not record event {} on {}", event.getReason(), event.getInvolvedObject().getName(), e);
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
    return queued == null ? null : event(queued);
  }

  private Queued nextQueued() throws InterruptedException {
    Queued queued = jobQueue.poll();
    // a job event that arrives while this waits is taken on the next turn, within 100 ms
    return queued != null ? queued : queue.poll(100, TimeUnit.MILLISECONDS);
  }

  private Event event(Queued q) {
    String now = q.at().truncatedTo(ChronoUnit.SECONDS).toString();
    // named here, as client-go names them (name.hex nanoseconds): a later PATCH of its count needs the name
    long nanos = q.at().getEpochSecond() * 1_000_000_000L + q.at().getNano() + q.sequence();
    return new EventBuilder()
        .withNewMetadata()
          .withName(q.name() + "." + Long.toHexString(nanos))
          .withNamespace(q.namespace())
        .endMetadata()
        .withNewInvolvedObject()
          .withApiVersion(q.apiVersion())
          .withKind(q.kind())
          .withName(q.name())
          .withNamespace(q.namespace())
          .withUid(q.uid())
        .endInvolvedObject()
        .withType(q.type())
        .withReason(q.reason())
        .withMessage(q.message())
        .withFirstTimestamp(now)
        .withLastTimestamp(now)
        .withCount(1)
        .withNewSource(component, null)
        .withReportingComponent(component)
        .build();
  }
}
