package dev.stint.kubeclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.DefaultKubernetesResourceList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnreadableObjectsTest {
  private final KubernetesSerialization ours = ClientSerialization.create();

  {
    ours.registerKubernetesResource(TestJob.class);
  }

  private static String job(String name, String backoffLimit) {
    return "{\"apiVersion\":\"test.stint.dev/v1\",\"kind\":\"TestJob\",\"metadata\":{\"name\":\"" + name + "\","
        + "\"namespace\":\"ns\",\"uid\":\"uid-" + name + "\",\"resourceVersion\":\"7\",\"labels\":{\"team\":\"a\"}},"
        + "\"spec\":{\"runPolicy\":{\"backoffLimit\":" + backoffLimit + "},\"testReplicaSpecs\":{\"Worker\":"
        + "{\"replicas\":2,\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\","
        + "\"ports\":[{\"containerPort\":80}]}]}}}}},\"status\":{\"conditions\":[]}}";
  }

  private static String list(String... items) {
    return "{\"apiVersion\":\"test.stint.dev/v1\",\"kind\":\"TestJobList\",\"metadata\":{\"resourceVersion\":\"9\"},"
        + "\"items\":[" + String.join(",", items) + "]}";
  }

  private List<TestJob> readList(String json) {
    DefaultKubernetesResourceList<TestJob> read = ours.unmarshal(
        new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)),
        new TypeReference<DefaultKubernetesResourceList<TestJob>>() { });
    return read.getItems();
  }

  @Test
  void aListWithOneUnreadableJobIsReadWholeAndThatJobIsMarkedNamingTheField() {
    List<TestJob> jobs = readList(list(job("good", "3"), job("bad", "3000000000"), job("also-good", "1")));

    assertThat(jobs).extracting(j -> j.getMetadata().getName()).containsExactly("good", "bad", "also-good");
    assertThat(jobs.get(0).getSpec().getRunPolicy().getBackoffLimit()).isEqualTo(3);
    assertThat(UnreadableObjects.reasonOf(jobs.get(0))).isEmpty();
    assertThat(jobs.get(2).getSpec().getTestReplicaSpecs()).containsKey("Worker");

    TestJob bad = jobs.get(1);
    assertThat(UnreadableObjects.reasonOf(bad)).hasValueSatisfying(reason -> assertThat(reason)
        .startsWith("spec.runPolicy.backoffLimit: ").contains("3000000000", "out of range"));
    assertThat(bad.getSpec()).as("nothing of a spec that could not be read").isNull();
    assertThat(bad.getMetadata().getUid()).isEqualTo("uid-bad");
    assertThat(bad.getMetadata().getResourceVersion()).isEqualTo("7");
    assertThat(bad.getMetadata().getLabels()).containsEntry("team", "a");
  }

  @Test
  void theReasonNamesAFieldInsideAListOfThePodTemplate() {
    String job = job("port", "1").replace("\"containerPort\":80", "\"containerPort\":3000000000");

    TestJob read = readList(list(job)).get(0);

    assertThat(UnreadableObjects.reasonOf(read)).hasValueSatisfying(reason -> assertThat(reason).startsWith(
        "spec.testReplicaSpecs.Worker.template.spec.containers[0].ports[0].containerPort: "));
  }

  @Test
  void aWatchEventOfAnUnreadableJobIsReadMarked() {
    String message = "{\"type\":\"MODIFIED\",\"object\":" + job("bad", "3000000000") + "}";

    TestJob read = (TestJob) ours.unmarshal(message, WatchEvent.class).getObject();

    assertThat(read.getMetadata().getName()).isEqualTo("bad");
    assertThat(UnreadableObjects.reasonOf(read)).isPresent();
  }

  @Test
  void withoutItsMetadataAJobStaysUnreadable() {
    String noMetadata = "{\"apiVersion\":\"test.stint.dev/v1\",\"kind\":\"TestJob\","
        + "\"spec\":{\"runPolicy\":{\"backoffLimit\":3000000000}}}";

    assertThatThrownBy(() -> readList(list(noMetadata))).hasStackTraceContaining("backoffLimit");
  }

  @Test
  void builtInKindsAreReadAsBefore() {
    String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},"
        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"ports\":[{\"containerPort\":3000000000}]}]}}";

    assertThatThrownBy(() -> ours.unmarshal(pod, Pod.class)).hasStackTraceContaining("containerPort");
  }
}
