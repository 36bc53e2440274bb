package dev.stint.core.decision;

import dev.stint.core.model.JobLabels;
import dev.stint.spi.ReplicaId;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which of a job's pods exist and cannot run, and why, read from the pods the informer cache already holds (no
 * request): the scheduler's {@code PodScheduled=False} with reason {@code Unschedulable}, and a container (or init
 * container) in state {@code waiting} for any reason but the two of a normal start ({@code ContainerCreating},
 * {@code PodInitializing}), such as {@code ErrImagePull}, {@code ImagePullBackOff},
 * {@code CreateContainerConfigError} or {@code CrashLoopBackOff}. A normal start that lasts longer than
 * {@link #SLOW_START} counts too: an init container still running (PyTorch's wait for the master), or containers still
 * being created (a volume that cannot be mounted). Until then the decision asks to look again when it would.
 *
 * <p>Pure, and cheap: one look at each pod's status, and only pods that are not finished or terminating.
 */
final class WaitingPods {
  /** A normal start taking longer than this is reported: an init container or a container creation. */
  static final Duration SLOW_START = Duration.ofMinutes(5);
  static final String UNSCHEDULABLE = "Unschedulable";
  static final String CRASH_LOOP = "CrashLoopBackOff";
  static final String SLOW_INIT = "PodInitializing";
  static final String SLOW_CREATE = "ContainerCreating";
  /** The waiting reasons of a pod starting normally. */
  private static final Set<String> STARTING = Set.of(SLOW_CREATE, SLOW_INIT);

  private final List<PodWait> pods;
  private final Instant recheckAt;

  private WaitingPods(List<PodWait> pods, Instant recheckAt) {
    this.pods = List.copyOf(pods);
    this.recheckAt = recheckAt;
  }

  /**
   * The job's waiting pods, one per replica index (the index's oldest pod, as the replicas are counted).
   *
   * @param startedAt the job's {@code startTime} (reset on resume): no pod waits, for the limit, from before it
   */
  static <J extends dev.stint.spi.TrainingJob<?>> WaitingPods of(JobContext<J> ctx, Observed observed,
                                                                 String startedAt) {
    Map<String, String> typeOfLabel = new HashMap<>();
    Map<String, Integer> replicas = new HashMap<>();
    ctx.replicaSpecs().keySet().forEach(t -> {
      typeOfLabel.put(new ReplicaId(t, 0).typeLabel(), t);
      replicas.put(t, ctx.replicas(t));
    });
    Reader reader = new Reader(ctx.now(), instant(startedAt));
    Map<ReplicaId, PodWait> byReplica = new HashMap<>();
    for (Pod pod : observed.pods()) {
      if (!PodState.of(pod).waitable()) {
        continue; // most pods of a busy cluster's jobs: finished or being deleted, nothing more to read
      }
      String type = typeOfLabel.get(Observed.label(pod, JobLabels.REPLICA_TYPE));
      int index = Observed.index(pod);
      if (type == null || index < 0 || index >= replicas.get(type)) {
        continue;
      }
      reader.read(type, index, pod).ifPresent(w -> byReplica.merge(new ReplicaId(type, index), w,
          (a, b) -> a.waitingSince() != null && b.waitingSince() != null && b.waitingSince().isBefore(a.waitingSince())
              ? b : a));
    }
    return new WaitingPods(new ArrayList<>(byReplica.values()), reader.recheckAt);
  }

  /** The waiting pods, in no particular order. */
  List<PodWait> pods() {
    return pods;
  }

  boolean any() {
    return !pods.isEmpty();
  }

  /** When a pod still starting normally would become slow: the decision looks again then. */
  Optional<Instant> recheckAt() {
    return Optional.ofNullable(recheckAt);
  }

  /** Reads one pod's status; remembers the earliest moment a start in progress would become slow. */
  private static final class Reader {
    private final Instant now;
    private final Instant startedAt;
    private Instant recheckAt;

    Reader(Instant now, Instant startedAt) {
      this.now = now;
      this.startedAt = startedAt;
    }

    Optional<PodWait> read(String type, int index, Pod pod) {
      PodStatus status = pod.getStatus();
      if (status == null) {
        return Optional.empty();
      }
      Instant created = instant(pod.getMetadata().getCreationTimestamp());
      // for the limit, no pod waits from before the job (re)started: the clock restarts on resume
      Instant waitingSince = later(created, startedAt);
      PodCondition scheduled = condition(status, "PodScheduled");
      if (scheduled != null && "False".equals(scheduled.getStatus())
          && UNSCHEDULABLE.equals(scheduled.getReason())) {
        return Optional.of(new PodWait(type, index, UNSCHEDULABLE, text(scheduled.getMessage()), waitingSince));
      }
      Start start = new Start(type, index, waitingSince, "Pending".equals(status.getPhase()));
      Optional<PodWait> init = containers(start, status.getInitContainerStatuses(), created, true);
      if (init.isPresent()) {
        return init;
      }
      Instant scheduledAt = scheduled != null && "True".equals(scheduled.getStatus())
          ? instant(scheduled.getLastTransitionTime()) : null;
      return containers(start, status.getContainerStatuses(), scheduledAt == null ? created : scheduledAt, false);
    }

    /**
     * The first container that cannot start. A normal start ({@code ContainerCreating}, an init container running)
     * counts only in a pending pod, once slow: a running pod's init containers that keep running are sidecars.
     */
    private Optional<PodWait> containers(Start pod, List<ContainerStatus> statuses, Instant startedAt, boolean init) {
      if (statuses == null) {
        return Optional.empty();
      }
      for (ContainerStatus c : statuses) {
        ContainerStateWaiting waiting = c.getState() == null ? null : c.getState().getWaiting();
        if (waiting != null && waiting.getReason() != null && !STARTING.contains(waiting.getReason())) {
          return Optional.of(waitingContainer(pod.type(), pod.index(), c, waiting, pod.waitingSince()));
        }
        if (!pod.pending()) {
          continue;
        }
        if (init && c.getState() != null && c.getState().getRunning() != null) {
          Instant started = or(instant(c.getState().getRunning().getStartedAt()), startedAt);
          return slow(started) ? Optional.of(pod.waits(SLOW_INIT, "init container " + c.getName()
              + " has been running since " + started + ", over " + SLOW_START.toMinutes() + " minutes"))
              : Optional.empty();
        }
        Instant since = or(startedAt, now);
        if (!init && waiting != null && SLOW_CREATE.equals(waiting.getReason()) && slow(since)) {
          return Optional.of(pod.waits(SLOW_CREATE, "container " + c.getName()
              + " has been in ContainerCreating since " + since + ", over " + SLOW_START.toMinutes()
              + " minutes; the pod's events say why (a volume that cannot be mounted?)"));
        }
      }
      return Optional.empty();
    }

    private Instant or(Instant time, Instant otherwise) {
      return time == null ? (otherwise == null ? now : otherwise) : time;
    }

    private PodWait waitingContainer(String type, int index, ContainerStatus c, ContainerStateWaiting waiting,
                                     Instant since) {
      String cause = waiting.getReason();
      String words = text(waiting.getMessage());
      ContainerStateTerminated last = c.getLastState() == null ? null : c.getLastState().getTerminated();
      if (CRASH_LOOP.equals(cause)) {
        // the back-off says only that it restarts; the last exit says why it stopped
        String exit = last == null ? "" : "last exit code " + last.getExitCode()
            + (last.getReason() == null ? "" : " (" + last.getReason() + ")");
        words = words.isEmpty() ? exit : exit.isEmpty() ? words : words + "; " + exit;
        return new PodWait(type, index, cause, words, null);
      }
      // a container that ran before waits to start again since it stopped
      Instant stopped = last == null ? null : instant(last.getFinishedAt());
      return new PodWait(type, index, cause, words, stopped == null ? since : later(stopped, since));
    }

    /** Whether a start in progress since {@code since} is slow; if not yet, when it would be. */
    private boolean slow(Instant since) {
      Instant at = since.plus(SLOW_START);
      if (!now.isBefore(at)) {
        return true;
      }
      recheckAt = recheckAt == null || at.isBefore(recheckAt) ? at : recheckAt;
      return false;
    }

    private Instant later(Instant a, Instant b) {
      if (a == null) {
        return b == null ? now : b;
      }
      return b != null && b.isAfter(a) ? b : a;
    }
  }

  /** The pod being read: its replica, since when it waits for the limit, whether it is pending. */
  private record Start(String type, int index, Instant waitingSince, boolean pending) {
    PodWait waits(String cause, String words) {
      return new PodWait(type, index, cause, words, waitingSince);
    }
  }

  private static PodCondition condition(PodStatus status, String type) {
    if (status.getConditions() == null) {
      return null;
    }
    for (PodCondition c : status.getConditions()) {
      if (type.equals(c.getType())) {
        return c;
      }
    }
    return null;
  }

  private static String text(String message) {
    return message == null ? "" : message.strip();
  }

  private static Instant instant(String time) {
    if (time == null || time.isEmpty()) {
      return null;
    }
    try {
      return Instant.parse(time);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
