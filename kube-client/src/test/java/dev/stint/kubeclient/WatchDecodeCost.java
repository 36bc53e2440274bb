package dev.stint.kubeclient;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;

/**
 * What decoding one watch event of a recorded pod, and of a recorded job, costs: fabric8's serialization against the operator's
 * ({@link ClientSerialization}), in CPU and bytes allocated on this thread. {@code bench/decode.sh} runs it with the
 * operator's JVM flags; {@link WatchEventReaderTest} holds the allocation figure.
 */
public final class WatchDecodeCost {
  private static final com.sun.management.ThreadMXBean THREAD =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  /** CPU nanoseconds and bytes allocated per event, over {@code events} events. */
  record Cost(double cpuMicros, double allocatedKib) {
  }

  private WatchDecodeCost() {
  }

  public static void main(String[] args) throws IOException {
    int events = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    compare("a recorded pod", podEvent("MODIFIED"), events);
    compare("a recorded job (TestJob, registered)", jobEvent("MODIFIED"), events);
  }

  private static void compare(String what, String message, int events) {
    KubernetesSerialization fabric8 = new KubernetesSerialization();
    KubernetesSerialization operator = ClientSerialization.create();
    fabric8.registerKubernetesResource(TestJob.class);
    operator.registerKubernetesResource(TestJob.class);
    System.out.printf("one watch event of %s (%d bytes), %d events a round%n", what, message.length(), events);
    System.out.println("| round | fabric8 µs | fabric8 KiB | Stint µs | Stint KiB |");
    System.out.println("| --- | --- | --- | --- | --- |");
    for (int round = 1; round <= 5; round++) {
      Cost theirs = measure(fabric8, message, events);
      Cost ours = measure(operator, message, events);
      System.out.printf("| %d | %.0f | %.0f | %.0f | %.0f |%n", round, theirs.cpuMicros(), theirs.allocatedKib(),
          ours.cpuMicros(), ours.allocatedKib());
    }
  }

  static Cost measure(KubernetesSerialization serialization, String message, int events) {
    long cpu = THREAD.getCurrentThreadCpuTime();
    long bytes = THREAD.getCurrentThreadAllocatedBytes();
    int seen = 0;
    for (int i = 0; i < events; i++) {
      seen += serialization.unmarshal(message, WatchEvent.class).getObject() != null ? 1 : 0;
    }
    if (seen != events) {
      throw new IllegalStateException("an event without its object");
    }
    return new Cost((THREAD.getCurrentThreadCpuTime() - cpu) / 1e3 / events,
        (THREAD.getCurrentThreadAllocatedBytes() - bytes) / 1024.0 / events);
  }

  /** A watch event of the recorded pod as the API server writes it: compact, {@code kind} and {@code apiVersion} first. */
  static String podEvent(String type) throws IOException {
    return "{\"type\":\"" + type + "\",\"object\":" + wire("pod.json") + "}";
  }

  /** A watch event of the recorded job as the API server writes a custom resource: compact, fields in order. */
  static String jobEvent(String type) throws IOException {
    try (InputStream in = WatchDecodeCost.class.getResourceAsStream("/cached/testjob.json")) {
      return "{\"type\":\"" + type + "\",\"object\":" + new ObjectMapper().readTree(in) + "}";
    }
  }

  static String wire(String recording) throws IOException {
    ObjectMapper json = new ObjectMapper();
    try (InputStream in = WatchDecodeCost.class.getResourceAsStream("/cached/" + recording)) {
      ObjectNode recorded = (ObjectNode) json.readTree(in);
      ObjectNode wire = json.createObjectNode();
      wire.set("kind", recorded.get("kind"));
      wire.set("apiVersion", recorded.get("apiVersion"));
      recorded.fields().forEachRemaining(f -> wire.set(f.getKey(), f.getValue()));
      return json.writeValueAsString(wire);
    }
  }
}
