package dev.stint.e2e;

import static dev.stint.e2e.HelmTemplate.CHART;
import static dev.stint.e2e.HelmTemplate.kinds;
import static dev.stint.e2e.HelmTemplate.one;
import static dev.stint.e2e.HelmTemplate.valuesFile;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One source of truth for two ways to install: charts/stint, rendered by the real helm with the values of each variant
 * of deploy/, gives the same RBAC rules and bindings, and the same operator container (command, arguments,
 * environment, probes, ports, resources, security contexts, volumes, init containers) and spread of its pods, as
 * {@code kubectl kustomize} of that variant. Needs helm and kubectl, no cluster. {@code helm lint} passes with each
 * variant's values. The values with no variant of deploy/ are {@link ChartTemplateValuesIT}'s; the monitoring
 * objects and the CRDs, {@link ChartTemplateMonitoringAndCrdsIT}'s.
 */
class ChartTemplateVariantsIT {
  /** charts/stint rendered by helm template, as objects. */
  @RegisterExtension
  static final HelmTemplate helm = new HelmTemplate();

  /** A variant of deploy/ and the chart's values that mean the same. */
  record Variant(String name, String kustomization, String values) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** The plugins overlay and the values that mean the same: the JAX sample plugin (HelmInstallIT installs those). */
  static final Variant PLUGINS = new Variant("plugins", "deploy/overlays/plugins", """
      plugins:
        images:
        - name: jax-plugin
          image: registry.example.com/stint-jax-plugin:0.1.0
          command: [cp, /plugins/stint-jax-plugin-0.1.0.jar, /opt/stint/plugins/]
        kinds:
        - {group: kubeflow.org, plural: jaxjobs}
      """);

  static Stream<Arguments> variants() throws IOException {
    return Stream.of(
        new Variant("deploy", "deploy", "{}"),
        new Variant("namespaced", "deploy/overlays/namespaced", "watchNamespaces: [team-a, team-b]"),
        PLUGINS,
        new Variant("without-mpi", "deploy/overlays/without-mpi", "frameworks: [pytorch, tensorflow]"),
        new Variant("gang-scheduling",
            UserKustomization.deployWith("gang-scheduling", "--gang-scheduler-name=volcano"),
            "gangScheduling: {schedulerName: volcano}"),
        new Variant("kueue", UserKustomization.deployWith("kueue", "--kueue=native"), "kueue: {mode: native}"),
        // a namespaced operator still reads Kueue's cluster-wide objects (it could not start without: a review)
        new Variant("kueue-namespaced", UserKustomization.deployWith("deploy/overlays/namespaced", "kueue",
            "--kueue=native"), "{watchNamespaces: [team-a, team-b], kueue: {mode: native}}"))
        .map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("variants")
  void theChartRendersWhatKustomizeRenders(Variant variant) throws IOException {
    List<HasMetadata> kustomized = helm.parse(Kubectl.run("kustomize",
        LocalCluster.ROOT.resolve(variant.kustomization()).toString()).assertOk().stdout());
    List<HasMetadata> charted = helm.template(variant.values()).stream()
        .filter(o -> !(o instanceof CustomResourceDefinition)).toList(); // deploy/ has none: crds/ is applied apart

    assertThat(kinds(charted)).as("objects of the chart").isEqualTo(kinds(kustomized.stream()
        .filter(o -> !"Namespace".equals(o.getKind())).toList())); // helm install --create-namespace makes it
    for (String role : List.of("", "-edit", "-view")) { // the operator's, and the two users get through aggregation
      assertThat(clusterRole(charted, "stint" + role)).as("ClusterRole stint%s", role)
          .isEqualTo(clusterRole(kustomized, "stint" + role));
    }
    if (variant.name().startsWith("kueue")) { // the cluster-wide reads of --kueue=native, bound cluster-wide
      assertThat(clusterRole(charted, "stint-kueue-reads")).isEqualTo(clusterRole(kustomized, "stint-kueue-reads"));
    }
    assertThat(one(charted, Role.class).getRules()).as("leader-election Role rules")
        .isEqualTo(one(kustomized, Role.class).getRules());
    assertThat(bindings(charted)).as("bindings").isEqualTo(bindings(kustomized));

    Deployment chartDeployment = one(charted, Deployment.class);
    Deployment kustomizeDeployment = one(kustomized, Deployment.class);
    assertThat(chartDeployment.getSpec().getReplicas()).isEqualTo(kustomizeDeployment.getSpec().getReplicas());
    PodSpec chartPod = chartDeployment.getSpec().getTemplate().getSpec();
    PodSpec kustomizePod = kustomizeDeployment.getSpec().getTemplate().getSpec();
    assertThat(chartPod.getServiceAccountName()).isEqualTo(kustomizePod.getServiceAccountName());
    assertThat(chartPod.getSecurityContext()).as("pod securityContext").isEqualTo(kustomizePod.getSecurityContext());
    assertThat(chartPod.getTerminationGracePeriodSeconds()).isEqualTo(kustomizePod.getTerminationGracePeriodSeconds());
    assertThat(spread(chartDeployment)).as("topologySpreadConstraints").isEqualTo(spread(kustomizeDeployment));
    assertThat(chartPod.getVolumes()).as("volumes").containsExactlyInAnyOrderElementsOf(kustomizePod.getVolumes());
    assertThat(chartPod.getInitContainers()).as("init containers").isEqualTo(kustomizePod.getInitContainers());
    assertSameContainer(chartPod.getContainers().get(0), kustomizePod.getContainers().get(0));

    assertThat(one(charted, Service.class).getSpec().getPorts()).as("metrics Service ports")
        .isEqualTo(one(kustomized, Service.class).getSpec().getPorts());
    assertThat(one(charted, PodDisruptionBudget.class).getSpec().getMaxUnavailable())
        .isEqualTo(one(kustomized, PodDisruptionBudget.class).getSpec().getMaxUnavailable());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("variants")
  void helmLintPasses(Variant variant) throws IOException {
    Testbin.Result lint = Testbin.helm("lint", CHART, "--strict", "-f", valuesFile(variant.values()).toString());

    assertThat(lint.exitCode()).as("helm lint: %s%s", lint.stdout(), lint.stderr()).isZero();
    assertThat(lint.stdout()).contains("0 chart(s) failed");
  }

  /** The pods' spread, each constraint's labelSelector checked to be the Deployment's selector and then left out. */
  private static List<TopologySpreadConstraint> spread(Deployment deployment) {
    List<TopologySpreadConstraint> constraints = deployment.getSpec().getTemplate().getSpec()
        .getTopologySpreadConstraints();
    assertThat(constraints).as("topologySpreadConstraints").isNotEmpty();
    return constraints.stream().map(c -> {
      assertThat(c.getLabelSelector()).as("spread's labelSelector").isEqualTo(deployment.getSpec().getSelector());
      return new TopologySpreadConstraintBuilder(c).withLabelSelector(null).build();
    }).toList();
  }

  private static void assertSameContainer(Container chart, Container kustomize) {
    assertThat(chart.getName()).isEqualTo(kustomize.getName());
    assertThat(chart.getImage()).as("image").isEqualTo(kustomize.getImage());
    assertThat(chart.getCommand()).as("command").isEqualTo(kustomize.getCommand());
    assertThat(chart.getArgs()).as("args").isEqualTo(kustomize.getArgs());
    assertThat(chart.getEnv()).as("env").isEqualTo(kustomize.getEnv());
    assertThat(chart.getPorts()).as("ports").isEqualTo(kustomize.getPorts());
    assertThat(chart.getStartupProbe()).as("startupProbe").isEqualTo(kustomize.getStartupProbe());
    assertThat(chart.getLivenessProbe()).as("livenessProbe").isEqualTo(kustomize.getLivenessProbe());
    assertThat(chart.getReadinessProbe()).as("readinessProbe").isEqualTo(kustomize.getReadinessProbe());
    assertThat(chart.getResources()).as("resources").isEqualTo(kustomize.getResources());
    assertThat(chart.getSecurityContext()).as("securityContext").isEqualTo(kustomize.getSecurityContext());
    assertThat(chart.getVolumeMounts()).as("volumeMounts")
        .containsExactlyInAnyOrderElementsOf(kustomize.getVolumeMounts());
  }

  /** The rules and aggregation labels of the ClusterRole of that name. */
  private static List<Object> clusterRole(List<HasMetadata> objects, String name) {
    ClusterRole role = objects.stream().filter(ClusterRole.class::isInstance).map(ClusterRole.class::cast)
        .filter(r -> name.equals(r.getMetadata().getName())).findFirst()
        .orElseThrow(() -> new AssertionError("no ClusterRole " + name + " among " + kinds(objects)));
    var labels = new java.util.TreeMap<String, String>(role.getMetadata().getLabels() == null ? java.util.Map.of()
        : role.getMetadata().getLabels());
    labels.keySet().removeIf(k -> !k.startsWith("rbac.authorization.k8s.io/"));
    return List.of(role.getRules(), labels);
  }

  /** Each binding: where, to which role, for whom. */
  private static List<String> bindings(List<HasMetadata> objects) {
    return objects.stream().flatMap(o -> {
      if (o instanceof ClusterRoleBinding b) {
        return Stream.of("ClusterRoleBinding " + b.getMetadata().getName() + " -> " + b.getRoleRef().getKind() + " "
            + b.getRoleRef().getName() + " for " + b.getSubjects());
      }
      if (o instanceof RoleBinding b) {
        return Stream.of("RoleBinding " + b.getMetadata().getNamespace() + "/" + b.getMetadata().getName() + " -> "
            + b.getRoleRef().getKind() + " " + b.getRoleRef().getName() + " for " + b.getSubjects());
      }
      return Stream.empty();
    }).sorted().toList();
  }
}
