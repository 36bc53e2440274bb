package dev.stint.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything one `run` (one operator, one N, one fresh cluster) measured; written to runs/&lt;operator&gt;-&lt;n&gt;.json. */
public final class RunResult {
  public String operator;
  public int n;
  public int workersPerJob;
  public int concurrency;
  public List<String> operatorCommand = new ArrayList<>();
  public String startedAt;
  public Map<String, String> environment = new LinkedHashMap<>();
  public List<ScenarioResult> scenarios = new ArrayList<>();
  /** Time series sampled once a second: "t" (seconds since the run started) and one array per series. */
  public Map<String, List<Double>> series = new LinkedHashMap<>();
  public List<String> notes = new ArrayList<>();

  ScenarioResult scenario(String name) {
    return scenarios.stream().filter(s -> s.name.equals(name)).findFirst().orElse(null);
  }
}
