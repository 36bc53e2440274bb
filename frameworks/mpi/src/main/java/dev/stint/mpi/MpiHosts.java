package dev.stint.mpi;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The hosts of an MPIJob as MPI sees them, and the two files that list them, as the MPI Operator v2 writes them. A
 * host is a pod's fully qualified name under the job's headless service, {@code <pod>.<job>.<namespace>.svc}, with
 * {@code .<cluster domain>} appended when one is configured.
 */
final class MpiHosts {
  private final MPIJob job;
  private final String clusterDomain;

  /**
   * @param clusterDomain appended to every host name after {@code .svc}; empty for none (the resolver's search
   *     path then completes the name)
   */
  MpiHosts(MPIJob job, String clusterDomain) {
    this.job = job;
    this.clusterDomain = clusterDomain;
  }

  /** The pod name of the launcher: {@code <job>-launcher}, upstream's name. */
  static String launcherName(String jobName) {
    return jobName + "-launcher";
  }

  /** The pod name of a worker: {@code <job>-worker-<index>}. */
  static String workerName(String jobName, int index) {
    return jobName + "-worker-" + index;
  }

  /** The host name of a pod of this job. */
  String host(String podName) {
    String host = podName + "." + job.getMetadata().getName() + "." + job.getMetadata().getNamespace() + ".svc";
    return clusterDomain.isEmpty() ? host : host + "." + clusterDomain;
  }

  /**
   * {@code hostfile}: every worker, with its slots in the syntax of the job's MPI implementation
   * ({@code <host> slots=<n>} for Open MPI, {@code <host>:<n>} for Intel MPI and MPICH); the launcher first when it
   * also runs MPI processes ({@code runLauncherAsWorker}).
   */
  String hostfile(int workers) {
    StringBuilder file = new StringBuilder();
    for (String pod : pods(workers)) {
      file.append(hostfileLine(host(pod))).append('\n');
    }
    return file.toString();
  }

  /**
   * {@code discover_hosts.sh} (for Horovod's elastic mode): a script that prints the host of every worker running
   * now, sorted by pod name, after the launcher when it runs MPI processes.
   */
  String discoverHosts(Collection<Integer> runningWorkers) {
    List<String> running = new ArrayList<>();
    runningWorkers.forEach(index -> running.add(workerName(job.getMetadata().getName(), index)));
    running.sort(null); // by name, as upstream: worker-10 sorts before worker-2
    StringBuilder script = new StringBuilder("#!/bin/sh\n");
    if (job.getSpec().launcherIsWorker()) {
      script.append("echo ").append(host(launcherName(job.getMetadata().getName()))).append('\n');
    }
    running.forEach(pod -> script.append("echo ").append(host(pod)).append('\n'));
    return script.toString();
  }

  private List<String> pods(int workers) {
    String name = job.getMetadata().getName();
    List<String> pods = new ArrayList<>();
    if (job.getSpec().launcherIsWorker()) {
      pods.add(launcherName(name));
    }
    for (int i = 0; i < workers; i++) {
      pods.add(workerName(name, i));
    }
    return pods;
  }

  private String hostfileLine(String host) {
    int slots = job.getSpec().slots();
    return MPIJobSpec.OPEN_MPI.equals(job.getSpec().implementation()) ? host + " slots=" + slots : host + ":" + slots;
  }
}
