package dev.stint.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.core.testing.RefusalStatus;
import dev.stint.core.testing.TestJobs;
import dev.stint.spi.api.JobCondition;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.StatusDetailsBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Children the API server refuses: for good (the job fails at once, saying why) or for a while (retried). */
@EnableKubernetesMockClient(crud = true)
class RefusalsOnMockServerTest extends MockServerEngineTest {

  @Test
  void aServiceRefusedAsInvalidEndsTheJobFailedWithTheApiServersWordsAndStopsItsPods() {
    String refusal = "Service \"bad-worker-0\" is invalid: metadata.name: Invalid value: \"bad-worker-0\": "
        + "must be no more than 63 characters";
    server.expect().post().withPath("/api/v1/namespaces/default/services")
        .andReturn(422, RefusalStatus.of(422, "Invalid", refusal)).always();
    create(TestJobs.job("bad").workers(1).build());

    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(status("bad").isTrue("Failed")).isTrue());
    JobCondition failed = status("bad").condition("Failed").orElseThrow(); // present: Failed is True
    assertThat(failed.getReason()).isEqualTo("TestJobFailedCreate");
    assertThat(failed.getMessage()).isEqualTo("TestJob bad failed: " + refusal);
    assertThat(status("bad").isTrue("Created")).isTrue();
    assertThat(status("bad").getCompletionTime()).isNotNull();
    // the pod created before its service was refused does not keep running
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(pods("bad")).isEmpty());
    assertThat(events("TestJobFailedCreate")).isEqualTo(1);
    assertThat(scrape().value("stint_jobs_failed_create_total", "kind", "TestJob")).isEqualTo(1);
  }

  @Test
  void aPodNameHeldByAnotherJobsPodEndsTheJobNamingThatOwner() {
    client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("clash-worker-0")
        .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("kubeflow.org/v1").withKind("TFJob")
            .withName("clash").withUid("uid-of-the-tfjob").withController(true).build())
        .endMetadata().build()).create();
    create(TestJobs.job("clash").workers(1).build());

    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(status("clash").isTrue("Failed")).isTrue());
    assertThat(status("clash").condition("Failed").orElseThrow().getMessage()).isEqualTo(
        "TestJob clash failed: Pod clash-worker-0 already exists and is not this job's: its controller is TFJob clash "
            + "(uid uid-of-the-tfjob); delete it or give the job another name");
    // the other job's pod is left alone
    assertThat(client.pods().inNamespace("default").withName("clash-worker-0").get()).isNotNull();
  }

  /**
   * A job deleted while its pass ran: the status write gets the API server's NotFound for the job itself. Nothing to
   * retry and nothing to warn of (a Warning "NotFound ... retrying" on every ordinary delete was the finding).
   */
  @Test
  void aNotFoundForTheJobItselfIsNeitherWarnedOfNorRetried() {
    server.expect().put().withPath("/apis/test.stint.dev/v1/namespaces/default/testjobs/gone/status")
        .andReturn(404, new StatusBuilder().withCode(404).withReason("NotFound")
            .withMessage("testjobs.test.stint.dev \"gone\" not found")
            .withDetails(new StatusDetailsBuilder().withName("gone").withGroup("test.stint.dev").withKind("testjobs")
                .build()).build()).once();
    create(TestJobs.job("gone").workers(1).build());

    // the refused pass made the pod; a later pass (its pod's events) writes the status
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(status("gone").isTrue("Created")).isTrue());
    assertThat(events("TestJobNotFound")).isZero();
    assertThat(scrape().value("stint_refused_retries_total", "kind", "TestJob")).isZero();
  }

  /**
   * A write that meets a newer object (its cache a moment behind, most often after this operator's own write): the
   * next pass reads it anew, without a Warning or a {@code ReplicaFailure} condition (a review saw an MPIJob warn of
   * its own hostfile ConfigMap's conflict).
   */
  @Test
  void aConflictThatPassesIsRetriedWithoutAWord() {
    server.expect().put().withPath("/apis/test.stint.dev/v1/namespaces/default/testjobs/raced/status")
        .andReturn(409, conflict("raced")).times(2);
    create(TestJobs.job("raced").workers(1).build());

    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(status("raced").isTrue("Created")).isTrue());
    assertThat(status("raced").condition("ReplicaFailure")).isEmpty();
    assertThat(events("TestJobConflict")).isZero();
    assertThat(scrape().value("stint_refused_retries_total", "kind", "TestJob")).isEqualTo(2);
  }

  @Test
  void aConflictThatLastsIsWarnedOfOnceAfterTheQuietRetries() {
    server.expect().put().withPath("/apis/test.stint.dev/v1/namespaces/default/testjobs/stuck/status")
        .andReturn(409, conflict("stuck")).always();
    create(TestJobs.job("stuck").workers(1).build());

    // quiet after 1, 2 and 4 s; the fourth conflict in a row (about 7 s in) is told
    await().atMost(Duration.ofSeconds(40)).untilAsserted(() -> assertThat(events("TestJobConflict")).isEqualTo(1));
    assertThat(scrape().value("stint_refused_retries_total", "kind", "TestJob")).isGreaterThanOrEqualTo(4);
  }

  private static io.fabric8.kubernetes.api.model.Status conflict(String name) {
    return RefusalStatus.of(409, "Conflict", "Operation cannot be fulfilled on testjobs.test.stint.dev \"" + name
        + "\": the object has been modified; please apply your changes to the latest version and try again");
  }

  @Test
  void exceededQuotaIsRetriedShownOnceAndClearedWhenItHeals() {
    String quota = "pods \"slow-worker-0\" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=10, "
        + "limited: pods=10";
    server.expect().post().withPath("/api/v1/namespaces/default/pods")
        .andReturn(403, RefusalStatus.of(403, "Forbidden", quota)).times(3);
    create(TestJobs.job("slow").workers(1).build());

    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
      JobCondition blocked = status("slow").condition("ReplicaFailure").orElseThrow();
      assertThat(blocked.getStatus()).isEqualTo("True");
      assertThat(blocked.getReason()).isEqualTo("TestJobQuotaExceeded");
      assertThat(blocked.getMessage()).endsWith(quota);
    });
    // after three refusals (1 s, 2 s, 4 s apart) the pod goes through and the condition goes
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      assertThat(pods("slow")).hasSize(1);
      assertThat(status("slow").condition("ReplicaFailure")).isEmpty();
    });
    assertThat(status("slow").isTrue("Failed")).isFalse();
    assertThat(events("TestJobQuotaExceeded")).as("one event per distinct cause, not one per retry").isEqualTo(1);
    assertThat(events("TestJobCreated")).isEqualTo(1);
    assertThat(scrape().value("stint_refused_retries_total", "kind", "TestJob")).isEqualTo(3);
  }
}
