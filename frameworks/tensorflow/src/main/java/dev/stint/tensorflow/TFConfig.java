package dev.stint.tensorflow;

import dev.stint.spi.ReplicaId;
import dev.stint.spi.api.ReplicaSpec;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The {@code TF_CONFIG} environment variable of one replica, byte for byte as the Kubeflow training operator v1.9
 * writes it with Go's {@code encoding/json}: compact, {@code cluster} keys sorted, then {@code task}, then
 * {@code "environment":"cloud"}. Every replica's address is its headless service,
 * {@code <job>-<type>-<index>.<namespace>.svc[.<cluster domain>]:<port>}.
 *
 * <p>With {@code enableDynamicWorker} the sparse form is written instead, without {@code environment}: a Worker sees
 * every parameter server and only itself ({@code "worker":{"<index>":"<address>"}}), a parameter server sees only
 * itself and no Worker, any other replica sees neither.
 */
final class TFConfig {

  /** The port of every replica whose {@code tensorflow} container declares no {@code tfjob-port}. */
  static final int DEFAULT_PORT = 2222;
  /** The default container, the only one that gets {@code TF_CONFIG}. */
  static final String CONTAINER = "tensorflow";
  /** The name of the framework port. */
  static final String PORT_NAME = "tfjob-port";
  /** The environment variable. */
  static final String ENV_NAME = "TF_CONFIG";

  private static final String PS = TFJobSpec.PS.toLowerCase(Locale.ROOT);
  private static final String WORKER = TFJobSpec.WORKER.toLowerCase(Locale.ROOT);

  private TFConfig() { }

  /**
   * Whether the job runs more than one process. Only then does a replica get {@code TF_CONFIG}: a single process
   * trains locally. Replicas left unset count as 1, as upstream defaults them.
   */
  static boolean isDistributed(TFJobSpec spec) {
    Map<String, ReplicaSpec> specs = spec == null ? null : spec.getTfReplicaSpecs();
    if (specs == null) return false;
    int total = 0;
    for (String type : TFJobSpec.REPLICA_TYPES) {
      ReplicaSpec replicaSpec = specs.get(type);
      if (replicaSpec != null) total += replicaSpec.replicasOrDefault();
    }
    return total != 1;
  }

  /**
   * The {@code TF_CONFIG} value of a replica, or empty when the job is not distributed.
   *
   * @param clusterDomain appended after {@code .svc} in every address when not empty (upstream's
   *     {@code CUSTOM_CLUSTER_DOMAIN})
   */
  static Optional<String> of(TFJob job, ReplicaId replica, String clusterDomain) {
    if (!isDistributed(job.getSpec())) return Optional.empty();
    Cluster cluster = clusterOf(job, clusterDomain);
    String task = "{\"type\":" + quote(replica.typeLabel()) + ",\"index\":" + replica.index() + "}";
    if (job.getSpec().dynamicWorkers()) {
      return Optional.of("{\"cluster\":" + sparseCluster(cluster.addresses(), replica) + ",\"task\":" + task + "}");
    }
    return Optional.of("{\"cluster\":" + cluster.json() + ",\"task\":" + task + ",\"environment\":\"cloud\"}");
  }

  /** A job's cluster, its addresses and their JSON, for one spec object (the operator's cached job, read-only). */
  private record Cluster(TFJobSpec spec, String shape, String name, String namespace, String domain,
                         SortedMap<String, List<String>> addresses, String json) {
    boolean isFor(TFJob job, String clusterDomain) {
      return spec == job.getSpec() && name.equals(job.getMetadata().getName())
          && Objects.equals(namespace, job.getMetadata().getNamespace()) && Objects.equals(domain, clusterDomain)
          && shape.equals(TFConfig.shape(job.getSpec()));
    }
  }

  /** What the addresses depend on besides names: each type's replicas and port (cheap: one entry per type). */
  private static String shape(TFJobSpec spec) {
    StringBuilder out = new StringBuilder();
    spec.getTfReplicaSpecs().forEach((type, r) -> out.append(type).append('=').append(r.replicasOrDefault())
        .append(':').append(port(r)).append(';'));
    return out.toString();
  }

  /**
   * The last cluster built. Every pod of a job lists every replica, so building it per pod made a job's pods cost
   * n squared; the pods of one pass share one spec object, so one remembered cluster makes it n. A pure memo: it is
   * recomputed whenever the spec object, name, namespace or domain differ.
   */
  private static final AtomicReference<Cluster> LAST = new AtomicReference<>();

  private static Cluster clusterOf(TFJob job, String clusterDomain) {
    Cluster last = LAST.get();
    if (last != null && last.isFor(job, clusterDomain)) {
      return last;
    }
    SortedMap<String, List<String>> addresses = cluster(job, clusterDomain);
    Cluster built = new Cluster(job.getSpec(), shape(job.getSpec()), job.getMetadata().getName(), job.getMetadata().getNamespace(),
        clusterDomain, addresses, clusterJson(addresses));
    LAST.set(built);
    return built;
  }

  /** Addresses of every replica, by replica type in lower case (sorted, as Go sorts map keys). */
  static SortedMap<String, List<String>> cluster(TFJob job, String clusterDomain) {
    String jobName = job.getMetadata().getName();
    String suffix = "." + job.getMetadata().getNamespace() + ".svc"
        + (clusterDomain == null || clusterDomain.isEmpty() ? "" : "." + clusterDomain);
    SortedMap<String, List<String>> cluster = new TreeMap<>();
    job.getSpec().getTfReplicaSpecs().forEach((type, spec) -> {
      int port = port(spec);
      List<String> addresses = new ArrayList<>();
      for (int i = 0; i < spec.replicasOrDefault(); i++) {
        addresses.add(new ReplicaId(type, i).podName(jobName) + suffix + ":" + port);
      }
      cluster.put(type.toLowerCase(Locale.ROOT), addresses);
    });
    return cluster;
  }

  /** The {@code tfjob-port} of the type's {@code tensorflow} container, else {@value #DEFAULT_PORT}. */
  static int port(ReplicaSpec spec) {
    List<Container> containers = spec.getTemplate() == null || spec.getTemplate().getSpec() == null ? null
        : spec.getTemplate().getSpec().getContainers();
    if (containers == null) return DEFAULT_PORT;
    return containers.stream()
        .filter(c -> CONTAINER.equals(c.getName()) && c.getPorts() != null)
        .flatMap(c -> c.getPorts().stream())
        .filter(p -> PORT_NAME.equals(p.getName()) && p.getContainerPort() != null)
        .map(ContainerPort::getContainerPort)
        .findFirst()
        .orElse(DEFAULT_PORT);
  }

  private static String clusterJson(SortedMap<String, List<String>> cluster) {
    List<String> entries = new ArrayList<>();
    cluster.forEach((type, addresses) -> entries.add(quote(type) + ":" + list(addresses)));
    return "{" + String.join(",", entries) + "}";
  }

  /**
   * Upstream's sparse cluster: {@code {"worker":{...},"ps":[...]}}. A Worker of a job without parameter servers gets
   * {@code "ps":[]} where upstream writes {@code "ps":null}, which TensorFlow's {@code ClusterSpec} refuses.
   */
  private static String sparseCluster(SortedMap<String, List<String>> cluster, ReplicaId replica) {
    String type = replica.typeLabel();
    String worker = "{}";
    List<String> ps = List.of();
    if (PS.equals(type)) {
      ps = List.of(cluster.get(PS).get(replica.index()));
    } else if (WORKER.equals(type)) {
      worker = "{" + quote(String.valueOf(replica.index())) + ":" + quote(cluster.get(WORKER).get(replica.index()))
          + "}";
      ps = cluster.getOrDefault(PS, List.of());
    }
    return "{\"worker\":" + worker + ",\"ps\":" + list(ps) + "}";
  }

  private static String list(List<String> values) {
    return "[" + String.join(",", values.stream().map(TFConfig::quote).toList()) + "]";
  }

  /** A JSON string as Go's {@code encoding/json} writes it, HTML-safe escapes included. */
  static String quote(String value) {
    StringBuilder out = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
