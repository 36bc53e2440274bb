package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What Helm and the Prometheus Operator read stays equal to its source, and the docs name what the files hold: the
 * chart's crds/ (a symbolic link) reads as the repository's crds/ byte for byte, and its files/stint-rules.yaml as
 * deploy/monitoring/stint-rules.yaml, so that no one replaces a link by a copy that drifts;
 * deploy/monitoring/prometheus-rule.yaml's spec is stint-rules.yaml's groups; docs/operations.md's alert table lists
 * exactly the alerts of the rules; the dashboard's panels all have queries, each selecting the cluster variable, and
 * the chart's files/dashboard.json reads as deploy/monitoring/dashboard.json. No tool needed: a plain unit test.
 */
class MonitoringFilesTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path ROOT = LocalCluster.ROOT;

  @Test
  void theChartsCrdsAreTheRepositorysCrds() throws IOException {
    List<String> repo = names(ROOT.resolve("crds"));
    List<String> chart = names(ROOT.resolve("charts/stint/files/crds"));

    assertThat(chart).as("charts/stint/files/crds/ (a symbolic link to ../../../crds)").isEqualTo(repo);
    for (String name : repo) {
      assertThat(Files.readString(ROOT.resolve("charts/stint/files/crds").resolve(name)))
          .as("charts/stint/files/crds/%s equals crds/%s", name, name)
          .isEqualTo(Files.readString(ROOT.resolve("crds").resolve(name)));
    }
  }

  @Test
  void thePrometheusRuleAndTheChartsRulesAreTheRulesFile() throws IOException {
    JsonNode rules = YAML.readTree(ROOT.resolve("deploy/monitoring/stint-rules.yaml").toFile());
    JsonNode prometheusRule = YAML.readTree(ROOT.resolve("deploy/monitoring/prometheus-rule.yaml").toFile());

    assertThat(prometheusRule.path("kind").asText()).isEqualTo("PrometheusRule");
    assertThat(prometheusRule.path("spec")).as("prometheus-rule.yaml's spec (run deploy/monitoring/generate.sh)")
        .isEqualTo(rules);
    assertThat(Files.readString(ROOT.resolve("charts/stint/files/stint-rules.yaml")))
        .as("charts/stint/files/stint-rules.yaml (a symbolic link to deploy/monitoring/stint-rules.yaml)")
        .isEqualTo(Files.readString(ROOT.resolve("deploy/monitoring/stint-rules.yaml")));
  }

  @Test
  void everyAlertIsInTheOperationsGuideAndHasAUnitTest() throws IOException {
    List<String> alerts = alerts();
    String guide = Files.readString(ROOT.resolve("docs/operations.md"));
    List<String> documented = new ArrayList<>();
    Matcher row = Pattern.compile("(?m)^\\| `(Stint[A-Za-z]+)` \\|").matcher(guide);
    while (row.find()) {
      documented.add(row.group(1));
    }
    String tests = Files.readString(ROOT.resolve("deploy/monitoring/stint-rules.test.yaml"));

    assertThat(alerts).hasSizeGreaterThanOrEqualTo(8).doesNotHaveDuplicates();
    assertThat(documented).as("alerts in docs/operations.md's table").containsExactlyElementsOf(alerts);
    for (String alert : alerts) {
      assertThat(tests).as("a promtool test of %s", alert).contains("alertname: " + alert + "\n");
    }
  }

  @Test
  void everyAlertLinksToItsRunbook() throws IOException {
    JsonNode rules = YAML.readTree(ROOT.resolve("deploy/monitoring/stint-rules.yaml").toFile());
    String runbooks = Files.readString(ROOT.resolve("docs/runbooks.md"));
    List<String> linked = new ArrayList<>();
    for (JsonNode group : rules.path("groups")) {
      for (JsonNode rule : group.path("rules")) {
        String alert = rule.path("alert").asText();
        assertThat(rule.path("annotations").path("runbook_url").asText()).as("runbook_url of %s", alert)
            .isEqualTo("https://github.com/stint-dev/stint/blob/main/docs/runbooks.md#" + alert.toLowerCase());
        assertThat(runbooks).as("a section of docs/runbooks.md for %s", alert).contains("\n## " + alert + "\n");
        linked.add(alert);
      }
    }
    assertThat(linked).containsExactlyElementsOf(alerts());
  }

  @Test
  void everyDashboardPanelHasAQueryOnADatasourceVariable() throws IOException {
    JsonNode dashboard = JSON.readTree(ROOT.resolve("deploy/monitoring/dashboard.json").toFile());
    List<JsonNode> panels = new ArrayList<>();
    dashboard.path("panels").forEach(p -> {
      if (!"row".equals(p.path("type").asText())) {
        panels.add(p);
      }
    });

    assertThat(dashboard.path("uid").asText()).isEqualTo("stint-operator");
    assertThat(panels).hasSizeGreaterThanOrEqualTo(10);
    for (JsonNode panel : panels) {
      assertThat(panel.path("targets")).as("queries of panel %s", panel.path("title")).isNotEmpty();
      panel.path("targets").forEach(t -> assertThat(t.path("expr").asText()).as("panel %s", panel.path("title"))
          .isNotBlank());
      assertThat(panel.path("datasource").path("uid").asText()).as("panel %s", panel.path("title"))
          .isEqualTo("${datasource}");
    }
  }

  /**
   * The cluster variable of kube-prometheus-stack's dashboards, in every selector of every query: its All is
   * {@code .*}, which also matches a series without the label, so a Prometheus of one cluster shows everything with no
   * setting.
   */
  @Test
  void everyDashboardQuerySelectsTheClusterVariable() throws IOException {
    JsonNode dashboard = JSON.readTree(ROOT.resolve("deploy/monitoring/dashboard.json").toFile());
    JsonNode cluster = variable(dashboard, "cluster");
    List<String> selectors = new ArrayList<>();
    dashboard.path("panels").forEach(p -> p.path("targets").forEach(t -> {
      Matcher selector = Pattern.compile("\\{[^}]*}").matcher(t.path("expr").asText());
      while (selector.find()) {
        selectors.add(selector.group());
      }
    }));

    assertThat(cluster.path("query").path("query").asText()).isEqualTo("label_values(stint_leader, cluster)");
    assertThat(cluster.path("includeAll").asBoolean()).as("All allowed").isTrue();
    assertThat(cluster.path("allValue").asText()).isEqualTo(".*");
    assertThat(cluster.path("current").path("value").asText()).isEqualTo("$__all");
    assertThat(variable(dashboard, "job").path("query").path("query").asText())
        .isEqualTo("label_values(stint_leader{cluster=~\"$cluster\"}, job)");
    assertThat(selectors).hasSizeGreaterThanOrEqualTo(30)
        .allSatisfy(s -> assertThat(s).startsWith("{cluster=~\"$cluster\", job=\"$job\""));
    assertThat(Files.readString(ROOT.resolve("charts/stint/files/dashboard.json")))
        .as("charts/stint/files/dashboard.json (a symbolic link to deploy/monitoring/dashboard.json)")
        .isEqualTo(Files.readString(ROOT.resolve("deploy/monitoring/dashboard.json")));
  }

  private static JsonNode variable(JsonNode dashboard, String name) {
    for (JsonNode variable : dashboard.path("templating").path("list")) {
      if (name.equals(variable.path("name").asText())) {
        return variable;
      }
    }
    throw new AssertionError("no variable " + name + " in the dashboard");
  }

  /** The alert names of stint-rules.yaml, in order. */
  static List<String> alerts() throws IOException {
    List<String> names = new ArrayList<>();
    YAML.readTree(ROOT.resolve("deploy/monitoring/stint-rules.yaml").toFile()).path("groups")
        .forEach(g -> g.path("rules").forEach(r -> names.add(r.path("alert").asText())));
    return names;
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
