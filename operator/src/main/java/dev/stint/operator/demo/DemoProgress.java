package dev.stint.operator.demo;

import dev.stint.core.model.EngineFramework;
import dev.stint.core.model.JobLabels;
import dev.stint.operator.demo.DemoJobs.DemoJob;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Watches the demo's jobs: prints the {@link ProgressTable} whenever a job or its pods changed, each condition as it
 * appears, and moves on the scripted suspension of the jobs that have one ({@link SuspendResumeStep}); at the end,
 * the final status of each job and a summary that judges each job by its {@link JobExpectation}. A job counts as
 * ended once it is Succeeded or Failed, or when it was deleted (its TTL passed), in which case its last seen state is
 * reported.
 */
final class DemoProgress {
  private final KubernetesClient client;
  private final String namespace;
  private final PrintStream out;
  private final Clock clock;
  private final Instant started;
  /** The last seen state of each job, by name, in creation order. */
  private final Map<String, DemoJob> jobs = new LinkedHashMap<>();
  /** The scripted suspension of each job that has one, by name. */
  private final Map<String, SuspendResumeStep> scripts = new HashMap<>();
  private final Set<String> deleted = new HashSet<>();
  private final Set<String> printedConditions = new HashSet<>();
  private List<ProgressTable.Row> lastRows = List.of();
  private List<ProgressTable.Row> lastRowsWithAge = List.of();

  DemoProgress(KubernetesClient client, List<DemoJob> created, String namespace, PrintStream out, Clock clock) {
    this.client = client;
    this.namespace = namespace;
    this.out = out;
    this.clock = clock;
    this.started = clock.instant();
    for (DemoJob job : created) {
      jobs.put(job.name(), job);
      job.expectation().suspendFor().ifPresent(pause -> scripts.put(job.name(),
          new SuspendResumeStep(client, namespace, out, pause)));
    }
  }

  /**
   * Looks every {@code refresh} until every job has ended; false when {@code timeout} passed first. Right after a
   * scripted step it looks again sooner, so that the table catches the job's pods going or coming back.
   */
  boolean awaitEnd(Duration timeout, Duration refresh) throws InterruptedException {
    Instant deadline = started.plus(timeout);
    while (true) {
      boolean stepped = refresh();
      if (jobs.values().stream().allMatch(this::ended)) {
        return true;
      }
      if (!clock.instant().isBefore(deadline)) {
        return false;
      }
      Thread.sleep(stepped ? refresh.toMillis() / 4 : refresh.toMillis());
    }
  }

  /**
   * Prints the final status of every job, then a summary: the last table and whether each job met its expectation.
   *
   * @return the demo's exit code: 0 when every job ended as expected, else 1
   */
  int report(boolean ended) {
    out.println();
    for (DemoJob job : jobs.values()) {
      out.println("=== " + job.kind() + " " + job.name() + (deleted.contains(job.name()) ? " (deleted)" : "")
          + ": final status");
      JobStatus status = job.job().getStatus();
      out.print(status == null ? "{}\n"
          : client.getKubernetesSerialization().asYaml(status).replaceFirst("^---\n", ""));
    }
    out.println();
    out.println("=== Summary after " + Duration.between(started, clock.instant()).toSeconds() + " s");
    out.print(ProgressTable.render(lastRowsWithAge));
    List<String> unmet = new ArrayList<>();
    for (DemoJob job : jobs.values()) {
      JobExpectation.Verdict verdict = job.expectation().judge(job.job(), Optional.ofNullable(scripts.get(job.name())));
      out.println(verdict.line());
      if (!verdict.met()) {
        unmet.add(job.name());
      }
    }
    if (!ended) {
      List<String> running = jobs.values().stream().filter(j -> !ended(j)).map(DemoJob::name).toList();
      out.println("Timed out: still running: " + String.join(", ", running));
      return 1;
    }
    if (!unmet.isEmpty()) {
      out.println("Not as expected: " + String.join(", ", unmet));
      return 1;
    }
    out.println("All " + jobs.size() + " job(s) ended as expected.");
    return 0;
  }

  /** Looks at every job once; true when a scripted step acted on a job. */
  private boolean refresh() {
    Instant now = clock.instant();
    List<ProgressTable.Row> rows = new ArrayList<>();
    List<String> newConditions = new ArrayList<>();
    Map<String, List<Pod>> podsByJob = new HashMap<>();
    for (Map.Entry<String, DemoJob> e : jobs.entrySet()) {
      DemoJob job = e.getValue();
      if (!deleted.contains(job.name())) {
        TrainingJob<?> current = fetch(job.framework(), job.name());
        if (current == null) {
          deleted.add(job.name());
        } else {
          job = job.withJob(current);
          e.setValue(job);
        }
      }
      List<Pod> pods = pods(job);
      podsByJob.put(job.name(), pods);
      rows.add(ProgressTable.row(job.framework(), job.job(), pods, now));
      newConditions.addAll(newConditions(job));
    }
    List<ProgressTable.Row> withoutAge = rows.stream().map(ProgressTable.Row::withoutAge).toList();
    lastRowsWithAge = rows;
    if (!withoutAge.equals(lastRows)) {
      lastRows = withoutAge;
      out.println();
      out.println("[+" + Duration.between(started, now).toSeconds() + "s]");
      out.print(ProgressTable.render(rows));
    }
    newConditions.forEach(out::println);
    // after the table, so that a step's line follows the state that triggered it
    boolean stepped = false;
    for (Map.Entry<String, SuspendResumeStep> script : scripts.entrySet()) {
      if (!deleted.contains(script.getKey())) {
        stepped |= script.getValue().advance(jobs.get(script.getKey()), podsByJob.get(script.getKey()), now);
      }
    }
    return stepped;
  }
  private TrainingJob<?> fetch(TrainingFramework<?> framework, String name) {
    return client.resources(framework.jobType()).inNamespace(namespace).withName(name).get();
  }

  private List<Pod> pods(DemoJob job) {
    if (deleted.contains(job.name())) {
      return List.of();
    }
    return client.pods().inNamespace(namespace)
        .withLabel(JobLabels.OPERATOR_NAME, EngineFramework.of(job.framework()).controllerName())
        .withLabel(JobLabels.JOB_NAME, JobLabels.jobNameValue(job.name()))
        .list().getItems();
  }

  /** Lines for the conditions of a job not printed before (a change of status or reason counts as new). */
  private List<String> newConditions(DemoJob job) {
    JobStatus status = job.job().getStatus();
    List<String> lines = new ArrayList<>();
    if (status == null || status.getConditions() == null) {
      return lines;
    }
    for (JobCondition c : status.getConditions()) {
      if (printedConditions.add(job.name() + "|" + c.getType() + "|" + c.getStatus() + "|" + c.getReason())) {
        lines.add("  " + job.name() + ": " + c.getType() + "=" + c.getStatus() + " (" + c.getReason() + ") "
            + c.getMessage());
      }
    }
    return lines;
  }

  private boolean ended(DemoJob job) {
    return deleted.contains(job.name()) || isTrue(job, "Succeeded") || isTrue(job, "Failed");
  }

  private static boolean isTrue(DemoJob job, String type) {
    return job.job().getStatus() != null && job.job().getStatus().isTrue(type);
  }
}
