package dev.stint.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class OperatorRequestTimesTest {
  private static final String STINT = """
      # TYPE stint_kube_api_request_duration_seconds histogram
      stint_kube_api_request_duration_seconds_bucket{resource="pods",verb="create",le="0.1"} 3
      stint_kube_api_request_duration_seconds_count{resource="pods",verb="create"} 4
      stint_kube_api_request_duration_seconds_sum{resource="pods",verb="create"} 0.8
      stint_kube_api_request_duration_seconds_count{resource="pytorchjobs/status",verb="patch"} 2
      stint_kube_api_request_duration_seconds_sum{resource="pytorchjobs/status",verb="patch"} 0.5
      """;
  private static final String CLIENT_GO = """
      rest_client_request_duration_seconds_sum{host="127.0.0.1:6443",verb="POST"} 1.5
      rest_client_request_duration_seconds_count{host="127.0.0.1:6443",verb="POST"} 10
      """;

  @Test
  void readsStintsSecondsAndCountsByVerbAndResource() {
    RequestTotals t = OperatorRequestTimes.parse(STINT);
    assertThat(t.seconds()).containsOnly(Map.entry("create pods", 0.8), Map.entry("patch pytorchjobs/status", 0.5));
    assertThat(t.counts()).containsOnly(Map.entry("create pods", 4.0), Map.entry("patch pytorchjobs/status", 2.0));
  }

  @Test
  void readsClientGosByVerbAndTakesTheDifferenceOfTwoReadings() {
    RequestTotals before = OperatorRequestTimes.parse(CLIENT_GO);
    RequestTotals after = OperatorRequestTimes.parse(CLIENT_GO.replace("} 1.5", "} 2.5").replace("} 10", "} 14"));
    RequestTotals d = after.since(before);
    assertThat(d.seconds()).containsOnly(Map.entry("POST", 1.0));
    assertThat(d.counts()).containsOnly(Map.entry("POST", 4.0));
  }
}
