package dev.stint.bench;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Scenario 4, steady churn: N jobs created at a fixed rate over a window, each finishing by itself after a run time
 * (kwok exit annotations in its pod templates), so jobs start and end at the same rate. Shows whether the operator
 * keeps up: latencies stay flat when it does and grow over the window when it does not.
 */
final class Churn {
  // the same driver, probe and job shape as the other scenarios, which it measures the same way
  private final Scenarios scenarios;

  Churn(Scenarios scenarios) {
    this.scenarios = scenarios;
  }

  ScenarioResult run(Tracker t, List<String> jobs, long windowMillis, long runtimeMillis, long drainMillis) {
    Probe.Scope s = scenarios.probe().begin("churn", jobs.size());
    Driver driver = scenarios.driver();
    t.clear();
    t.watch("running", v -> v.running);
    t.watch("succeeded", v -> v.succeeded);
    Map<String, String> annotations = Map.of(Manifests.EXIT_CODE, "0", Manifests.EXIT_AFTER, runtimeMillis + "ms");
    Map<String, Long> sent = new ConcurrentHashMap<>();
    double periodMillis = (double) windowMillis / jobs.size();
    ScheduledExecutorService pacer = Executors.newSingleThreadScheduledExecutor();
    try {
      for (int i = 0; i < jobs.size(); i++) {
        String job = jobs.get(i);
        pacer.schedule(() -> driver.submit(() -> {
          sent.put(job, Time.now());
          scenarios.createJob(t.namespace(), job, annotations);
        }), Math.round(i * periodMillis), TimeUnit.MILLISECONDS);
      }
      pacer.shutdown();
      pacer.awaitTermination(windowMillis + 60_000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } finally {
      pacer.shutdownNow();
    }
    if (!t.await("succeeded", jobs, drainMillis)) {
      List<String> missing = jobs.stream().filter(j -> !t.reached("succeeded").containsKey(j)).toList();
      s.result.notes.add(String.format("%d of %d jobs had not succeeded %d s after the last create; %s",
          missing.size(), jobs.size(), drainMillis / 1000, Scenarios.stuck(t, missing)));
    }
    Map<String, Long> running = t.reached("running");
    Map<String, Long> succeeded = t.reached("succeeded");
    s.result.latency("running", Scenarios.since(sent, running));
    s.result.latency("podsDoneToSucceeded", scenarios.doneToSucceeded(s, t, succeeded));
    s.result.latency("createToSucceeded", Scenarios.since(sent, succeeded));
    s.result.figures.put("targetJobsPerSecond", Probe.round(jobs.size() / Time.seconds(windowMillis)));
    s.result.figures.put("targetPodsPerSecond", Probe.round(jobs.size() * scenarios.podsPerJob() / Time.seconds(windowMillis)));
    s.result.figures.put("jobRuntimeSeconds", Time.seconds(runtimeMillis));
    if (!sent.isEmpty()) {
      long firstSent = sent.values().stream().mapToLong(Long::longValue).min().orElse(0);
      long lastSent = Scenarios.last(sent);
      s.result.figures.put("achievedCreatesPerSecond", Scenarios.rate(sent.size(), lastSent - firstSent));
    }
    if (succeeded.size() > 1) {
      long first = succeeded.values().stream().mapToLong(Long::longValue).min().orElse(0);
      s.result.figures.put("jobsSucceededPerSecond", Scenarios.rate(succeeded.size(), Scenarios.last(succeeded) - first));
    }
    return s.finish();
  }
}
