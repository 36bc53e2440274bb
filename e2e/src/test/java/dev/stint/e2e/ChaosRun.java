package dev.stint.e2e;

import static dev.stint.e2e.ChaosCalls.controllers;
import static dev.stint.e2e.ChaosCalls.tail;

import dev.stint.e2e.ChaosFaults.Fault;
import dev.stint.e2e.ChaosJob.State;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one chaos run shares between its parts: the cluster, the jobs it drives, the operator processes, and the
 * counts and findings the tally reports.
 */
final class ChaosRun {
  final KubernetesClient client;
  final String ns;
  final List<ChaosJob> jobs = new ArrayList<>();
  final Map<Fault, Integer> faults = new EnumMap<>(Fault.class);
  final Map<String, Integer> steps = new TreeMap<>();
  final List<String> findings = new ArrayList<>();
  final List<String> notes = new ArrayList<>();
  final List<OperatorProcess> operators = new ArrayList<>();
  final List<Duration> apiServerRestarts = new ArrayList<>();
  final List<Duration> etcdRestarts = new ArrayList<>();
  final List<Duration> convergence = new ArrayList<>();
  OperatorProcess operator;
  OperatorProcess paused;
  int operatorSelfExits;
  int clobberConflicts;
  StatusHistory history;

  ChaosRun(KubernetesClient client, String ns) {
    this.client = client;
    this.ns = ns;
  }

  List<ChaosJob> live() {
    return jobs.stream().filter(j -> j.state != State.DELETED && j.quarantined == null).toList();
  }

  void step(String name) {
    steps.merge(name, 1, Integer::sum);
  }

  void fault(Fault f) {
    faults.merge(f, 1, Integer::sum);
  }

  OperatorProcess startOperator() {
    OperatorProcess p = OperatorProcess.start();
    operators.add(p);
    return p;
  }

  /** As a Deployment would: an operator that exited by itself is started again (and noted in the tally). */
  void superviseOperator() {
    if (operator != null && !operator.alive() && operator != paused) {
      operatorSelfExits++;
      String tail = tail(operator.log(), 15);
      notes.add("operator " + operator.logFile().getFileName() + " exited by itself with code "
          + operator.exitValue() + "; its last lines:\n" + tail);
      System.out.println("  operator exited by itself (" + operator.exitValue() + "), starting another:\n" + tail);
      operator = startOperator();
    }
  }

  /** Lets a SIGSTOPped operator run again (every SIGSTOP has its SIGCONT; this is the safety net). */
  void resumePaused() {
    if (paused != null) {
      paused.resume();
      paused = null;
    }
  }

  GenericKubernetesResource jobResource(ChaosJob job) {
    return client.genericKubernetesResources(job.shape.context()).inNamespace(ns).withName(job.name).get();
  }

  List<Pod> podsOf(ChaosJob job) {
    // a launcher pod is its batch Job's (recognised by the job-name label, as Stint does)
    return client.pods().inNamespace(ns).withLabel("training.kubeflow.org/job-name", job.name).list().getItems()
        .stream().filter(p -> ReplicaPods.carrier(p) != null
            || controllers(p).stream().anyMatch(r -> r.getUid().equals(job.uid))).toList();
  }
}
