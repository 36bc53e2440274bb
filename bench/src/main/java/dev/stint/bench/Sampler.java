package dev.stint.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Once a second: live and running pods and job states (from the trackers' local state, not the API), and the
 * operator's RSS and CPU use. The series end up in the run's JSON and in the "pods over time" plots.
 */
final class Sampler implements AutoCloseable {
  private final List<Tracker> trackers = new CopyOnWriteArrayList<>();
  private final Probe probe;
  private final long runStart;
  private final Map<String, List<Double>> series = new LinkedHashMap<>();
  private final Thread thread;
  private volatile boolean stop;
  private ProcStats.Sample last;
  private long lastAt;

  Sampler(Probe probe, long runStart) {
    this.probe = probe;
    this.runStart = runStart;
    for (String s : List.of("t", "livePods", "runningPods", "jobsRunning", "jobsSuspended", "jobsSucceeded",
        "operatorRssMiB", "operatorCpuPercent")) {
      series.put(s, new ArrayList<>());
    }
    thread = new Thread(this::loop, "sampler");
    thread.setDaemon(true);
    thread.start();
  }

  void track(Tracker tracker) {
    trackers.add(tracker);
  }

  private void loop() {
    while (!stop) {
      sample();
      try {
        Thread.sleep(1000);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void sample() {
    int live = 0;
    int running = 0;
    int jobsRunning = 0;
    int jobsSuspended = 0;
    int jobsSucceeded = 0;
    for (Tracker t : trackers) {
      for (JobView v : t.views()) {
        synchronized (v) {
          live += v.pods.size();
          running += v.runningPods();
          jobsRunning += v.running ? 1 : 0;
          jobsSuspended += v.suspended ? 1 : 0;
          jobsSucceeded += v.succeeded ? 1 : 0;
        }
      }
    }
    long now = Time.now();
    long pid = probe.operatorPid();
    ProcStats.Sample s = pid > 0 ? ProcStats.read(pid) : null;
    double rss = s == null ? Double.NaN : s.rssKib() / 1024.0;
    double cpu = Double.NaN;
    if (s != null && last != null && now > lastAt) {
      cpu = 100.0 * (s.cpuSeconds() - last.cpuSeconds()) / Time.seconds(now - lastAt);
    }
    last = s;
    lastAt = now;
    synchronized (series) {
      add("t", Time.seconds(now - runStart));
      add("livePods", live);
      add("runningPods", running);
      add("jobsRunning", jobsRunning);
      add("jobsSuspended", jobsSuspended);
      add("jobsSucceeded", jobsSucceeded);
      add("operatorRssMiB", Probe.round(rss));
      add("operatorCpuPercent", Probe.round(cpu));
    }
  }

  private void add(String name, double v) {
    series.get(name).add(v);
  }

  Map<String, List<Double>> series() {
    synchronized (series) {
      Map<String, List<Double>> copy = new LinkedHashMap<>();
      series.forEach((k, v) -> copy.put(k, new ArrayList<>(v.stream().map(d -> d.isNaN() ? null : d).toList())));
      return copy;
    }
  }

  @Override
  public void close() {
    stop = true;
    thread.interrupt();
  }
}
