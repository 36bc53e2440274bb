package dev.stint.tensorflow;

import com.fasterxml.jackson.databind.util.RawValue;
import dev.stint.spi.FrameworkDefaults;
import dev.stint.spi.ReplicaHosts;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.api.ReplicaSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 * {@code <job>-<type>-<index>.<namespace>.svc[.<cluster domain>]:<port>}. Jackson writes it, with Go's escapes
 * ({@link GoJson}).
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
  /** The kind's defaults: container {@code tensorflow}, port {@code tfjob-port} 2222, restart policy Never. */
  static final FrameworkDefaults DEFAULTS = new FrameworkDefaults(CONTAINER, PORT_NAME, DEFAULT_PORT, "Never");

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
    Map<String, Object> task = new LinkedHashMap<>();
    task.put("type", replica.typeLabel());
    task.put("index", replica.index());
    Map<String, Object> config = new LinkedHashMap<>();
    if (job.getSpec().dynamicWorkers()) {
      config.put("cluster", sparseCluster(cluster.addresses(), replica));
      config.put("task", task);
    } else {
      // the cluster's JSON is written once per job and pass (see LAST), not once per pod
      config.put("cluster", new RawValue(cluster.json()));
      config.put("task", task);
      config.put("environment", "cloud");
    }
    return Optional.of(GoJson.write(config));
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
        addresses.add(ReplicaHosts.host(job, new ReplicaId(type, i).podName(jobName)) + suffix + ":" + port);
      }
      cluster.put(type.toLowerCase(Locale.ROOT), addresses);
    });
    return cluster;
  }

  /** The {@code tfjob-port} of the type's {@code tensorflow} container, else {@value #DEFAULT_PORT}. */
  static int port(ReplicaSpec spec) {
    return DEFAULTS.templatePort(spec);
  }

  private static String clusterJson(SortedMap<String, List<String>> cluster) {
    return GoJson.write(cluster);
  }

  /**
   * Upstream's sparse cluster: {@code {"worker":{...},"ps":[...]}}. A Worker of a job without parameter servers gets
   * {@code "ps":[]} where upstream writes {@code "ps":null}, which TensorFlow's {@code ClusterSpec} refuses.
   */
  private static Map<String, Object> sparseCluster(SortedMap<String, List<String>> cluster, ReplicaId replica) {
    String type = replica.typeLabel();
    Map<String, String> worker = Map.of();
    List<String> ps = List.of();
    if (PS.equals(type)) {
      ps = List.of(cluster.get(PS).get(replica.index()));
    } else if (WORKER.equals(type)) {
      worker = Map.of(String.valueOf(replica.index()), cluster.get(WORKER).get(replica.index()));
      ps = cluster.getOrDefault(PS, List.of());
    }
    Map<String, Object> sparse = new LinkedHashMap<>();
    sparse.put("worker", worker);
    sparse.put("ps", ps);
    return sparse;
  }

  /** A JSON string as Go's {@code encoding/json} writes it, HTML-safe escapes included. */
  static String quote(String value) {
    return GoJson.write(value);
  }
}
