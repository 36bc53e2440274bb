package dev.stint.e2e;

import static dev.stint.e2e.RbacJobs.JAX;
import static dev.stint.e2e.RbacJobs.MPI;
import static dev.stint.e2e.RbacJobs.PYTORCH;
import static dev.stint.e2e.RbacJobs.TENSORFLOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.stint.e2e.RbacJobs.Kind;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * charts/stint, packaged by bin/release, installed by the real helm on the real API server
 * ({@code helm install stint stint-VERSION.tgz -n stint-system}, with the JAXJob plugin's values), then its Deployment's container run the way its pod would, as the
 * chart's ServiceAccount (a token), through every kind's life (RbacIT's) and a job held back by a ResourceQuota, while
 * a real Prometheus scrapes it and evaluates deploy/monitoring's alert rules. Then: no request was refused and every
 * right the chart grants was used; every rule evaluated without an error, on series the operator exposes; every query
 * of the Grafana dashboard parses and reads series the operator exposes.
 */
class HelmInstallIT {
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final String RELEASE_NS = "stint-system";
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Metric names of the rules and the dashboard that a healthy run does not make, and why they are absent. */
  private static final Map<String, String> ONLY_ON_FAULTS = Map.of(
      "operator_sdk_reconciliations_failed_total", "JOSDK registers it at a reconcile's first unexpected exception",
      "stint_events_dropped_total", "registered when the event queue overflows, which the lives never cause",
      "stint_events_failed_total", "registered at the first event the API server refuses",
      "stint_watch_restarts_total",
      "registered at the first watch found deaf and listed again (DeafWatchOnMockServerTest)",
      "stint_jobs_with_pods_waiting",
      "registered per kind and cause when a job's pods first cannot run (PodsWaitingOnMockServerTest)");
  private static final Pattern METRIC = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\{");

  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.crds().withCrdsFrom("examples/plugins/jax/crds");
  static List<HasMetadata> installed;
  static List<AuditLog.Request> requests;
  static Map<Kind, String> namespaces = new LinkedHashMap<>();
  static LocalPrometheus prometheus;
  static OperatorProcess operator;
  /** The run's time range, Unix seconds: from the operator's start to the last scrape of the lives. */
  static double runStart;
  static double runEnd;

  @BeforeAll
  static void installAndRun() throws Exception {
    Testbin.prometheus();
    Path values = Files.writeString(Files.createTempFile(Files.createDirectories(LocalCluster.ROOT.resolve(
        "e2e/target")), "values-", ".yaml"), ChartTemplateVariantsIT.PLUGINS.values());
    takeOverFromDeploy();
    // the CRDs are there, applied server-side by kubectl (OnLocalCluster): the chart's templates/crds.yaml takes them
    // over only when told, their Helm metadata (--take-ownership) and kubectl's fields (--force-conflicts: Helm 4
    // applies server-side) (docs/operations.md, "Install with Helm"); HelmCrdUpgradeIT follows an upgrade of them.
    // The chart as a release ships it (bin/release), not the source folder
    helm("install", "stint", ReleaseBuild.chart().toString(), "-n", RELEASE_NS, "--create-namespace",
        "--take-ownership", "--force-conflicts",
        "-f", values.toString());
    installed = cluster.client().load(new ByteArrayInputStream(helm("get", "manifest", "stint", "-n", RELEASE_NS)
        .getBytes(StandardCharsets.UTF_8))).items();
    Path kubeconfig = DeployedOperator.serviceAccountKubeconfig();
    for (Kind kind : List.of(PYTORCH, TENSORFLOW, MPI, JAX)) {
      namespaces.put(kind, LocalCluster.namespace(cluster.client(), "chart-" + kind.plural()));
    }
    String quota = LocalCluster.namespace(cluster.client(), "chart-quota");
    freshLease();
    AuditLog audit = AuditLog.fromNow();
    int metricsPort = DeployedMetrics.freePort();
    operator = DeployedOperator.start(installed, kubeconfig, "stint-chart-0", metricsPort, JaxPluginJar.build());
    prometheus = LocalPrometheus.start(metricsPort, LocalCluster.ROOT.resolve("deploy/monitoring/stint-rules.yaml"));
    runStart = System.currentTimeMillis() / 1000.0;
    try {
      operator.awaitStarted(WAIT);
      new KindLives(cluster.client(), namespaces, WAIT, audit).run();
      heldBackByQuota(quota);
      partialSuccessOfManyPods(namespaces.get(PYTORCH));
      assertThat(operator.alive()).as("the operator is up after the lives; %s", operator.logFile()).isTrue();
      // the last scrape saw the lives' end: every kind's success is in Prometheus
      await("Prometheus scraped the lives").atMost(WAIT).until(() -> prometheus.query(
          "count(stint_jobs_succeeded_total{job=\"stint-metrics\"} > 0)").path("data").path("result").path(0)
          .path("value").path(1).asText().equals("4"));
      runEnd = System.currentTimeMillis() / 1000.0;
    } finally {
      operator.close(); // a leader that stops gives its Lease up (update leases): a right to see used
      requests = audit.operatorRequests();
      cluster.client().namespaces().withName(quota).delete();
    }
  }

  @AfterAll
  static void uninstall() throws InterruptedException {
    if (prometheus != null) {
      prometheus.close();
    }
    if (operator != null) {
      operator.close();
    }
    namespaces.values().forEach(ns -> cluster.client().namespaces().withName(ns).delete());
    if (installed != null) {
      helm("uninstall", "stint", "-n", RELEASE_NS);
    }
  }

  @Test
  void theChartsRightsRunEveryKindAndEachIsUsed() {
    RbacIT.assertNoneRefused(requests);
    List<String> unused = RbacGrants.unused(RbacGrants.of(installed), requests,
            g -> g.resource().endsWith("/finalizers") && RbacIT.childCreated(requests, g, namespaces))
        .stream().map(RbacGrants.Grant::describe).toList();
    assertThat(unused).as("rules the chart grants that no request of the operator used").isEmpty();
  }

  @Test
  void everyAlertRuleEvaluatesWithoutAnError() throws IOException {
    List<String> alerts = new ArrayList<>();
    await("every rule evaluated").atMost(WAIT).untilAsserted(() -> {
      alerts.clear();
      for (JsonNode group : prometheus.api("/api/v1/rules").path("data").path("groups")) {
        for (JsonNode rule : group.path("rules")) {
          alerts.add(rule.path("name").asText());
          assertThat(rule.path("health").asText()).as("health of %s: %s", rule.path("name"), rule.path("lastError"))
              .isEqualTo("ok");
          assertThat(rule.path("lastError").asText()).isEmpty();
        }
      }
    });
    assertThat(alerts).as("rules Prometheus loaded").containsExactlyElementsOf(alertsOfTheRulesFile());
  }

  @Test
  void everyRuleReadsSeriesTheOperatorExposes() throws IOException {
    List<String> missing = missing(metricsIn(rulesExpressions()));

    assertThat(missing).as("metrics the alert rules read that the operator's scrape did not have").isEmpty();
  }

  @Test
  void everyDashboardQueryParsesAndReadsSeriesTheOperatorExposes() throws IOException {
    JsonNode dashboard = JSON.readTree(LocalCluster.ROOT.resolve("deploy/monitoring/dashboard.json").toFile());
    List<String> queries = new ArrayList<>();
    dashboard.path("panels").forEach(p -> p.path("targets").forEach(t -> queries.add(t.path("expr").asText())));

    assertThat(queries).hasSizeGreaterThanOrEqualTo(20);
    for (String query : queries) {
      // Grafana's variables, as Grafana replaces them: the job, the cluster's All (the test's Prometheus has no
      // cluster label, as a single cluster's), and a window of at least four scrapes
      String promql = query.replace("$job", LocalPrometheus.JOB).replace("$cluster", ".*")
          .replace("$__rate_interval", "1m");
      JsonNode answer = prometheus.query(promql);
      assertThat(answer.path("status").asText()).as("%s: %s", promql, answer.path("error")).isEqualTo("success");
    }
    assertThat(missing(metricsIn(queries))).as("metrics the dashboard reads that the operator's scrape did not have")
        .isEmpty();
  }

  /**
   * docs/operations.md's picture of the dashboard: some panels' queries over this run, drawn from Prometheus's
   * answers (e2e/target/dashboard.png; copied to docs/images/ by hand when the dashboard changes).
   */
  @Test
  void aPictureOfTheDashboardIsDrawnFromTheRunsSeries() throws IOException {
    JsonNode dashboard = JSON.readTree(LocalCluster.ROOT.resolve("deploy/monitoring/dashboard.json").toFile());
    List<DashboardPicture.Panel> panels = DashboardPicture.panels(dashboard, List.of("Job outcomes by kind",
        "Refusals and waits", "Suspend: request to no active replica", "Reconcile rate",
        "API requests by verb and code", "JVM heap"));
    Path png = LocalCluster.ROOT.resolve("e2e/target/dashboard.png");

    assertThat(panels).hasSize(6);
    DashboardPicture.draw(prometheus, panels, runStart, runEnd, png);
    assertThat(Files.size(png)).as("%s", png).isGreaterThan(10_000);
  }

  /** The metrics named, less those a healthy run does not make; each of those must be in docs/metrics.md. */
  private static List<String> missing(Set<String> metrics) throws IOException {
    List<String> held = prometheus.metricNames();
    String documented = Files.readString(LocalCluster.ROOT.resolve("docs/metrics.md"));
    List<String> missing = new ArrayList<>();
    for (String metric : metrics) {
      if (ONLY_ON_FAULTS.containsKey(metric)) {
        assertThat(documented).as("docs/metrics.md names %s", metric).contains("`" + metric + "`");
      } else if (!held.contains(metric)) {
        missing.add(metric);
      }
    }
    return missing;
  }

  /** The metric names in PromQL expressions (every selector in the rules and the dashboard has braces). */
  private static Set<String> metricsIn(List<String> expressions) {
    Set<String> names = new TreeSet<>();
    for (String expression : expressions) {
      Matcher m = METRIC.matcher(expression);
      while (m.find()) {
        names.add(m.group(1));
      }
    }
    assertThat(names).isNotEmpty();
    return names;
  }

  private static List<String> rulesExpressions() throws IOException {
    List<String> expressions = new ArrayList<>();
    new ObjectMapper(new YAMLFactory()).readTree(LocalCluster.ROOT.resolve("deploy/monitoring/stint-rules.yaml")
        .toFile()).path("groups").forEach(g -> g.path("rules").forEach(r -> expressions.add(r.path("expr")
        .asText())));
    return expressions;
  }

  private static List<String> alertsOfTheRulesFile() throws IOException {
    return MonitoringFilesTest.alerts();
  }

  /**
   * A PyTorchJob of two pods in a namespace whose ResourceQuota allows one: the second pod's create is refused, a
   * refusal that heals, so the job waits and the operator counts its retries (stint_refused_retries_total).
   */
  private static void heldBackByQuota(String ns) {
    cluster.client().resourceQuotas().inNamespace(ns).resource(new ResourceQuotaBuilder().withNewMetadata()
        .withName("one-pod").endMetadata().withNewSpec().addToHard("pods",
            new io.fabric8.kubernetes.api.model.Quantity("1")).endSpec().build()).create();
    await("the quota counted").atMost(WAIT).until(() -> cluster.client().resourceQuotas().inNamespace(ns)
        .withName("one-pod").get().getStatus() != null);
    Kind twoPods = new Kind("kubeflow.org/v1", "PyTorchJob", "pytorchjobs", "pytorchReplicaSpecs", "pytorch",
        new LinkedHashMap<>(Map.of("Master", 1, "Worker", 1)));
    Kubectl.runWithInput(twoPods.running("held"), "create", "-n", ns, "-f", "-").assertOk();
    await("the held job's retries scraped").atMost(WAIT).until(() -> !prometheus.query(
        "stint_refused_retries_total{job=\"stint-metrics\"} > 0").path("data").path("result").isEmpty());
  }

  /**
   * A PyTorchJob of 30 workers whose rule asks for one success: more pod creations than a job's event budget (25,
   * then stint_events_filtered_total counts), and worker 0 failing before worker 1 succeeds, a partial success
   * (stint_jobs_partially_succeeded_total).
   */
  private static void partialSuccessOfManyPods(String ns) {
    Kind thirty = new Kind("kubeflow.org/v1", "PyTorchJob", "pytorchjobs", "pytorchReplicaSpecs", "pytorch",
        Map.of("Worker", 30));
    Kubectl.runWithInput(thirty.manifest("partial", null, "Never", "{successPolicy: {rules: [{succeeded: {Worker: 1}}]}}",
        ""), "create", "-n", ns, "-f", "-").assertOk();
    await("30 workers running").atMost(WAIT).until(() -> RbacJobs.pods(cluster.client(), ns, "partial").stream()
        .filter(p -> "Running".equals(p.getStatus().getPhase())).count() == 30);
    Kubectl.run("annotate", "pod", "partial-worker-0", "-n", ns, "stint.dev/kwok-exit-code=1").assertOk();
    await("worker 0 failed").atMost(WAIT).until(() -> "Failed".equals(cluster.client().pods().inNamespace(ns)
        .withName("partial-worker-0").get().getStatus().getPhase()));
    Kubectl.run("annotate", "pod", "partial-worker-1", "-n", ns, "stint.dev/kwok-exit-code=0").assertOk();
    await("partial success").atMost(WAIT).until(() -> "True".equals(RbacJobs.condition(cluster.client(),
        thirty, ns, "partial", "PartiallySucceeded")));
    await("the partial success and the filtered events scraped").atMost(WAIT).until(() -> !prometheus.query(
        "stint_jobs_partially_succeeded_total{job=\"stint-metrics\"} > 0 and on() stint_events_filtered_total"
            + "{job=\"stint-metrics\"} > 0").path("data").path("result").isEmpty());
  }

  /**
   * deploy/'s objects (RbacIT applies them) hold the names the release takes in stint-system: remove them, as a user
   * moving from kustomize to the chart does (docs/operations.md, "Helm").
   */
  private static void takeOverFromDeploy() {
    Testbin.helm("uninstall", "stint", "-n", RELEASE_NS, "--kubeconfig", LocalCluster.kubeconfig().toString());
    Kubectl.run("delete", "-n", RELEASE_NS, "deployment,service,serviceaccount,role,rolebinding,poddisruptionbudget",
        "-l", "app.kubernetes.io/part-of=stint", "--ignore-not-found").assertOk();
    Kubectl.run("delete", "clusterrole,clusterrolebinding", "-l", "app.kubernetes.io/part-of=stint",
        "--ignore-not-found").assertOk();
    Kubectl.run("delete", "clusterrolebinding", "stint", "--ignore-not-found").assertOk();
  }

  /** The Lease is created by the first leader: deleting it makes the run use create too (as RbacIT does). */
  private static void freshLease() {
    cluster.client().leases().inNamespace(RELEASE_NS).withName("stint").delete();
    await().atMost(WAIT)
        .until(() -> cluster.client().leases().inNamespace(RELEASE_NS).withName("stint").get() == null);
  }

  /** helm against the local cluster, asserting success; its standard output. */
  private static String helm(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--kubeconfig", LocalCluster.kubeconfig().toString()));
    return Testbin.helm(all.toArray(String[]::new)).assertOk().stdout();
  }
}
