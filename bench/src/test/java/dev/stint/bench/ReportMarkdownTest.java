package dev.stint.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReportMarkdownTest {
  @Test
  void theControlPlaneTableAddsTheWholeMachine() {
    ScenarioResult burst = new ScenarioResult();
    burst.name = "burst";
    burst.jobs = 500;
    burst.wallSeconds = 50;
    burst.loadAverageStart = new double[] {1, 1, 1};
    burst.loadAverageEnd = new double[] {2, 2, 2};
    burst.operatorCpuSeconds = 10.0;
    burst.operatorPeakRssMiB = 200.0;
    burst.componentCpuSeconds.put("kube-apiserver", 40.0);
    burst.componentCpuSeconds.put("kwok", 10.0);
    RunResult run = new RunResult();
    run.operator = "stint";
    run.n = 500;
    run.workersPerJob = 3;
    run.scenarios.add(burst);

    String md = new ReportMarkdown(List.of(run), "", List.of()).render();

    assertThat(md).contains("| scenario | kube-apiserver | kwok | all (s) | cores busy | ms per job |")
        // 10 + 40 + 10 s over 50 s of 500 jobs: 1.20 cores, 120 ms per job
        .contains("| burst | 40.0 | 10.0 | 60.0 | 1.20 | 120 |");
  }
}
