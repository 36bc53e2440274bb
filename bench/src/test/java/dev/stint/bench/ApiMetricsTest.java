package dev.stint.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ApiMetricsTest {
  private static final String BEFORE = """
      # HELP apiserver_request_total [STABLE] Counter of apiserver requests
      # TYPE apiserver_request_total counter
      apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="",verb="POST",version="v1"} 10
      apiserver_request_total{code="409",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="",verb="POST",version="v1"} 2
      apiserver_request_total{code="200",component="apiserver",dry_run="",group="kubeflow.org",resource="pytorchjobs",scope="resource",subresource="status",verb="APPLY",version="v1"} 3
      apiserver_request_total{code="200",component="",dry_run="",group="",resource="",scope="",subresource="/metrics",verb="GET",version=""} 1
      apiserver_request_duration_seconds_bucket{verb="POST",le="0.1"} 99
      apiserver_request_duration_seconds_sum{component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="",verb="POST",version="v1"} 0.6
      apiserver_request_duration_seconds_sum{component="apiserver",dry_run="",group="kubeflow.org",resource="pytorchjobs",scope="resource",subresource="status",verb="APPLY",version="v1"} 0.3
      """;

  @Test
  void sumsOverCodesAndKeysByVerbResourceSubresourceAndGroup() {
    Map<String, Double> m = ApiMetrics.parse(BEFORE);
    assertThat(m).containsEntry("POST pods", 12.0)
        .containsEntry("APPLY pytorchjobs/status (kubeflow.org)", 3.0)
        .containsEntry("GET (non-resource)//metrics", 1.0)
        .hasSize(3);
  }

  @Test
  void theServersSecondsAreKeyedAsTheCountsAndGiveTheMeanTimePerRequest() {
    Map<String, Double> seconds = ApiMetrics.parse(BEFORE, ApiMetrics.SECONDS);
    assertThat(seconds).containsOnly(Map.entry("POST pods", 0.6), Map.entry("APPLY pytorchjobs/status (kubeflow.org)", 0.3));
    ScenarioResult s = new ScenarioResult();
    s.apiRequests = ApiMetrics.parse(BEFORE);
    s.apiSeconds = seconds;
    assertThat(ReportMarkdown.meanMillis(s, "POST pods")).isEqualTo(50.0);
    assertThat(ReportMarkdown.meanMillis(s, "APPLY pytorchjobs/status (kubeflow.org)")).isEqualTo(100.0);
    assertThat(ReportMarkdown.meanMillis(s, "GET (non-resource)//metrics")).isNaN();
  }

  @Test
  void diffKeepsOnlyGrowthLargestFirst() {
    Map<String, Double> before = ApiMetrics.parse(BEFORE);
    Map<String, Double> after = ApiMetrics.parse(BEFORE.replace("} 10", "} 50").replace("} 3", "} 4"));
    assertThat(ApiMetrics.diff(before, after)).containsExactly(
        Map.entry("POST pods", 40.0), Map.entry("APPLY pytorchjobs/status (kubeflow.org)", 1.0));
  }

  @Test
  void refusedRequestsAreKeyedWithTheirCodeAndTheEndedWatchesByResource() {
    String text = BEFORE + """
        apiserver_request_total{code="422",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="status",verb="PATCH",version="v1"} 7
        apiserver_request_total{code="404",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="",verb="DELETE",version="v1"} 4
        apiserver_terminated_watchers_total{group="",resource="pods"} 35
        apiserver_terminated_watchers_total{group="kubeflow.org",resource="pytorchjobs"} 2
        """;
    assertThat(ApiMetrics.refused(text)).containsOnly(Map.entry("POST pods 409", 2.0),
        Map.entry("PATCH pods/status 422", 7.0), Map.entry("DELETE pods 404", 4.0));
    assertThat(ApiMetrics.watchersEnded(text)).containsOnly(Map.entry("pods", 35.0),
        Map.entry("pytorchjobs (kubeflow.org)", 2.0));
    ApiServerMetrics before = new ApiServerMetrics(RequestTotals.NONE, ApiMetrics.refused(BEFORE),
        ApiMetrics.watchersEnded(BEFORE));
    ApiServerMetrics after = new ApiServerMetrics(RequestTotals.NONE, ApiMetrics.refused(text),
        ApiMetrics.watchersEnded(text));
    assertThat(after.since(before).refused()).containsOnly(Map.entry("PATCH pods/status 422", 7.0),
        Map.entry("DELETE pods 404", 4.0));
    assertThat(after.since(before).watchersEnded()).containsEntry("pods", 35.0);
  }
}
