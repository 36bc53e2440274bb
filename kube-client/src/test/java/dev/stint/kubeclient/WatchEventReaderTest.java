package dev.stint.kubeclient;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WatchEventReaderTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final KubernetesSerialization fabric8 = new KubernetesSerialization();
  private final KubernetesSerialization ours = ClientSerialization.create();

  @ParameterizedTest
  @CsvSource({
      // event type, recorded object
      "ADDED,    pod.json",
      "MODIFIED, pod.json",
      "DELETED,  pod.json",
      "BOOKMARK, pod.json",
      "ADDED,    service.json",
      "MODIFIED, service.json",
  })
  void readsWhatFabric8ReadsLessWhatTheCacheDrops(String type, String object) throws IOException {
    String message = "{\"type\":\"" + type + "\",\"object\":" + WatchDecodeCost.wire(object) + "}";
    HasMetadata expected = (HasMetadata) fabric8.unmarshal(message, WatchEvent.class).getObject();
    assertThat(expected.getMetadata().getManagedFields()).as("the recording has them").isNotEmpty();

    WatchEvent read = ours.unmarshal(message, WatchEvent.class);

    assertThat(read.getType()).isEqualTo(type);
    HasMetadata readObject = (HasMetadata) read.getObject();
    assertThat(readObject).isExactlyInstanceOf(object.equals("pod.json") ? Pod.class : Service.class);
    assertThat(readObject.getMetadata().getManagedFields()).as("never read").isEmpty();
    if (expected instanceof Pod pod) {
      assertThat(pod.getSpec().getVolumes()).as("the recording has them").isNotEmpty();
      assertThat(((Pod) readObject).getSpec().getVolumes()).as("never read").isEmpty();
      assertThat(((Pod) readObject).getSpec().getContainers()).allSatisfy(c -> assertThat(c.getEnv()).isEmpty());
    }
    assertThat(cached(readObject)).as("what the informer's cache keeps").isEqualTo(cached(expected));
  }

  @Test
  void readsAnEventWithTextBeyondAsciiAsFabric8Does() throws IOException {
    // a label value cannot hold it, a message can: the kubelet's, or an annotation a user wrote
    String object = WatchDecodeCost.wire("pod.json").replace("\"generation\":1,",
        "\"generation\":1,\"annotations\":{\"note\":\"r\u00e9sum\u00e9 \u2713 \u8bad\u7ec3 \ud83d\ude80\"},");
    assertThat(object).as("the recording was changed").contains("\u2713");
    String message = "{\"type\":\"MODIFIED\",\"object\":" + object + "}";
    Pod expected = (Pod) fabric8.unmarshal(message, WatchEvent.class).getObject();

    Pod read = (Pod) ours.unmarshal(message, WatchEvent.class).getObject();

    assertThat(read.getMetadata().getAnnotations()).containsEntry("note", "r\u00e9sum\u00e9 \u2713 \u8bad\u7ec3 \ud83d\ude80");
    assertThat(read.getMetadata().getManagedFields()).as("cut out").isEmpty();
    assertThat(cached(read)).isEqualTo(cached(expected));
  }

  private static HasMetadata cached(HasMetadata object) {
    SlimItemStore<HasMetadata> store = new SlimItemStore<>();
    store.put("key", object);
    return store.get("key");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      // messages the reader leaves to fabric8, and why
      "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":410}}"
          + " | a status, not a pod",
      "{\"type\":\"ADDED\",\"object\":{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"c\"}}}"
          + " | a kind it does not read",
      "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"p\"},\"kind\":\"Pod\",\"apiVersion\":\"v1\"}}"
          + " | another writer's field order",
      "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"test.stint.dev/v1\",\"kind\":\"TestJob\",\"metadata\":{}}}"
          + " | a custom kind nobody registered",
      "{\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p\"}},\"type\":\"ADDED\"}"
          + " | the object first",
      "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":7 | cut short",
  })
  void leavesOtherMessagesToFabric8(String message, String why) {
    assertThat(new WatchEventReader(JSON.getFactory()).read(message)).as(why).isEmpty();
  }

  @ParameterizedTest(name = "{2}")
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      // message | what is left once the managed fields are cut out ("-": nothing is cut) | why
      "{\"metadata\":{\"name\":\"p\",\"managedFields\":[{\"manager\":\"m\"}],\"uid\":\"u\"}}"
          + " | {\"metadata\":{\"name\":\"p\",\"uid\":\"u\"}} | between two fields",
      "{\"metadata\":{\"managedFields\":[{\"a\":1},{\"b\":[2]}],\"uid\":\"u\"}} | {\"metadata\":{\"uid\":\"u\"}}"
          + " | the first field",
      "{\"metadata\":{\"managedFields\":[]},\"spec\":{}} | {\"metadata\":{},\"spec\":{}} | the only field",
      "{\"metadata\":{\"name\":\"p\",\"managedFields\":[{\"f\":{\"k:{\\\"ip\\\":\\\"]}\\\"}\":{}}}]}}"
          + " | {\"metadata\":{\"name\":\"p\"}} | brackets and escaped quotes inside its strings",
      "{\"metadata\":{\"annotations\":{\"a\":\"\\\"managedFields\\\":[\"},\"name\":\"p\"}} | - "
          + "| the name inside a string value",
      "{\"metadata\":{\"managedFields\":[{\"manager\":\"m\"} | - | cut short",
      "{\"metadata\":{\"name\":\"p\"}} | - | none",
  })
  void theManagedFieldsAreCutOutAsText(String message, String left, String why) {
    int[] cut = WatchEventReader.managedFields(message);
    if (left.equals("-")) {
      assertThat(cut).as(why).isNull();
    } else {
      assertThat(message.substring(0, cut[0]) + message.substring(cut[1])).as(why).isEqualTo(left);
    }
  }

  @ParameterizedTest
  @CsvSource({"ADDED", "MODIFIED", "DELETED"})
  void readsARegisteredJobWholeButForItsManagedFields(String type) throws IOException {
    fabric8.registerKubernetesResource(TestJob.class);
    ours.registerKubernetesResource(TestJob.class);
    String message = WatchDecodeCost.jobEvent(type); // as the API server writes a custom resource: apiVersion first
    TestJob expected = (TestJob) fabric8.unmarshal(message, WatchEvent.class).getObject();
    assertThat(expected.getMetadata().getManagedFields()).as("the recording has them").isNotEmpty();

    WatchEvent read = ours.unmarshal(message, WatchEvent.class);

    assertThat(read.getType()).isEqualTo(type);
    assertThat(read.getObject()).isExactlyInstanceOf(TestJob.class);
    TestJob job = (TestJob) read.getObject();
    assertThat(job.getMetadata().getManagedFields()).as("never read").isEmpty();
    PodSpec template = job.getSpec().getTestReplicaSpecs().get("Worker").getTemplate().getSpec();
    assertThat(template.getVolumes()).as("a job's templates are kept whole").hasSize(1);
    assertThat(template.getContainers().get(0).getEnv()).extracting(EnvVar::getName).containsExactly("EPOCHS", "POD");
    assertThat(template.getContainers().get(0).getCommand()).isNotEmpty();
    expected.getMetadata().setManagedFields(null);
    job.getMetadata().setManagedFields(null);
    assertThat(fabric8.asJson(job)).isEqualTo(fabric8.asJson(expected));
  }

  /**
   * A job written under newer CRDs (a rollback: a field of a later Stint in its spec and status) is read with that
   * field skipped, by a watch and by a list alike; Jackson's default failure made the older Stint serve none of the
   * kind's jobs.
   */
  @Test
  void readsAJobWithFieldsOfANewerStintSkippingThem() throws IOException {
    fabric8.registerKubernetesResource(TestJob.class);
    ours.registerKubernetesResource(TestJob.class);
    var object = (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(
        WatchDecodeCost.jobEvent("MODIFIED")).get("object");
    ((com.fasterxml.jackson.databind.node.ObjectNode) object.with("spec").with("runPolicy"))
        .put("suspend", true).put("serviceModeOfTomorrow", "PerRack");
    object.with("status").put("quickRestartsOfTomorrow", 3).put("restarts", 2);
    String message = "{\"type\":\"MODIFIED\",\"object\":" + object + "}";

    TestJob watched = (TestJob) ours.unmarshal(message, WatchEvent.class).getObject();
    TestJob listed = ours.unmarshal(object.toString(), TestJob.class);

    for (TestJob job : java.util.List.of(watched, listed)) {
      assertThat(job.getSpec().getRunPolicy().suspended()).as("the fields it knows, read").isTrue();
      assertThat(job.getStatus().getRestarts()).isEqualTo(2);
    }
  }

  @Test
  void readsAPodWhicheverOfKindAndApiVersionComesFirst() throws IOException {
    String message = "{\"type\":\"ADDED\",\"object\":" + JSON.readTree(recording("pod.json")) + "}";
    assertThat(message).contains("\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",");

    assertThat(new WatchEventReader(JSON.getFactory()).read(message))
        .hasValueSatisfying(event -> assertThat(event.getObject()).isExactlyInstanceOf(Pod.class));
  }

  @Test
  void aClassThatDoesNotNameItsGroupIsLeftToFabric8() {
    WatchEventReader reader = new WatchEventReader(JSON.getFactory());
    reader.register(Ungrouped.class);

    assertThat(reader.read("{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Ungrouped\","
        + "\"metadata\":{\"name\":\"u\"}}}")).isEmpty();
  }

  @Test
  void aRegisteredClassNeverTakesOverPods() throws IOException {
    WatchEventReader reader = new WatchEventReader(JSON.getFactory());
    reader.register(NotAPod.class);

    assertThat(reader.read(WatchDecodeCost.podEvent("ADDED")))
        .hasValueSatisfying(event -> assertThat(event.getObject()).isExactlyInstanceOf(Pod.class));
  }

  @Version("v1")
  @Kind("Ungrouped")
  public static class Ungrouped extends GenericKubernetesResource {
  }

  @Group("")
  @Version("v1")
  @Kind("Pod")
  public static class NotAPod extends GenericKubernetesResource {
  }

  private static InputStream recording(String name) {
    return WatchEventReaderTest.class.getResourceAsStream("/cached/" + name);
  }

  @Test
  void aMessageLeftToFabric8IsStillRead() {
    String message = "{\"type\":\"ADDED\",\"object\":{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\","
        + "\"metadata\":{\"name\":\"c\",\"managedFields\":[{\"manager\":\"kubectl\"}]},\"data\":{\"k\":\"v\"}}}";
    WatchEvent read = ours.unmarshal(message, WatchEvent.class);
    assertThat(read.getObject()).isEqualTo(fabric8.unmarshal(message, WatchEvent.class).getObject());
  }

  @Test
  void readingAPodsEventAllocatesLessThanHalfWhatFabric8sDoes() throws IOException {
    String message = WatchDecodeCost.podEvent("MODIFIED");
    KubernetesSerialization operator = ClientSerialization.create();
    WatchDecodeCost.measure(fabric8, message, 200); // both warmed up alike
    WatchDecodeCost.measure(operator, message, 200);

    double theirs = WatchDecodeCost.measure(fabric8, message, 200).allocatedKib();
    double ours = WatchDecodeCost.measure(operator, message, 200).allocatedKib();

    assertThat(ours).as("KiB per event: ours %.0f, fabric8's %.0f", ours, theirs).isLessThan(theirs / 2);
  }
}
