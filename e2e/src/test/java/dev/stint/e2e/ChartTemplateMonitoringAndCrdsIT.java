package dev.stint.e2e;

import static dev.stint.e2e.HelmTemplate.CHART;
import static dev.stint.e2e.HelmTemplate.assertRefused;
import static dev.stint.e2e.HelmTemplate.container;
import static dev.stint.e2e.HelmTemplate.kinds;
import static dev.stint.e2e.HelmTemplate.one;
import static dev.stint.e2e.HelmTemplate.valuesFile;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The objects charts/stint adds to deploy/'s install, rendered by the real helm: the ServiceMonitor and the
 * PrometheusRule, the Grafana dashboard, and the CRDs as templates. Needs helm and kubectl, no cluster.
 */
class ChartTemplateMonitoringAndCrdsIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** charts/stint rendered by helm template, as objects. */
  @RegisterExtension
  static final HelmTemplate helm = new HelmTemplate();

  /** Monitoring off, the PrometheusRule and ServiceMonitor on: the rules of deploy/monitoring, for the release's job. */
  @Test
  void theMonitoringValuesAddAServiceMonitorAndTheRules() throws IOException {
    List<HasMetadata> off = helm.template("metrics: {enabled: false}");
    List<HasMetadata> on = helm.template("metrics: {serviceMonitor: {enabled: true}, prometheusRule: {enabled: true}}");

    assertThat(container(off).getArgs()).contains("--metrics-port=0");
    assertThat(kinds(off)).doesNotContainKey("Service/stint-metrics in stint-system");
    assertThat(kinds(on)).containsKeys("ServiceMonitor/stint in stint-system",
        "PrometheusRule/stint in stint-system");
    String rendered = Testbin.helm("template", "stint", CHART, "-n", "stint-system", "-f",
        valuesFile("metrics: {prometheusRule: {enabled: true}}").toString(), "-s", "templates/prometheus-rule.yaml")
        .assertOk().stdout();
    assertThat(rendered).contains("alert: StintNoLeader").contains("job=\"stint-metrics\"")
        .contains("{{ $labels.kind }}"); // Prometheus's templates pass through Helm untouched
    String other = Testbin.helm("template", "ml", CHART, "-n", "ml", "-f",
        valuesFile("metrics: {prometheusRule: {enabled: true}}").toString(), "-s", "templates/prometheus-rule.yaml")
        .assertOk().stdout();
    assertThat(other).contains("job=\"ml-stint-metrics\"").doesNotContain("job=\"stint-metrics\"");
  }

  /**
   * deploy/monitoring/dashboard.json as a ConfigMap for Grafana's sidecar, the same from the chart and from
   * {@code kubectl kustomize deploy/monitoring}; off by default.
   */
  @Test
  void theDashboardIsAConfigMapForGrafanasSidecar() throws IOException {
    JsonNode dashboard = JSON.readTree(LocalCluster.ROOT.resolve("deploy/monitoring/dashboard.json").toFile());
    assertThat(helm.template("{}")).noneMatch(ConfigMap.class::isInstance);

    ConfigMap charted = one(helm.template("metrics: {dashboard: {enabled: true}}"), ConfigMap.class);
    ConfigMap kustomized = one(helm.parse(Kubectl.run("kustomize", LocalCluster.ROOT.resolve("deploy/monitoring")
        .toString()).assertOk().stdout()), ConfigMap.class);
    for (ConfigMap map : List.of(charted, kustomized)) {
      assertThat(map.getMetadata().getName()).isEqualTo("stint-dashboard");
      assertThat(map.getMetadata().getNamespace()).isEqualTo("stint-system");
      assertThat(map.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1")
          .containsEntry("app.kubernetes.io/name", "stint");
      assertThat(map.getData()).containsOnlyKeys("stint.json");
      assertThat(JSON.readTree(map.getData().get("stint.json"))).isEqualTo(dashboard);
    }
    assertThat(dashboard.path("templating").path("list").findValuesAsText("name")).contains("cluster");

    ConfigMap elsewhere = one(helm.template("""
        metrics: {dashboard: {enabled: true, namespace: monitoring,
          labels: {grafana_dashboard: null, dashboards: stint}, annotations: {grafana_folder: Training}}}
        """), ConfigMap.class);
    assertThat(elsewhere.getMetadata().getNamespace()).isEqualTo("monitoring");
    assertThat(elsewhere.getMetadata().getLabels()).containsEntry("dashboards", "stint")
        .doesNotContainKey("grafana_dashboard");
    assertThat(elsewhere.getMetadata().getAnnotations()).containsEntry("grafana_folder", "Training");
  }

  /**
   * The CRDs are templates, so that helm upgrade updates them: crds/ as it is (the same spec), with the chart's labels
   * and, unless crds.keep is false, the annotation that makes helm uninstall leave them; none with crds.enabled false.
   * No crds/ folder in the chart, which Helm would install as well (and never upgrade).
   */
  @Test
  void theCrdsAreTemplatesThatHelmUninstallKeeps() throws IOException {
    List<CustomResourceDefinition> files;
    try (Stream<Path> crds = Files.list(LocalCluster.ROOT.resolve("crds"))) {
      files = crds.filter(f -> f.toString().endsWith(".yml")).sorted().flatMap(f -> {
        try {
          return helm.parse(Files.readString(f)).stream();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).map(CustomResourceDefinition.class::cast).toList();
    }
    assertThat(files).extracting(c -> c.getMetadata().getName())
        .containsExactly("mpijobs.kubeflow.org", "pytorchjobs.kubeflow.org", "tfjobs.kubeflow.org");
    // templates/crds.yaml adds labels and annotations to metadata: the generated files must have none of their own
    assertThat(files).allSatisfy(c -> {
      assertThat(c.getMetadata().getLabels()).as("labels of %s", c.getMetadata().getName()).isNullOrEmpty();
      assertThat(c.getMetadata().getAnnotations()).as("annotations of %s", c.getMetadata().getName())
          .isNullOrEmpty();
    });
    assertThat(LocalCluster.ROOT.resolve(CHART).resolve("crds")).doesNotExist();

    List<CustomResourceDefinition> charted = crds(helm.template("{}"));
    assertThat(charted).extracting(c -> c.getMetadata().getName())
        .containsExactlyElementsOf(files.stream().map(c -> c.getMetadata().getName()).toList());
    for (int i = 0; i < files.size(); i++) {
      CustomResourceDefinition crd = charted.get(i);
      assertThat(crd.getSpec()).as("spec of %s", crd.getMetadata().getName()).isEqualTo(files.get(i).getSpec());
      assertThat(crd.getMetadata().getAnnotations()).containsExactly(Map.entry("helm.sh/resource-policy", "keep"));
      assertThat(crd.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "Helm")
          .containsEntry("app.kubernetes.io/part-of", "stint");
    }
    assertThat(crds(helm.template("crds: {keep: false}"))).hasSize(3)
        .allSatisfy(c -> assertThat(c.getMetadata().getAnnotations()).isNullOrEmpty());
    assertThat(crds(helm.template("crds: {enabled: false}"))).isEmpty();
    assertThat(kinds(helm.template("crds: {enabled: false}")).keySet()).isEqualTo(kinds(helm.template("{}")).keySet()
        .stream().filter(k -> !k.startsWith("CustomResourceDefinition/")).collect(java.util.stream.Collectors.toSet()));
    assertRefused("crds: {enabled: \"no\"}", "at '/crds/enabled': got string, want boolean");
  }

  private static List<CustomResourceDefinition> crds(List<HasMetadata> objects) {
    return objects.stream().filter(CustomResourceDefinition.class::isInstance)
        .map(CustomResourceDefinition.class::cast).toList();
  }
}
