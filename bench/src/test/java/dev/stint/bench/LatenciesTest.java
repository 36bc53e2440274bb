package dev.stint.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LatenciesTest {
  @Test
  void nearestRankPercentilesAndMissingJobs() {
    List<Double> v = new ArrayList<>();
    for (int i = 100; i >= 1; i--) {
      v.add((double) i);
    }
    Latencies l = Latencies.of(v, 103);
    assertThat(l.count()).isEqualTo(100);
    assertThat(l.missing()).isEqualTo(3);
    assertThat(l.p50()).isEqualTo(50.0);
    assertThat(l.p95()).isEqualTo(95.0);
    assertThat(l.p99()).isEqualTo(99.0);
    assertThat(l.max()).isEqualTo(100.0);
    assertThat(l.mean()).isEqualTo(50.5);
  }

  @Test
  void smallSamplesTakeTheLargestForHighPercentiles() {
    Latencies l = Latencies.of(List.of(1.0, 2.0, 3.0), 3);
    assertThat(l.p50()).isEqualTo(2.0);
    assertThat(l.p99()).isEqualTo(3.0);
  }

  @Test
  void nothingMeasuredIsNaNNotZero() {
    Latencies l = Latencies.of(List.of(), 5);
    assertThat(l.missing()).isEqualTo(5);
    assertThat(l.p99()).isNaN();
  }
}
