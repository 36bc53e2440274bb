package dev.stint.core.decision;

import dev.stint.core.decision.ReplicaTally.TypeTally;
import dev.stint.core.model.Action;
import dev.stint.core.model.JobEvent;
import dev.stint.core.model.JobLabels;
import dev.stint.spi.ReplicaHosts;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.ReplicaSpec;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/**
 * Brings each replica type to its desired pods and services: creates what is missing (from the current template),
 * deletes indexes at or above {@code replicas}, restarts failed pods that the restart policy retries, and tallies
 * what every pod is doing. A pod is only created when no pod of its name is observed, so a restarted operator, or a
 * pass that runs before the cache saw an earlier create, never makes a duplicate.
 *
 * <p>A pass creates at most {@link #MAX_CREATES_PER_PASS} pods and asks to be called again for the rest: a job of
 * thousands of replicas reports its status after each part, and no pass holds more than that many creations.
 */
final class ReplicaSync<J extends TrainingJob<?>> {
  private final DecisionBuilder<J> out;
  private final JobContext<J> ctx;
  private final Observed observed;
  private final ReplicaTally tally = new ReplicaTally();
  private final int priorRestarts;
  /** Replicas whose pod is missing; created once every type has been tallied (see readyToCreate). */
  private final List<ReplicaId> missing = new java.util.ArrayList<>();
  /**
   * Service creations, asked for after every pod creation of the pass: the applier sends a run of actions of one kind
   * at once, so pods then services is two waves where pod, service, pod, ... was one round trip each.
   */
  private final List<Action> serviceCreations = new java.util.ArrayList<>();
  /** Pod creations one pass asks for at most; the rest come in the passes after it. */
  static final int MAX_CREATES_PER_PASS = 500;
  private int creations;
  /** The job has a failure policy: a member's failure is the gang's, judged after the tally ({@link GangRestart}). */
  private final boolean gang;
  private final int attempt;

  ReplicaSync(DecisionBuilder<J> out, Observed observed) {
    this.out = out;
    this.ctx = out.ctx();
    this.observed = observed;
    this.priorRestarts = out.status().getReplicaStatuses().values().stream().mapToInt(r -> r.restarts()).sum();
    this.gang = ctx.facts().gang();
    this.attempt = GangRestart.attempt(out.status());
  }

  ReplicaTally run() {
    tally.containerRestarts = countContainerRestarts();
    for (Map.Entry<String, ReplicaSpec> e : ctx.replicaSpecs().entrySet()) {
      syncType(e.getKey(), ctx.replicas(e.getKey()));
    }
    var outcomes = tally.outcomes();
    for (ReplicaId id : missing) {
      if (creations >= MAX_CREATES_PER_PASS) {
        out.requeueAfter(java.time.Duration.ofSeconds(1)); // the created pods' events usually come first
        break;
      }
      if (ctx.framework().readyToCreate(ctx.job(), id, outcomes)) {
        create(id, true);
      }
    }
    String jobService = ReplicaHosts.jobService(ctx.job());
    if (ctx.jobService() && observed.service(jobService).isEmpty()) {
      serviceCreations.add(new Action.CreateService(jobService, () -> DesiredServices.forJob(ctx)));
    }
    serviceCreations.forEach(out::act);
    return tally;
  }

  private void syncType(String type, int replicas) {
    TypeTally t = tally.type(type, replicas);
    NavigableMap<Integer, List<Pod>> byIndex = observed.podsByIndex(new ReplicaId(type, 0).typeLabel());
    int size = Math.max(replicas, byIndex.isEmpty() ? 0 : byIndex.lastKey() + 1);
    for (int i = 0; i < size; i++) {
      ReplicaId id = new ReplicaId(type, i);
      List<Pod> pods = byIndex.getOrDefault(i, List.of());
      if (i >= replicas) {
        scaleDown(id, pods, t);
      } else if (pods.isEmpty()) {
        missing.add(id);
      } else {
        observe(id, pods.get(0), t);
        if (ctx.servicePerPod() && observed.service(ctx.podName(id)).isEmpty()) {
          create(id, false);
        }
      }
    }
  }

  private void scaleDown(ReplicaId id, List<Pod> pods, TypeTally t) {
    for (Pod pod : pods) {
      t.terminating++;
      if (pod.getMetadata().getDeletionTimestamp() == null) {
        out.act(new Action.DeletePod(pod.getMetadata().getName(), "scaled down"));
      }
    }
    observed.service(ctx.podName(id)).ifPresent(s -> out.act(new Action.DeleteService(s.getMetadata().getName())));
  }

  /** Asks for the replica's pod and service, built only when they are sent (see {@link Action.CreatePod}). */
  private void create(ReplicaId id, boolean withPod) {
    String name = ctx.podName(id);
    if (withPod) {
      creations++;
      out.act(new Action.CreatePod(name, () -> DesiredPods.build(ctx, id, attempt),
          ctx.framework().carriedByJob(ctx.job(), id.type())));
    }
    if (ctx.servicePerPod() && observed.service(name).isEmpty()) {
      serviceCreations.add(new Action.CreateService(name,
          () -> DesiredServices.build(ctx, id, DesiredPods.build(ctx, id, attempt))));
    }
  }

  private void observe(ReplicaId id, Pod pod, TypeTally t) {
    switch (PodState.of(pod)) {
      case TERMINATING -> {
        t.terminating++;
        // preempted, evicted or drained while it runs: the member is lost even before its pod is gone (a pod of
        // an earlier attempt, being deleted by the restart, is no member any more)
        if (gang && GangRestart.attemptOf(pod) == attempt) {
          doomed(id, pod);
        }
      }
      case PENDING -> doomed(id, pod);
      case RUNNING -> {
        t.active++;
        t.activeIndexes.add(id.index());
        doomed(id, pod);
      }
      case SUCCEEDED -> {
        t.succeeded++;
        t.succeededIndexes.add(id.index());
      }
      case FAILED -> {
        t.failed++;
        failed(id, pod, t);
      }
    }
  }

  private void failed(ReplicaId id, Pod pod, TypeTally t) {
    if (gang) {
      memberFailed(id, pod, t);
      return;
    }
    if (PodState.disrupted(pod)) {
      // preempted, evicted, node drained: not the training's fault, so replaced without counting as a retry
      t.failed--;
      out.act(new Action.DeletePod(pod.getMetadata().getName(), "disrupted"));
      out.event(JobEvent.normal("ReplacingDisruptedPod", "Pod " + pod.getMetadata().getName()
          + " was disrupted (DisruptionTarget); it is replaced and does not count toward backoffLimit"));
      return;
    }
    String policy = ctx.restartPolicy(id.type());
    int exitCode = PodState.exitCode(pod, ctx.exitCodeContainer(pod));
    if (!RestartPolicies.retries(policy, exitCode)) {
      t.failedForGood.put(id.index(), exitCode);
      return;
    }
    Integer limit = ctx.runPolicy().getBackoffLimit();
    if (limit != null && priorRestarts + tally.newRestarts() + tally.containerRestarts >= limit) {
      tally.backoffExceeded = true;
      return;
    }
    t.newRestarts++;
    out.act(new Action.DeletePod(pod.getMetadata().getName(), "restart after exit code " + exitCode));
    out.condition(ConditionType.Restarting, true, "Restarting",
        "job " + ctx.name() + " is restarting because " + id.type() + " replica(s) failed.");
  }

  /**
   * A member of a job with a failure policy that Kubernetes marked {@code DisruptionTarget=True} before stopping it
   * (eviction, preemption, a drain): lost already, so the gang restarts without waiting for the pod to go.
   */
  private void doomed(ReplicaId id, Pod pod) {
    if (gang && PodState.disrupted(pod)) {
      tally.memberFailures().add(MemberFailure.of(id, pod, ctx.exitCodeContainer(pod)));
    }
  }

  /**
   * A failed member of a job with a failure policy: never restarted alone. A disruption counts as no failure; a
   * failure its restart policy does not retry is final (the success policy may tolerate it); every other goes to the
   * policy, except an ExitCode replica's permanent codes (1-127), which fail the job as without a failure policy.
   */
  private void memberFailed(ReplicaId id, Pod pod, TypeTally t) {
    MemberFailure failure = MemberFailure.of(id, pod, ctx.exitCodeContainer(pod));
    if (failure.disrupted()) {
      t.failed--;
      tally.memberFailures().add(failure);
      return;
    }
    String policy = ctx.restartPolicy(id.type());
    if (!RestartPolicies.retries(policy, failure.exitCode())) {
      t.failedForGood.put(id.index(), failure.exitCode());
      if (RestartPolicies.EXIT_CODE.equals(policy)) {
        return;
      }
    }
    tally.memberFailures().add(failure);
  }

  /** Container restarts in running pods of types whose restart policy lets the kubelet restart them (upstream). */
  private int countContainerRestarts() {
    return observed.pods().stream()
        .filter(p -> PodState.of(p) == PodState.RUNNING)
        .filter(p -> {
          String type = typeOf(Observed.label(p, JobLabels.REPLICA_TYPE));
          return type != null && RestartPolicies.countsContainerRestarts(ctx.restartPolicy(type));
        })
        .mapToInt(PodState::containerRestarts)
        .sum();
  }

  private String typeOf(String typeLabel) {
    return ctx.replicaSpecs().keySet().stream().filter(t -> new ReplicaId(t, 0).typeLabel().equals(typeLabel))
        .findFirst().orElse(null);
  }
}
