package dev.stint.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SoakReportTest {
  @Test
  void readsEveryFindingOfATallyWithItsContinuationLines() {
    String tally = """
        findings (2):
        - pt-3 did not converge: expected running
          observed suspended
        - orphan pod x
        """;
    assertThat(SoakReport.findings(tally)).containsExactly(
        "pt-3 did not converge: expected running observed suspended", "orphan pod x");
    assertThat(SoakReport.findings("findings: none\n")).isEmpty();
  }

  @Test
  void slopeIsPerProcessLifetimeNotAcrossRestarts(@TempDir Path dir) throws Exception {
    // two lifetimes, each flat at its own level (the second higher): no growth within either
    StringBuilder csv = new StringBuilder("time,pid,start,rss_kb,threads\n");
    for (int t = 0; t < 1200; t += 30) {
      csv.append(t).append(",1,0,100000,40\n");
    }
    for (int t = 1200; t < 2400; t += 30) {
      csv.append(t).append(",2,1200,200000,").append(40 + (t - 1200) / 30).append('\n');
    }
    Files.writeString(dir.resolve("samples.csv"), csv);
    Files.writeString(dir.resolve("soak.env"), "started=0\nended=2400\nseed=7\n");
    Files.writeString(dir.resolve("runs.tsv"), "run\tseed\tstart\tend\tmvn_rc\n1\t42\t0\t2400\t0\n");
    Files.createDirectories(dir.resolve("runs/1"));
    Files.writeString(dir.resolve("runs/1/chaos-tally.txt"), """

        ===== ChaosIT tally =====
        seed 42 (replay: -Dstint.chaos.seed=42), rounds 10, total 2400 s
        convergence after each round's timeline ms: [888, 6292, 100]
        faults injected: {KILL_OPERATOR=2, DELETE_POD=1} (3 in all; status clobbers refused by a conflict and retried: 0)
        findings (1):
        - pt-1 lost
        """);
    Files.writeString(dir.resolve("runs/1/mvn.log"), """
        [ERROR] Tests run: 1, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 153.4 s <<< FAILURE! -- in dev.stint.e2e.ChaosIT
        [ERROR] dev.stint.e2e.ChaosIT.jobsConvergeThroughSeededFaults -- Time elapsed: 148.9 s <<< ERROR!
        org.awaitility.core.ConditionTimeoutException: Condition was not fulfilled within 1 minutes  30 seconds.
        \tat org.awaitility.core.ConditionAwaiter.await(ConditionAwaiter.java:167)
        \tat dev.stint.e2e.ChaosLeaders.pauseLeader(ChaosLeaders.java:59)
        """);
    SoakReport.write(dir);
    String md = Files.readString(dir.resolve("soak.md"));
    assertThat(md).contains("1 ChaosIT runs, 3 rounds, 3 faults {DELETE_POD=1, KILL_OPERATOR=2}, 2 findings")
        .contains("run 1, seed 42").contains("pt-1 lost")
        .contains("ChaosIT stopped with an error after 3 rounds (so the tally lists no finding for it): "
            + "org.awaitility.core.ConditionTimeoutException: Condition was not fulfilled within 1 minutes  30 seconds."
            + " at dev.stint.e2e.ChaosLeaders.pauseLeader(ChaosLeaders.java:59)");
    String rss = md.lines().filter(l -> l.startsWith("| RSS")).findFirst().orElseThrow();
    assertThat(rss).contains("+0.0%").doesNotContain("**!**");
    String threads = md.lines().filter(l -> l.startsWith("| threads")).findFirst().orElseThrow();
    assertThat(threads).contains("**!**"); // one thread more every 30 s in the second lifetime
    // the window (the last half: 1200 s) holds the second lifetime alone: its own first and last samples
    String one = md.substring(md.indexOf("## One process through the window"));
    assertThat(one).contains("pid 2, 38 samples from 60 to 1170 s of its age, covering 1110 s of the window's 1200 s");
    assertThat(one.lines().filter(l -> l.startsWith("| RSS")).findFirst().orElseThrow())
        .isEqualTo("| RSS (MiB) | 195 | 195 | 195 | 195 | +0.0% | +0.0% |");
    assertThat(one.lines().filter(l -> l.startsWith("| threads")).findFirst().orElseThrow())
        .startsWith("| threads (OS) | 42 | 79 | 42 | 79 | +88.1% **!** |");
    assertThat(dir.resolve("rss.png")).exists();
    List<SoakReport.Sample> samples = SoakFiles.samples(dir.resolve("samples.csv"));
    assertThat(samples).hasSize(80);
    assertThat(samples.get(0).values()).isEqualTo(Map.of("rss_kb", 100000.0, "threads", 40.0));
  }

  @Test
  void theProcessThroughTheWindowIsTheOneCoveringMostOfIt() {
    List<SoakReport.Sample> early = List.of(sample(1, 0, 100), sample(1, 0, 3000));
    List<SoakReport.Sample> late = List.of(sample(2, 2000, 2030), sample(2, 2000, 2100), sample(2, 2000, 2400),
        sample(2, 2000, 2700));
    List<SoakReport.Sample> brief = List.of(sample(3, 3500, 3570), sample(3, 3500, 3640));
    // from 2000: the first covers 3000 alone (one sample, no span), the second 2100..2700 (its sample at 30 s of
    // age is warm-up), the third 70 s
    assertThat(LongestLifetime.in(List.of(early, late, brief), 2000)).hasValueSatisfying(l -> {
      assertThat(l).extracting(SoakReport.Sample::pid).containsOnly(2L);
      assertThat(l).extracting(SoakReport.Sample::time).containsExactly(2100L, 2400L, 2700L);
    });
    // from 0 the first lifetime covers 3000 s
    assertThat(LongestLifetime.in(List.of(early, late, brief), 0)).hasValueSatisfying(
        l -> assertThat(l).extracting(SoakReport.Sample::pid).containsOnly(1L));
    assertThat(LongestLifetime.in(List.of(brief), 4000)).isEmpty();
  }

  private static SoakReport.Sample sample(long pid, long start, long time) {
    return new SoakReport.Sample(time, pid, start, Map.of("rss_kb", 200_000.0));
  }
}
