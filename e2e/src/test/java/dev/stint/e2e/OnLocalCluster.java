package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.ServiceResource;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What most ITs set up once per class on the local cluster, as a JUnit extension in a static field
 * ({@code @RegisterExtension static final OnLocalCluster cluster = OnLocalCluster.namespace("x").withOperator();}): a
 * client, the checked-in CRDs (installed with kubectl, server-side, as the README says), a namespace of the class's
 * own, and Stint running as a process, with the options and the plugins the class asks for; what the operator must
 * find at its start (Kueue, the topology's nodes) is there before it starts. After the class it checks that the
 * operator is still up, stops it, then removes the topology, deletes the namespace and closes the client. A class
 * without a cluster is skipped by {@link LocalCluster#client()}.
 */
final class OnLocalCluster implements BeforeAllCallback, AfterAllCallback {
  private static final Duration TOPOLOGY_READY = Duration.ofSeconds(90);
  private final boolean crds;
  private final String namespacePrefix;
  private final List<Path> extraCrds = new ArrayList<>();
  private final List<String> operatorArgs = new ArrayList<>();
  private boolean withOperator;
  private String jaxPluginsDirPrefix;
  private boolean withKueue;
  private boolean withTopology;
  private KubernetesClient client;
  private String ns;
  private LocalTopology topology;
  private OperatorProcess operator;

  private OnLocalCluster(boolean crds, String namespacePrefix) {
    this.crds = crds;
    this.namespacePrefix = namespacePrefix;
  }

  /** A client only: the class installs what it needs and makes its own namespaces. */
  static OnLocalCluster clientOnly() {
    return new OnLocalCluster(false, null);
  }

  /** The CRDs installed; the class makes its own namespaces. */
  static OnLocalCluster crds() {
    return new OnLocalCluster(true, null);
  }

  /** The CRDs installed and a namespace named {@code <prefix>-<suffix>}. */
  static OnLocalCluster namespace(String prefix) {
    return new OnLocalCluster(true, prefix);
  }

  /** Also the CRDs in this folder of the repository (a plugin's), applied after the built-in ones. */
  OnLocalCluster withCrdsFrom(String folder) {
    extraCrds.add(LocalCluster.ROOT.resolve(folder));
    return this;
  }

  /** Also Stint, started as a process with these options once the CRDs are in. */
  OnLocalCluster withOperator(String... args) {
    withOperator = true;
    operatorArgs.addAll(List.of(args));
    return this;
  }

  /**
   * Also the sample plugin examples/plugins/jax: its CRDs, and its jar in a new plugins directory (named from
   * {@code prefix}) that the operator is started with ({@code --plugins-dir}).
   */
  OnLocalCluster withJaxPlugin(String prefix) {
    jaxPluginsDirPrefix = prefix;
    return withCrdsFrom("examples/plugins/jax/crds");
  }

  /** Also the real Kueue ({@link ClusterControl#kueueUp()}), up before the operator: its preflight checks the CRDs. */
  OnLocalCluster withKueue() {
    withKueue = true;
    return this;
  }

  /**
   * Also {@link LocalTopology}'s kwok data centre (Kueue's objects: after {@link #withKueue()}), its hosts Ready before
   * the operator starts; removed after it stops.
   */
  OnLocalCluster withTopology() {
    withTopology = true;
    return this;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    client = LocalCluster.client();
    if (crds) {
      LocalCluster.installCrds();
    }
    for (Path folder : extraCrds) {
      Kubectl.run("apply", "--server-side", "--force-conflicts", "-f", folder.toString()).assertOk();
    }
    if (namespacePrefix != null) {
      ns = LocalCluster.namespace(client, namespacePrefix);
    }
    if (withKueue) {
      ClusterControl.kueueUp();
    }
    if (withTopology) {
      topology = LocalTopology.create(client);
      await("the topology's kwok nodes Ready").atMost(TOPOLOGY_READY).until(topology::ready);
    }
    if (withOperator) {
      List<String> args = new ArrayList<>(operatorArgs);
      if (jaxPluginsDirPrefix != null) {
        args.add("--plugins-dir=" + JaxPluginJar.inPluginsDir(jaxPluginsDirPrefix));
      }
      operator = OperatorProcess.start(args.toArray(String[]::new));
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws InterruptedException {
    try {
      if (operator != null) {
        assertThat(operator.alive()).as("the operator is still up at the end of the test; see %s", operator.logFile())
            .isTrue();
      }
    } finally {
      if (operator != null) {
        operator.close();
      }
      if (topology != null) {
        topology.close();
      }
      if (client != null) {
        if (ns != null) {
          client.namespaces().withName(ns).delete();
        }
        client.close();
      }
    }
  }

  KubernetesClient client() {
    return client;
  }

  /** The class's namespace. */
  String ns() {
    return ns;
  }

  /** The pods of the class's namespace. */
  NonNamespaceOperation<Pod, PodList, PodResource> pods() {
    return client.pods().inNamespace(ns);
  }

  /** The services of the class's namespace. */
  NonNamespaceOperation<Service, ServiceList, ServiceResource<Service>> services() {
    return client.services().inNamespace(ns);
  }

  /** Custom resources of a kind in the class's namespace. */
  <T extends HasMetadata> NonNamespaceOperation<T, KubernetesResourceList<T>, Resource<T>> resources(Class<T> kind) {
    return client.resources(kind).inNamespace(ns);
  }

  /** The operator started for the class (with {@link #withOperator}). */
  OperatorProcess operator() {
    return operator;
  }

  /** The topology made for the class (with {@link #withTopology()}). */
  LocalTopology topology() {
    return topology;
  }
}
