package dev.stint.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The figures of one scenario of one run; serialised as is into the run's JSON. */
public final class ScenarioResult {
  public String name;
  public int jobs;
  /** Start, relative to the run's start, and duration, in seconds. */
  public double startSeconds;
  public double wallSeconds;
  /** 1/5/15-minute load averages when the scenario started and ended. */
  public double[] loadAverageStart;
  public double[] loadAverageEnd;
  /** Per-job latencies in seconds, by milestone. */
  public Map<String, Latencies> latencies = new LinkedHashMap<>();
  /** The sorted per-job values behind {@link #latencies}, for the CDF plots. */
  public Map<String, double[]> samples = new LinkedHashMap<>();
  /** Throughputs and other single figures (names carry their unit). */
  public Map<String, Double> figures = new LinkedHashMap<>();
  /** Operator process: CPU seconds used during the scenario and peak RSS (VmHWM, reset at the start). */
  public Double operatorCpuSeconds;
  public Double operatorPeakRssMiB;
  /** CPU seconds of each control-plane process during the scenario. */
  public Map<String, Double> componentCpuSeconds = new LinkedHashMap<>();
  /** apiserver_request_total deltas by "VERB resource", all clients together. */
  public Map<String, Double> apiRequests = new LinkedHashMap<>();
  public double apiRequestsTotal;
  /** Of those, the ones answered with a code of 400 or more, by "VERB resource code". */
  public Map<String, Double> apiRefused = new LinkedHashMap<>();
  /** apiserver_terminated_watchers_total deltas by resource: watches the API server ended for falling behind. */
  public Map<String, Double> watchersEnded = new LinkedHashMap<>();
  /** apiserver_request_duration_seconds_sum deltas by the same keys: the API server's time answering them. */
  public Map<String, Double> apiSeconds = new LinkedHashMap<>();
  /** The operator's own requests and seconds waiting for their answers, by "verb resource" (its /metrics; empty without). */
  public Map<String, Double> operatorRequests = new LinkedHashMap<>();
  public Map<String, Double> operatorRequestSeconds = new LinkedHashMap<>();
  /** Reconciles the operator started during the scenario (its /metrics; null without). */
  public Double operatorReconciles;
  /** The driver's own requests (creates, patches; informer lists and watches are not counted). */
  public Map<String, Double> driverRequests = new LinkedHashMap<>();
  public List<String> notes = new ArrayList<>();

  void latency(String milestone, List<Double> seconds) {
    latencies.put(milestone, Latencies.of(seconds, jobs));
    samples.put(milestone, Latencies.sorted(seconds));
  }
}
