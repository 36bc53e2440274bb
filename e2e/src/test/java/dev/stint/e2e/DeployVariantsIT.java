package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every variant of deploy/ builds with kubectl's kustomize and passes the real API server's validation
 * ({@code --dry-run=server}) without a warning, and grants what its comment promises. RbacIT runs the operator with
 * deploy/, the plugins overlay and the namespaced one.
 */
class DeployVariantsIT {
  static KubernetesClient client;

  @BeforeAll
  static void setUp() {
    client = LocalCluster.client();
    LocalCluster.installCrds();
    for (String ns : List.of("stint-system", "team-a", "team-b")) { // the namespaced overlay's examples
      if (client.namespaces().withName(ns).get() == null) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
            .create();
      }
    }
  }

  @AfterAll
  static void tearDown() {
    if (client != null) {
      client.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"deploy", "deploy/overlays/namespaced", "deploy/overlays/plugins",
      "deploy/overlays/without-mpi"})
  void appliesWithoutWarnings(String dir) {
    Kubectl.Result result = Kubectl.run("apply", "--server-side", "--dry-run=server", "-k",
        LocalCluster.ROOT.resolve(dir).toString());

    assertThat(result.exitCode()).as("%s: %s", dir, result.stderr()).isZero();
    assertThat(result.stderr()).isEmpty();
    assertThat(result.stdout()).contains("deployment.apps/stint serverside-applied (server dry run)");
  }

  /**
   * The release's install.yaml (bin/release) passes the API server's validation whole, and is deploy/ with its image
   * set plus the CRDs of crds/: the objects RbacIT runs every kind's life as (deploy/'s ServiceAccount and rules).
   */
  @Test
  void theReleasesInstallYamlIsTheCrdsAndDeployAndApplies() throws IOException {
    Path installYaml = ReleaseBuild.installYaml();
    Kubectl.Result result = Kubectl.run("apply", "--server-side", "--dry-run=server", "-f", installYaml.toString());
    assertThat(result.exitCode()).as(result.stderr()).isZero();
    assertThat(result.stderr()).isEmpty();
    assertThat(result.stdout()).contains("deployment.apps/stint serverside-applied (server dry run)",
        "customresourcedefinition.apiextensions.k8s.io/pytorchjobs.kubeflow.org serverside-applied (server dry run)");

    List<HasMetadata> released;
    try (var in = Files.newInputStream(installYaml)) {
      released = client.load(in).items();
    }
    List<HasMetadata> deploy = DeployedOperator.build(client, "deploy");
    assertThat(clusterRole(released).getRules()).as("the operator's rights").isEqualTo(clusterRole(deploy).getRules());
    assertThat(args(released)).as("the operator's arguments").isEqualTo(args(deploy));
    assertThat(released.stream().filter(o -> o.getKind().equals("CustomResourceDefinition"))
        .map(o -> o.getMetadata().getName())).as("the CRDs of crds/").contains("pytorchjobs.kubeflow.org",
        "tfjobs.kubeflow.org", "mpijobs.kubeflow.org");
  }

  @Test
  void withoutMpiServesNoMpiAndGrantsNothingOnSecretsOrConfigMaps() {
    List<HasMetadata> objects = DeployedOperator.build(client, "deploy/overlays/without-mpi");

    assertThat(args(objects)).contains("--frameworks=pytorch,tensorflow");
    assertThat(resources(objects)).doesNotContain("secrets", "configmaps", "mpijobs", "mpijobs/status",
        "mpijobs/finalizers").contains("pytorchjobs", "tfjobs/finalizers", "pods");
    assertThat(resources(DeployedOperator.build(client, "deploy"))).contains("secrets", "configmaps", "mpijobs");
  }

  @Test
  void theGangSchedulingComponentAddsPodGroupsToDeploy() throws IOException {
    List<PolicyRule> rules = rulesWithComponent("gang-scheduling");

    assertThat(rules).anySatisfy(r -> {
      assertThat(r.getApiGroups()).containsExactly("scheduling.volcano.sh", "scheduling.x-k8s.io");
      assertThat(r.getResources()).containsExactly("podgroups");
    });
    assertThat(rules).anySatisfy(r -> assertThat(r.getResources()).contains("secrets")); // deploy/'s, kept
  }

  @Test
  void theKueueComponentAddsWorkloadsAndReadsFlavorsAndPriorities() throws IOException {
    List<HasMetadata> objects = DeployedOperator.build(client, UserKustomization.deployWith("kueue"));
    List<PolicyRule> rules = clusterRole(objects).getRules();

    assertThat(rules).anySatisfy(r -> {
      assertThat(r.getResources()).containsExactly("workloads");
      assertThat(r.getVerbs()).containsExactly("get", "list", "watch", "create", "update", "patch", "delete");
    });
    assertThat(rules).anySatisfy(r -> {
      assertThat(r.getResources()).containsExactly("workloads/status");
      assertThat(r.getVerbs()).containsExactly("get", "update", "patch");
    });
    assertThat(rules).anySatisfy(r -> assertThat(r.getResources()).contains("secrets")); // deploy/'s, kept
    // the reads of cluster-wide objects: a role of their own, bound cluster-wide also under overlays/namespaced
    List<PolicyRule> reads = objects.stream().filter(ClusterRole.class::isInstance).map(ClusterRole.class::cast)
        .filter(r -> "stint-kueue-reads".equals(r.getMetadata().getName())).findFirst().orElseThrow().getRules();
    assertThat(reads).anySatisfy(r -> {
      assertThat(r.getResources()).containsExactly("resourceflavors", "workloadpriorityclasses");
      assertThat(r.getVerbs()).containsExactly("get", "list", "watch");
    });
    assertThat(reads).anySatisfy(r -> assertThat(r.getResources()).containsExactly("localqueues"));
    assertThat(reads).anySatisfy(r -> assertThat(r.getResources()).containsExactly("priorityclasses"));
    assertThat(rules).noneSatisfy(r -> assertThat(r.getResources()).contains("resourceflavors"));
    assertThat(objects).filteredOn(o -> o instanceof io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding)
        .extracting(o -> o.getMetadata().getName()).contains("stint-kueue-reads");
  }

  private static List<String> args(List<HasMetadata> objects) {
    return objects.stream().filter(Deployment.class::isInstance).map(Deployment.class::cast).findFirst().orElseThrow()
        .getSpec().getTemplate().getSpec().getContainers().get(0).getArgs();
  }

  private static ClusterRole clusterRole(List<HasMetadata> objects) {
    return objects.stream().filter(ClusterRole.class::isInstance).map(ClusterRole.class::cast)
        .filter(r -> "stint".equals(r.getMetadata().getName())).findFirst().orElseThrow(); // the operator's
  }

  private static List<String> resources(List<HasMetadata> objects) {
    return clusterRole(objects).getRules().stream().flatMap(r -> r.getResources().stream()).toList();
  }

  /** The ClusterRole's rules of a kustomization of the user's: deploy/ plus one of its components. */
  private static List<PolicyRule> rulesWithComponent(String component) throws IOException {
    return clusterRole(DeployedOperator.build(client, UserKustomization.deployWith(component))).getRules();
  }
}
