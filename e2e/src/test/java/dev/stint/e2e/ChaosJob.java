package dev.stint.e2e;

import dev.stint.e2e.ChaosKinds.Plan;
import dev.stint.e2e.ChaosKinds.Shape;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** One job as {@link ChaosIT} drives it: the state its driving implies and what happened to it this round. */
final class ChaosJob {
  enum State { RUNNING, SUSPENDED, FINISHED, DELETED }

  final String name;
  final Shape shape;
  final boolean createdSuspended;
  String uid;
  State state;
  Plan plan;
  /** Suspensions the test made while the job ran (always from a converged running state). */
  int suspensions;
  boolean everRan;
  /** Set when it did not converge: left out of driving and of the per-job checks from then on. */
  String quarantined;
  /** Pod name to UID at the last round end, when the job was converged and running. */
  Map<String, String> runningPods = Map.of();
  /** Whether this round changed its driven state (then its pods may legitimately be new). */
  boolean drivenThisRound;
  final Set<String> podsDeletedThisRound = new HashSet<>();
  boolean clobberedThisRound;
  /** Every pod of every phase of its plan has ended as planned: nothing more to annotate. */
  boolean exitCodesDone;

  ChaosJob(String name, Shape shape, boolean createdSuspended) {
    this.name = name;
    this.shape = shape;
    this.createdSuspended = createdSuspended;
    this.state = createdSuspended ? State.SUSPENDED : State.RUNNING;
    this.everRan = !createdSuspended;
  }

  /** Clears what a round records, before the next one. */
  void startRound() {
    drivenThisRound = false;
    podsDeletedThisRound.clear();
    clobberedThisRound = false;
  }

  String describeDriving() {
    return "driven to " + state + (plan == null ? "" : " " + plan) + ", suspended " + suspensions
        + " time(s) while running" + (createdSuspended ? ", created suspended" : "")
        + (clobberedThisRound ? ", status clobbered this round" : "")
        + (podsDeletedThisRound.isEmpty() ? "" : ", pods deleted this round: " + podsDeletedThisRound);
  }

  @Override
  public String toString() {
    return shape.kind + " " + name;
  }
}
