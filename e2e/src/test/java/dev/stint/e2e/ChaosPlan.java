package dev.stint.e2e;

import static dev.stint.e2e.ChaosIT.ROUND_MILLIS;

import dev.stint.e2e.ChaosFaults.Fault;
import dev.stint.e2e.ChaosKinds.Plan;
import dev.stint.e2e.ChaosKinds.Shape;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Random;

/**
 * The seeded plan of each round: which jobs are created, how the existing ones move on, and which faults land when.
 * Every random choice of the run is made here, in a fixed order, so a seed replays the same plans.
 */
final class ChaosPlan {
  /** A planned moment of a round. */
  record Event(long atMillis, String what, Runnable action) { }

  private final Random random;
  private final List<Fault> kinds;
  private final ChaosRun run;
  private final ChaosDriver driver;
  private final ChaosFaults faults;
  private final Deque<Fault> deck = new ArrayDeque<>();
  private int jobCounter;

  ChaosPlan(long seed, List<Fault> kinds, ChaosRun run, ChaosDriver driver, ChaosFaults faults) {
    this.random = new Random(seed);
    this.kinds = kinds;
    this.run = run;
    this.driver = driver;
    this.faults = faults;
  }

  /** A round's timeline, in time order; the new jobs' count is {@link #fresh}. */
  List<Event> round(int round) {
    List<Event> events = new ArrayList<>(newJobs(round));
    List<Event> driving = driving();
    events.addAll(driving);
    // faults: a shuffled deck of every kind, dealt so that a default run injects each at least once
    int count = Math.max(2, (Fault.values().length + ChaosIT.ROUNDS - 1) / ChaosIT.ROUNDS) + random.nextInt(2);
    for (int i = 0; i < count; i++) {
      if (deck.isEmpty()) {
        List<Fault> all = new ArrayList<>(kinds);
        Collections.shuffle(all, random);
        deck.addAll(all);
      }
      planFault(deck.poll(), events, driving, round);
    }
    events.sort(Comparator.comparingLong(Event::atMillis));
    return events;
  }

  /** New jobs: every shape early on, then two a round. */
  static int fresh(int round) {
    return round == 1 ? 4 : 2;
  }

  private List<Event> newJobs(int round) {
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < fresh(round); i++) {
      Shape shape = round == 1 ? Shape.values()[i] : Shape.values()[random.nextInt(Shape.values().length)];
      boolean suspended = random.nextInt(4) == 0;
      ChaosJob job = new ChaosJob(shape.prefix + "-" + (++jobCounter), shape, suspended);
      events.add(new Event(random.nextInt((int) (ROUND_MILLIS / 2)), "create " + job + (suspended ? " suspended" : ""),
          () -> driver.create(job)));
    }
    return events;
  }

  /** The existing jobs move on, each from the converged state of the last round end. */
  private List<Event> driving() {
    List<Event> driving = new ArrayList<>();
    for (ChaosJob job : run.live()) {
      long at = random.nextInt((int) (ROUND_MILLIS * 7 / 10));
      int dice = random.nextInt(100);
      switch (job.state) {
        case RUNNING -> {
          if (dice < 30) {
            driving.add(new Event(at, "suspend " + job, () -> driver.suspend(job)));
          } else if (dice < 60) {
            Plan plan = job.shape.plans().get(random.nextInt(job.shape.plans().size()));
            driving.add(new Event(at, "finish " + job + " " + plan, () -> driver.finish(job, plan)));
          }
        }
        case SUSPENDED -> {
          if (dice < 65) {
            driving.add(new Event(at, "resume " + job, () -> driver.resume(job)));
          }
        }
        case FINISHED -> {
          if (dice < 35) {
            driving.add(new Event(at, "delete " + job, () -> driver.delete(job)));
          }
        }
        case DELETED -> { }
      }
    }
    return driving;
  }

  private void planFault(Fault fault, List<Event> events, List<Event> driving, int round) {
    long at = random.nextInt((int) ROUND_MILLIS);
    if (round == 1 && (fault == Fault.STATUS_CLOBBER || fault == Fault.DELETE_POD || fault == Fault.DELETE_SERVICE)) {
      at = ROUND_MILLIS / 2 + at / 2; // after the first jobs exist
    }
    int pick = random.nextInt(1000);
    switch (fault) {
      case KILL_OPERATOR -> {
        long after = random.nextInt(2500);
        events.add(new Event(at, "kill -9 the operator (" + after + " ms after it started)",
            () -> faults.kill(after)));
      }
      case RESTART_APISERVER -> {
        boolean crash = random.nextBoolean();
        events.add(new Event(at, "restart kube-apiserver" + (crash ? " (SIGKILL)" : " (SIGTERM)"),
            () -> faults.restartApiServer(crash, Fault.RESTART_APISERVER)));
      }
      case RESTART_ETCD -> {
        boolean crash = random.nextBoolean();
        events.add(new Event(at, "restart etcd" + (crash ? " (SIGKILL)" : " (SIGTERM)"),
            () -> faults.restartEtcd(crash)));
      }
      case WATCH_EXPIRY -> planWatchExpiry(at, pick, events, driving);
      case STATUS_CLOBBER -> events.add(new Event(at, "clobber a job's status (#" + pick + ")",
          () -> faults.clobberStatus(pick)));
      case DELETE_POD -> {
        int podPick = random.nextInt(1000);
        events.add(new Event(at, "delete a pod (#" + pick + "/" + podPick + ")",
            () -> faults.deletePod(pick, podPick)));
      }
      case DELETE_SERVICE -> {
        int svcPick = random.nextInt(1000);
        events.add(new Event(at, "delete a service (#" + pick + "/" + svcPick + ")",
            () -> faults.deleteService(pick, svcPick)));
      }
      case DELETE_NODE -> planNodeOutage(at, pick, events);
      case PAUSE_LEADER -> planPausedLeader(at, pick, events, driving);
    }
  }

  /** The leader frozen past its Lease; one of the round's driving steps happens once the standby leads. */
  private void planPausedLeader(long at, int pick, List<Event> events, List<Event> driving) {
    Event moved = driving.isEmpty() ? null : driving.get(pick % driving.size());
    if (moved != null) {
      events.remove(moved);
      driving.remove(moved);
    }
    // without a step of its own to move (round 1), the standby suspends a running job, as in issue 47's trial
    events.add(new Event(at, "SIGSTOP the leader of two replicas past its Lease, then "
        + (moved == null ? "suspend the first running job" : moved.what()) + " (the standby leading), SIGCONT",
        () -> faults.pauseLeader(moved == null ? driver::suspendFirstRunning : moved.action())));
  }

  private void planWatchExpiry(long at, int pick, List<Event> events, List<Event> driving) {
    long length = 2000 + random.nextInt(3000);
    at = Math.min(at, ROUND_MILLIS - length);
    events.add(new Event(at, "SIGSTOP the operator", faults::pause));
    // something changes while it sleeps: one of the round's driving steps moves into the window
    if (!driving.isEmpty()) {
      Event moved = driving.get(pick % driving.size());
      events.remove(moved);
      driving.remove(moved);
      events.add(new Event(at + 300, moved.what() + " (operator stopped)", moved.action()));
    }
    boolean crash = random.nextBoolean();
    events.add(new Event(at + length, "compact etcd, restart kube-apiserver, SIGCONT the operator",
        () -> faults.expireWatches(crash)));
  }

  private void planNodeOutage(long at, int pick, List<Event> events) {
    long length = 1000 + random.nextInt(4000);
    at = Math.min(at, ROUND_MILLIS - length);
    String node = "kwok-node-" + (pick % 4);
    events.add(new Event(at, "delete node " + node, () -> faults.deleteNode(node)));
    events.add(new Event(at + length, "recreate node " + node, () -> faults.recreateNode(node)));
  }
}
