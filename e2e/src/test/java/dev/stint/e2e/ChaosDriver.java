package dev.stint.e2e;

import static dev.stint.e2e.ChaosCalls.annotation;
import static dev.stint.e2e.ChaosCalls.kubectl;
import static dev.stint.e2e.ChaosCalls.millisSince;
import static dev.stint.e2e.ChaosCalls.retry;

import dev.stint.e2e.ChaosJob.State;
import dev.stint.e2e.ChaosKinds.Plan;
import dev.stint.e2e.ChaosPlan.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Drives the jobs through their life cycle (create, suspend, resume, finish with planned exit codes, delete) and plays
 * a round's timeline of events in real time.
 */
final class ChaosDriver {
  static final String EXIT_CODE = "stint.dev/kwok-exit-code";

  private final ChaosRun run;
  private long lastFinishTick;

  ChaosDriver(ChaosRun run) {
    this.run = run;
  }

  void play(List<Event> events) throws InterruptedException {
    long t0 = System.nanoTime();
    for (Event event : events) {
      while (millisSince(t0) < event.atMillis()) {
        tick();
        Thread.sleep(100);
      }
      System.out.println(String.format(Locale.ROOT, "  %6d ms  %s", millisSince(t0), event.what()));
      event.action().run();
      tick();
    }
    while (millisSince(t0) < ChaosIT.ROUND_MILLIS) {
      tick();
      Thread.sleep(100);
    }
    run.resumePaused(); // not expected to find one: every SIGSTOP has its SIGCONT in the same round
  }

  /** What runs between events: the finishing jobs' exit codes, and a check that the operator still runs. */
  void tick() {
    run.superviseOperator();
    if (System.nanoTime() - lastFinishTick < 500_000_000L) {
      return;
    }
    lastFinishTick = System.nanoTime();
    for (ChaosJob job : run.live()) {
      if (job.state == State.FINISHED && !job.exitCodesDone) {
        try {
          advanceFinish(job);
        } catch (KubernetesClientException e) {
          // the API server may be restarting; the next tick tries again
        }
      }
    }
  }

  void create(ChaosJob job) {
    kubectl(job.shape.manifest(job.name, job.createdSuspended), "apply", "-n", run.ns, "-f", "-");
    run.jobs.add(job);
    job.drivenThisRound = true;
    run.step("create " + job.shape.name().toLowerCase(Locale.ROOT) + (job.createdSuspended ? " (suspended)" : ""));
    job.uid = retry("read " + job, () -> {
      GenericKubernetesResource r = run.jobResource(job);
      if (r == null) {
        throw new KubernetesClientException("not found yet");
      }
      return r.getMetadata().getUid();
    });
  }

  void suspend(ChaosJob job) {
    kubectl(null, "patch", job.shape.plural, job.name, "-n", run.ns, "--type", "merge",
        "-p", "{\"spec\":{\"runPolicy\":{\"suspend\":true}}}");
    job.state = State.SUSPENDED;
    job.suspensions++;
    job.drivenThisRound = true;
    run.step("suspend");
  }

  /** Suspends the first running job by name, if there is one: a change for a standby to act on. */
  void suspendFirstRunning() {
    run.live().stream().filter(j -> j.state == State.RUNNING).min(java.util.Comparator.comparing(j -> j.name))
        .ifPresent(job -> {
          System.out.println("           suspend " + job);
          suspend(job);
        });
  }

  void resume(ChaosJob job) {
    kubectl(null, "patch", job.shape.plural, job.name, "-n", run.ns, "--type", "merge",
        "-p", "{\"spec\":{\"runPolicy\":{\"suspend\":false}}}");
    job.state = State.RUNNING;
    job.everRan = true;
    job.drivenThisRound = true;
    run.step("resume");
  }

  void finish(ChaosJob job, Plan plan) {
    job.state = State.FINISHED;
    job.plan = plan;
    job.drivenThisRound = true;
    run.step("finish " + plan.name().toLowerCase(Locale.ROOT));
    advanceFinish(job);
  }

  void delete(ChaosJob job) {
    kubectl(null, "delete", job.shape.plural, job.name, "-n", run.ns, "--wait=false", "--ignore-not-found");
    job.state = State.DELETED;
    job.drivenThisRound = true;
    run.step("delete");
  }

  /**
   * Gives the job's pods their planned exit codes, phase by phase: the next phase only once every pod of this one
   * has ended. Idempotent, so a pod that was recreated gets its code too.
   */
  void advanceFinish(ChaosJob job) {
    Map<String, Pod> pods = run.podsOf(job).stream()
        .collect(Collectors.toMap(ReplicaPods::replicaName, p -> p, (a, b) -> a.getMetadata()
            .getDeletionTimestamp() == null ? a : b));
    for (Map<String, Integer> phase : job.shape.phases(job.plan)) {
      boolean ended = true;
      for (Map.Entry<String, Integer> e : new TreeMap<>(phase).entrySet()) {
        Pod pod = pods.get(job.name + "-" + e.getKey());
        String want = e.getValue() == 0 ? "Succeeded" : "Failed";
        if (pod == null || !want.equals(pod.getStatus() == null ? null : pod.getStatus().getPhase())) {
          ended = false;
        }
        if (pod != null && pod.getMetadata().getDeletionTimestamp() == null
            && !Objects.equals(annotation(pod, EXIT_CODE), e.getValue().toString())) {
          annotateExitCode(pod, e.getValue());
        }
      }
      if (!ended) {
        return;
      }
    }
    job.exitCodesDone = true;
  }

  /** The annotation kwok ends the pod by; a pod gone meanwhile needs none. */
  private void annotateExitCode(Pod pod, Integer code) {
    try {
      run.client.pods().inNamespace(run.ns).withName(pod.getMetadata().getName()).patch(
          PatchContext.of(PatchType.JSON_MERGE),
          "{\"metadata\":{\"annotations\":{\"" + EXIT_CODE + "\":\"" + code + "\"}}}");
    } catch (KubernetesClientException ex) {
      if (ex.getCode() != 404) {
        throw ex;
      }
    }
  }
}
