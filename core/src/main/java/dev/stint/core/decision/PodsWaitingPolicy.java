package dev.stint.core.decision;

import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code PodsWaiting} condition of a job some of whose pods exist and cannot run, and the opt-in limit on how long
 * they may wait ({@code runPolicy.podsWaitingTimeoutSeconds}).
 *
 * <p>The condition is True while any pod waits, with reason {@code <Kind><cause>} of the first cause (those a user
 * must fix before those that may heal by waiting, such as {@code Unschedulable}) and a message that names each group
 * of replicas with its cause and the pods' own words: {@code Worker 3: ImagePullBackOff: Back-off pulling image "x"},
 * {@code 3 of 8 Workers: Unschedulable: 0/4 nodes are available: ...}. The message follows the pods (the condition's
 * transition time does not); the condition is removed on the first pass in which no pod waits.
 *
 * <p>A job whose pods cannot run is not running: {@code Running=True} turns False (Kueue reads {@code Running} as
 * "pods ready", so {@code waitForPodsReady} then applies), and comes back once every replica runs again.
 */
final class PodsWaitingPolicy {
  static final String LIMIT_FIELD = "spec.runPolicy.podsWaitingTimeoutSeconds";
  /** Causes a user must fix, first, in this order; any other waiting reason follows them. */
  private static final List<String> TO_FIX = List.of("CreateContainerConfigError", "CreateContainerError",
      "InvalidImageName", "ErrImageNeverPull", "ErrImagePull", "ImagePullBackOff", "RunContainerError",
      WaitingPods.CRASH_LOOP);
  /** Causes that may heal by waiting (a node or quota comes, a slow start ends), last. */
  private static final List<String> MAY_HEAL = List.of(WaitingPods.UNSCHEDULABLE, WaitingPods.SLOW_INIT,
      WaitingPods.SLOW_CREATE);
  /** The pods' words kept per group: a scheduler's message on a large cluster can be long. */
  private static final int MAX_WORDS = 1024;

  /** The job waited past its limit: it fails with reason {@code <Kind><cause>} and this message. */
  record TimedOut(String cause, String message) { }

  /** Pods of one replica type waiting for one cause, in index order. */
  private record Group(String cause, String type, List<PodWait> pods) {
    String message(JobContext<?> ctx) {
      PodWait first = pods.get(0);
      String who = pods.size() == 1 ? type + " " + first.index()
          : pods.size() + " of " + ctx.replicas(type) + " " + plural(type);
      return who + ": " + cause + words(first);
    }
  }

  private PodsWaitingPolicy() { }

  /**
   * Sets or removes the condition; when a pod has waited past the job's limit, sets nothing and says so (the caller
   * fails the job).
   */
  static <J extends TrainingJob<?>> Optional<TimedOut> apply(DecisionBuilder<J> out, WaitingPods waiting) {
    JobContext<J> ctx = out.ctx();
    waiting.recheckAt().ifPresent(at -> out.requeueAfter(Duration.between(ctx.now(), at)));
    if (!waiting.any()) {
      Conditions.remove(out.status(), ConditionType.PodsWaiting);
      return Optional.empty();
    }
    List<Group> groups = groups(ctx, waiting.pods());
    Optional<TimedOut> timedOut = pastLimit(out, groups);
    if (timedOut.isPresent()) {
      return timedOut;
    }
    Map<String, String> byCause = new LinkedHashMap<>();
    groups.forEach(g -> byCause.merge(g.cause(), g.message(ctx), (a, b) -> a + "; " + b));
    out.waiting(byCause.entrySet().stream().map(e -> new WaitingCause(e.getKey(), e.getValue())).toList());
    show(out, ctx.kind() + groups.get(0).cause(), String.join("; ", byCause.values()));
    return Optional.empty();
  }

  private static <J extends TrainingJob<?>> void show(DecisionBuilder<J> out, String reason, String message) {
    JobStatus status = out.status();
    String now = out.ctx().nowString();
    if (status.isTrue(ConditionType.Running.name())) {
      // its pods cannot all run (a crash loop, a replaced pod that cannot start): not running, not ready for Kueue
      Conditions.set(status, ConditionType.Running, false, reason, message, now);
      Conditions.remove(status, ConditionType.PodsWaiting); // set again below, after Running: STATE shows it
    }
    JobCondition current = status.condition(ConditionType.PodsWaiting.name()).orElse(null);
    if (current != null && current.isTrue() && reason.equals(current.getReason())) {
      // same cause, other pods or words: the message follows them, the condition stays where it is
      if (!message.equals(current.getMessage())) {
        current.setMessage(message);
        current.setLastUpdateTime(now);
      }
      return;
    }
    Conditions.set(status, ConditionType.PodsWaiting, true, reason, message, now);
  }

  /** The first pod (the longest overdue) that has waited past the limit; a requeue for when the next one would. */
  private static <J extends TrainingJob<?>> Optional<TimedOut> pastLimit(DecisionBuilder<J> out, List<Group> groups) {
    JobContext<J> ctx = out.ctx();
    Long limit = ctx.runPolicy().getPodsWaitingTimeoutSeconds();
    if (limit == null) {
      return Optional.empty();
    }
    PodWait overdue = null;
    Instant overdueAt = null;
    for (Group g : groups) {
      for (PodWait w : g.pods()) {
        if (w.waitingSince() == null) {
          continue; // a crash loop: backoffLimit counts its restarts
        }
        Instant deadline = RunLimits.after(w.waitingSince(), limit);
        if (ctx.now().isBefore(deadline)) {
          out.requeueAfter(Duration.between(ctx.now(), deadline));
        } else if (overdue == null || deadline.isBefore(overdueAt)) {
          overdue = w;
          overdueAt = deadline;
        }
      }
    }
    if (overdue == null) {
      return Optional.empty();
    }
    return Optional.of(new TimedOut(overdue.cause(), ctx.kind() + " " + ctx.name() + " has failed because "
        + overdue.type() + " " + overdue.index() + " waited more than " + limit + " s to start (" + LIMIT_FIELD
        + "): " + overdue.cause() + words(overdue)));
  }

  /** Groups by cause (in the order above), then replica type (in the framework's order), then index. */
  private static List<Group> groups(JobContext<?> ctx, List<PodWait> pods) {
    List<String> types = new ArrayList<>(ctx.replicaSpecs().keySet());
    List<PodWait> sorted = pods.stream().sorted(Comparator.comparingInt((PodWait w) -> rank(w.cause()))
        .thenComparing(PodWait::cause).thenComparingInt(w -> types.indexOf(w.type()))
        .thenComparingInt(PodWait::index)).toList();
    List<Group> groups = new ArrayList<>();
    for (PodWait w : sorted) {
      Group last = groups.isEmpty() ? null : groups.get(groups.size() - 1);
      if (last != null && last.cause().equals(w.cause()) && last.type().equals(w.type())) {
        last.pods().add(w);
      } else {
        groups.add(new Group(w.cause(), w.type(), new ArrayList<>(List.of(w))));
      }
    }
    return groups;
  }

  private static int rank(String cause) {
    int toFix = TO_FIX.indexOf(cause);
    if (toFix >= 0) {
      return toFix;
    }
    int mayHeal = MAY_HEAL.indexOf(cause);
    return mayHeal >= 0 ? 200 + mayHeal : 100;
  }

  private static String words(PodWait w) {
    if (w.words().isEmpty()) {
      return "";
    }
    return ": " + (w.words().length() > MAX_WORDS ? w.words().substring(0, MAX_WORDS) + "..." : w.words());
  }

  /** {@code Workers}, {@code Masters}; a type already ending in s ({@code PS}) stays as it is. */
  static String plural(String type) {
    return type.endsWith("s") || type.endsWith("S") ? type : type + "s";
  }

  /** Removes the condition: the job ended, or was suspended (its pods are gone). */
  static void clear(JobStatus status) {
    Conditions.remove(status, ConditionType.PodsWaiting);
  }
}
