package dev.stint.e2e;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A data centre of kwok nodes for Kueue's Topology-Aware Scheduling: {@value #BLOCKS} blocks of {@value #RACKS}
 * racks of {@value #HOSTS} hosts, each host one CPU (so a rack holds three pods of one CPU), labelled with the levels
 * of the Topology {@value #TOPOLOGY} and tainted so that no other test's pod lands there; the ResourceFlavor
 * {@value #FLAVOR} names the Topology, selects these nodes and tolerates the taint. Closing it deletes them all.
 */
final class LocalTopology implements AutoCloseable {
  static final String BLOCK = "cloud.stint.dev/block";
  static final String RACK = "cloud.stint.dev/rack";
  static final String HOST = "kubernetes.io/hostname";
  static final String TOPOLOGY = "stint-racks";
  static final String FLAVOR = "tas";
  static final int BLOCKS = 2;
  static final int RACKS = 2;
  static final int HOSTS = 3;
  static final String NODE_LABEL = "stint.dev/tas";
  /**
   * The hosts' taint tolerated in a job's own templates too, not only through the flavor: Kueue v0.17.0's node
   * controller reads the tolerations of the Workload's podSets alone, so a host whose taint the flavor alone tolerates
   * is taken for failed whenever no pod of the job runs on it (right after a gang restart) and the job is evicted
   * (kubernetes-sigs/kueue issue 11152, fixed after v0.17.0 by PR 11185; docs/kueue.md says so).
   */
  static final String TOLERATION = "[{key: " + NODE_LABEL + ", operator: Exists, effect: NoSchedule}]";

  static final ResourceDefinitionContext TOPOLOGIES = new ResourceDefinitionContext.Builder()
      .withGroup(LocalKueue.GROUP).withVersion("v1beta2").withKind("Topology").withPlural("topologies")
      .withNamespaced(false).build();
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private final KubernetesClient client;
  private final Map<String, String> rackOfHost = new LinkedHashMap<>();

  private LocalTopology(KubernetesClient client) {
    this.client = client;
  }

  /** Creates the nodes, the Topology and the flavor. */
  static LocalTopology create(KubernetesClient client) {
    LocalTopology topology = new LocalTopology(client);
    for (int b = 1; b <= BLOCKS; b++) {
      for (int r = 1; r <= RACKS; r++) {
        for (int h = 1; h <= HOSTS; h++) {
          topology.addNode("b" + b, "b" + b + "-r" + r, "tas-b" + b + "-r" + r + "-h" + h);
        }
      }
    }
    client.genericKubernetesResources(TOPOLOGIES).resource(JSON.unmarshal("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: Topology
        metadata: {name: %s}
        spec:
          levels:
          - nodeLabel: %s
          - nodeLabel: %s
          - nodeLabel: %s
        """.formatted(TOPOLOGY, BLOCK, RACK, HOST), GenericKubernetesResource.class)).serverSideApply();
    client.genericKubernetesResources(LocalKueue.FLAVORS).resource(JSON.unmarshal("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ResourceFlavor
        metadata: {name: %s}
        spec:
          nodeLabels: {%s: "true"}
          topologyName: %s
          tolerations: %s
        """.formatted(FLAVOR, NODE_LABEL, TOPOLOGY, TOLERATION), GenericKubernetesResource.class))
        .serverSideApply();
    return topology;
  }

  private void addNode(String block, String rack, String host) {
    client.nodes().resource(JSON.unmarshal("""
        apiVersion: v1
        kind: Node
        metadata:
          name: %s
          annotations: {kwok.x-k8s.io/node: fake, node.alpha.kubernetes.io/ttl: "0"}
          labels: {%s: %s, %s: %s, %s: %s, %s: "true", kubernetes.io/os: linux, type: kwok-tas}
        spec:
          taints: [{key: %s, value: "true", effect: NoSchedule}]
        status:
          allocatable: {cpu: "1", memory: 8Gi, pods: "110"}
          capacity: {cpu: "1", memory: 8Gi, pods: "110"}
        """.formatted(host, HOST, host, RACK, rack, BLOCK, block, NODE_LABEL, NODE_LABEL), Node.class))
        .serverSideApply();
    rackOfHost.put(host, rack);
  }

  /** Deletes a host's Node, as a cloud does with a machine that died. */
  void deleteNode(String host) {
    client.nodes().withName(host).delete();
  }

  /** Puts a host back, with its labels and taint, when {@link #deleteNode} took it. */
  void restore(String host) {
    if (client.nodes().withName(host).get() == null) {
      String rack = rackOf(host);
      addNode(rack.substring(0, rack.indexOf('-')), rack, host);
    }
  }

  /** The rack of a host of this topology; null for another node. */
  String rackOf(String host) {
    return rackOfHost.get(host);
  }

  List<String> hosts() {
    return new ArrayList<>(rackOfHost.keySet());
  }

  /** Whether every host is Ready (kwok's node stage), so that Kueue counts its capacity. */
  boolean ready() {
    return client.nodes().withLabel("type", "kwok-tas").list().getItems().stream()
        .filter(n -> n.getStatus() != null && n.getStatus().getConditions() != null
            && n.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
        .count() == rackOfHost.size();
  }

  @Override
  public void close() {
    client.genericKubernetesResources(LocalKueue.FLAVORS).withName(FLAVOR).delete();
    client.genericKubernetesResources(TOPOLOGIES).withName(TOPOLOGY).delete();
    client.nodes().withLabel("type", "kwok-tas").delete();
  }

  /**
   * The hosts of a podSet's {@code topologyAssignment}, one per rank in order (Kueue's compressed slices decoded as
   * {@code utiltas.InternalSeqFrom} does); empty when the assignment has none.
   */
  @SuppressWarnings("unchecked")
  static List<String> hostsByRank(Map<String, Object> assignment) {
    Map<String, Object> topology = (Map<String, Object>) assignment.get("topologyAssignment");
    List<String> hosts = new ArrayList<>();
    if (topology == null) {
      return hosts;
    }
    List<String> levels = (List<String>) topology.get("levels");
    int hostLevel = levels.indexOf(HOST);
    for (Map<String, Object> slice : (List<Map<String, Object>>) topology.get("slices")) {
      int domains = ((Number) slice.get("domainCount")).intValue();
      Map<String, Object> counts = (Map<String, Object>) slice.get("podCounts");
      Map<String, Object> values = ((List<Map<String, Object>>) slice.get("valuesPerLevel")).get(hostLevel);
      for (int i = 0; i < domains; i++) {
        int count = counts.get("universal") != null ? ((Number) counts.get("universal")).intValue()
            : ((Number) ((List<Object>) counts.get("individual")).get(i)).intValue();
        String host = valueAt(values, i);
        for (int c = 0; c < count; c++) {
          hosts.add(host);
        }
      }
    }
    return hosts;
  }

  @SuppressWarnings("unchecked")
  private static String valueAt(Map<String, Object> values, int i) {
    if (values.get("universal") != null) {
      return (String) values.get("universal");
    }
    Map<String, Object> individual = (Map<String, Object>) values.get("individual");
    String prefix = individual.get("prefix") == null ? "" : (String) individual.get("prefix");
    String suffix = individual.get("suffix") == null ? "" : (String) individual.get("suffix");
    return prefix + ((List<String>) individual.get("roots")).get(i) + suffix;
  }
}
