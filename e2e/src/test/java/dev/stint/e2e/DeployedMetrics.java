package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.testing.PrometheusText;
import dev.stint.core.testing.PrometheusText.Sample;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The deployed operator's {@code GET /metrics} after every kind's life, read as Prometheus reads it: what an
 * operator team's dashboards and alerts would show.
 */
final class DeployedMetrics {
  private DeployedMetrics() { }

  /** A port free at the time of asking, for the operator's metrics endpoint. */
  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static PrometheusText scrape(int port) throws IOException, InterruptedException {
    HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + port + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return PrometheusText.parse(response.body());
  }

  /**
   * Each kind was reconciled, suspended and succeeded; some job failed (the lives include refused children); the
   * process leads; its client's creates are counted; and every histogram's buckets are in numeric order.
   */
  static void assertShowLives(PrometheusText scrape, List<String> kinds) {
    assertThat(scrape.value("stint_leader")).as("stint_leader").isEqualTo(1);
    for (String kind : kinds) {
      assertThat(scrape.value("operator_sdk_reconciliations_started_total", "kind", kind)).as("reconciles of %s", kind)
          .isPositive();
      assertThat(scrape.value("stint_jobs_succeeded_total", "kind", kind)).as("successes of %s", kind).isPositive();
      assertThat(scrape.value("stint_suspend_to_inactive_seconds_count", "kind", kind)).as("suspensions of %s", kind)
          .isPositive();
      assertThat(scrape.samples("stint_jobs").stream().filter(s -> kind.equals(s.labels().get("kind")))
          .map(s -> s.labels().get("state"))).as("the states of %s's jobs", kind)
          .containsExactlyInAnyOrder("created", "running", "restarting", "suspended", "queued", "succeeded", "failed");
    }
    assertThat(scrape.value("stint_jobs_failed_create_total")).as("jobs failed on a refused child").isPositive();
    assertThat(scrape.value("stint_kube_api_requests_total", "verb", "create", "resource", "pods", "code", "201"))
        .as("pods created").isPositive();
    assertThat(scrape.samples("operator_sdk_controllers_execution_reconcile_seconds_bucket")).as("reconcile durations")
        .isNotEmpty();
    assertBucketsInOrder(scrape);
  }

  /** Every histogram series: {@code le} ascending numerically up to {@code +Inf}, counts never falling. */
  private static void assertBucketsInOrder(PrometheusText scrape) {
    Map<String, List<Sample>> bySeries = scrape.all().stream().filter(s -> s.name().endsWith("_bucket"))
        .collect(Collectors.groupingBy(DeployedMetrics::seriesWithoutLe, java.util.LinkedHashMap::new,
            Collectors.toList()));
    assertThat(bySeries).isNotEmpty();
    bySeries.forEach((series, buckets) -> {
      double previousBound = Double.NEGATIVE_INFINITY;
      double previousCount = 0;
      for (Sample bucket : buckets) {
        String le = bucket.labels().get("le");
        double bound = "+Inf".equals(le) ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
        assertThat(bound).as("%s: le=%s after %s", series, le, previousBound).isGreaterThan(previousBound);
        assertThat(bucket.value()).as("%s: count at le=%s", series, le).isGreaterThanOrEqualTo(previousCount);
        previousBound = bound;
        previousCount = bucket.value();
      }
      assertThat(previousBound).as("%s ends with +Inf", series).isEqualTo(Double.POSITIVE_INFINITY);
    });
  }

  private static String seriesWithoutLe(Sample sample) {
    Map<String, String> labels = new java.util.TreeMap<>(sample.labels());
    labels.remove("le");
    return sample.name() + labels;
  }
}
