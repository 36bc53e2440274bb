package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One source of truth for two ways to install: charts/stint, rendered by the real helm with the values of each variant
 * of deploy/, gives the same RBAC rules and bindings, and the same operator container (command, arguments,
 * environment, probes, ports, resources, security contexts, volumes, init containers) and spread of its pods, as
 * {@code kubectl kustomize} of that variant. Needs helm and kubectl, no cluster. {@code helm lint} passes with each
 * variant's values, and the values the chart refuses are refused with a message. The values with no variant of deploy/
 * (security contexts, image digest, an existing ServiceAccount, the spread, the memory limit, the dashboard) do what
 * they say.
 */
class ChartTemplateIT {
  private static final String CHART = "charts/stint";
  private static final ObjectMapper JSON = new ObjectMapper();
  /** A client that only parses YAML: it never connects. */
  private static KubernetesClient parser;

  /** A variant of deploy/ and the chart's values that mean the same. */
  record Variant(String name, String kustomization, String values) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> variants() throws IOException {
    return Stream.of(
        new Variant("deploy", "deploy", "{}"),
        new Variant("namespaced", "deploy/overlays/namespaced", "watchNamespaces: [team-a, team-b]"),
        new Variant("plugins", "deploy/overlays/plugins", """
            plugins:
              images:
              - name: jax-plugin
                image: registry.example.com/stint-jax-plugin:0.1.0
                command: [cp, /plugins/stint-jax-plugin-0.1.0.jar, /opt/stint/plugins/]
              kinds:
              - {group: kubeflow.org, plural: jaxjobs}
            """),
        new Variant("without-mpi", "deploy/overlays/without-mpi", "frameworks: [pytorch, tensorflow]"),
        new Variant("gang-scheduling", withComponent("gang-scheduling", "--gang-scheduler-name=volcano"),
            "gangScheduling: {schedulerName: volcano}"),
        new Variant("kueue", withComponent("kueue", "--kueue=native"), "kueue: {mode: native}"))
        .map(Arguments::of);
  }

  @BeforeAll
  static void setUp() {
    Testbin.helm(); // skips (or fails in the build) without helm, before anything else
    parser = new KubernetesClientBuilder().withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1")
        .build()).build();
  }

  @AfterAll
  static void tearDown() {
    if (parser != null) {
      parser.close();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("variants")
  void theChartRendersWhatKustomizeRenders(Variant variant) throws IOException {
    List<HasMetadata> kustomized = parse(Kubectl.run("kustomize",
        LocalCluster.ROOT.resolve(variant.kustomization()).toString()).assertOk().stdout());
    List<HasMetadata> charted = template(variant.values()).stream()
        .filter(o -> !(o instanceof CustomResourceDefinition)).toList(); // deploy/ has none: crds/ is applied apart

    assertThat(kinds(charted)).as("objects of the chart").isEqualTo(kinds(kustomized.stream()
        .filter(o -> !"Namespace".equals(o.getKind())).toList())); // helm install --create-namespace makes it
    for (String role : List.of("", "-edit", "-view")) { // the operator's, and the two users get through aggregation
      assertThat(clusterRole(charted, "stint" + role)).as("ClusterRole stint%s", role)
          .isEqualTo(clusterRole(kustomized, "stint" + role));
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

  /** Monitoring off, the PrometheusRule and ServiceMonitor on: the rules of deploy/monitoring, for the release's job. */
  @Test
  void theMonitoringValuesAddAServiceMonitorAndTheRules() throws IOException {
    List<HasMetadata> off = template("metrics: {enabled: false}");
    List<HasMetadata> on = template("metrics: {serviceMonitor: {enabled: true}, prometheusRule: {enabled: true}}");

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

  @Test
  void valuesThatCannotWorkAreRefusedWithAReason() throws IOException {
    assertRefused("leaderElection: {enabled: false}", "replicas > 1 needs leaderElection.enabled");
    // values.schema.json: a misspelt key or a value out of its list is refused before anything renders
    assertRefused("watchNamespace: [team-a]", "additional properties 'watchNamespace' not allowed");
    assertRefused("kueue: {mode: always}", "at '/kueue/mode': value must be one of 'off', 'native', false");
    assertRefused("logFormat: xml", "at '/logFormat': value must be one of 'text', 'json'");
    assertRefused("metrics: {servicemonitor: {enabled: true}}",
        "at '/metrics': additional properties 'servicemonitor' not allowed");
    // an unquoted off is YAML's false: it means off
    assertThat(container(template("kueue: {mode: off}")).getArgs()).noneMatch(a -> a.startsWith("--kueue"));
    assertRefused("frameworks: [jax]", "no job kind is served");
    // one replica without leader election is a valid install (a single writer)
    assertThat(container(template("{replicas: 1, leaderElection: {enabled: false}}")).getArgs())
        .contains("--leader-election=false");
  }

  private static void assertRefused(String values, String message) throws IOException {
    Testbin.Result result = Testbin.helm("template", "stint", CHART, "-n", "stint-system", "-f",
        valuesFile(values).toString());
    assertThat(result.exitCode()).as("helm template with %s", values).isNotZero();
    assertThat(result.stderr()).contains(message);
  }

  /** The chart's ServiceAccount, bindings and Lease name follow the release's name and namespace. */
  @Test
  void anotherReleaseNameAndNamespaceNameEverythingAfterThem() throws IOException {
    List<HasMetadata> objects = parse(Testbin.helm("template", "ml", CHART, "-n", "ml-system").assertOk().stdout());

    assertThat(one(objects, ClusterRoleBinding.class).getSubjects()).singleElement().satisfies(s -> {
      assertThat(s.getName()).isEqualTo("ml-stint");
      assertThat(s.getNamespace()).isEqualTo("ml-system");
    });
    assertThat(one(objects, ClusterRoleBinding.class).getRoleRef().getName()).isEqualTo("ml-stint");
    assertThat(one(objects, Deployment.class).getSpec().getTemplate().getSpec().getServiceAccountName())
        .isEqualTo("ml-stint");
    assertThat(one(objects, Role.class).getMetadata().getNamespace()).isEqualTo("ml-system");
  }

  /** OpenShift's restricted SCC: the uid and gid left to the SCC, and both contexts replaced by values. */
  @Test
  void theSecurityContextsAreValues() throws IOException {
    List<HasMetadata> objects = template("""
        podSecurityContext: {runAsUser: null, runAsGroup: null, fsGroup: null}
        securityContext: {allowPrivilegeEscalation: false, readOnlyRootFilesystem: true,
          capabilities: {drop: [ALL]}, runAsNonRoot: true}
        plugins:
          images: [{name: jax-plugin, image: registry.example.com/jax:0.1.0, command: [cp, a.jar, /opt/stint/plugins/]}]
        """);
    PodSpec pod = one(objects, Deployment.class).getSpec().getTemplate().getSpec();

    PodSecurityContext podContext = pod.getSecurityContext();
    assertThat(podContext.getRunAsUser()).isNull();
    assertThat(podContext.getRunAsGroup()).isNull();
    assertThat(podContext.getRunAsNonRoot()).isTrue();
    assertThat(podContext.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    SecurityContext container = pod.getContainers().get(0).getSecurityContext();
    assertThat(container.getRunAsNonRoot()).isTrue();
    assertThat(container.getReadOnlyRootFilesystem()).isTrue();
    assertThat(container.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(pod.getInitContainers()).singleElement()
        .satisfies(c -> assertThat(c.getSecurityContext()).isEqualTo(container));
    // none at all: the keys are left out, not written empty
    PodSpec bare = one(template("{podSecurityContext: null, securityContext: null}"), Deployment.class).getSpec()
        .getTemplate().getSpec();
    assertThat(bare.getSecurityContext()).isNull();
    assertThat(bare.getContainers().get(0).getSecurityContext()).isNull();
    assertRefused("podSecurityContext: {runAsUsr: 1000}",
        "at '/podSecurityContext': additional properties 'runAsUsr' not allowed");
  }

  @Test
  void aDigestPinsTheImageAndTheTagIsIgnored() throws IOException {
    String digest = "sha256:" + "0123456789abcdef".repeat(4);

    assertThat(container(template("image: {tag: \"9.9.9\", digest: \"" + digest + "\"}")).getImage())
        .isEqualTo("ghcr.io/stint-dev/stint@" + digest);
    assertThat(container(template("image: {repository: registry.example.com/stint, tag: \"9.9.9\"}")).getImage())
        .isEqualTo("registry.example.com/stint:9.9.9");
    assertRefused("image: {digest: latest}", "at '/image/digest': 'latest' does not match pattern");
  }

  /** serviceAccount.create=false: no ServiceAccount, and every binding and the pod name the existing one. */
  @Test
  void anExistingServiceAccountIsTheOneEveryBindingNames() throws IOException {
    for (String values : List.of("serviceAccount: {create: false, name: ops}",
        "{serviceAccount: {create: false, name: ops}, watchNamespaces: [team-a, team-b]}")) {
      List<HasMetadata> objects = template(values);

      assertThat(objects).as(values).noneMatch(ServiceAccount.class::isInstance);
      assertThat(one(objects, Deployment.class).getSpec().getTemplate().getSpec().getServiceAccountName())
          .isEqualTo("ops");
      List<String> subjects = objects.stream().flatMap(o -> o instanceof ClusterRoleBinding b ? b.getSubjects()
          .stream() : o instanceof RoleBinding b ? b.getSubjects().stream() : Stream.empty())
          .map(subject -> subject.getKind() + " " + subject.getNamespace() + "/" + subject.getName()).toList();
      assertThat(subjects).as("subjects of every binding with %s", values).hasSizeGreaterThanOrEqualTo(2)
          .containsOnly("ServiceAccount stint-system/ops");
    }
    List<HasMetadata> named = template("serviceAccount: {name: ops}");
    assertThat(one(named, ServiceAccount.class).getMetadata().getName()).isEqualTo("ops");
    assertThat(one(named, ClusterRoleBinding.class).getSubjects().get(0).getName()).isEqualTo("ops");
  }

  /** By default the replicas are spread over nodes, softly; the constraints are a value. */
  @Test
  void theReplicasAreSpreadOverNodesByDefault() throws IOException {
    Deployment deployment = one(template("{}"), Deployment.class);
    assertThat(deployment.getSpec().getTemplate().getSpec().getTopologySpreadConstraints()).singleElement()
        .satisfies(c -> {
          assertThat(c.getTopologyKey()).isEqualTo("kubernetes.io/hostname");
          assertThat(c.getWhenUnsatisfiable()).isEqualTo("ScheduleAnyway");
          assertThat(c.getMaxSkew()).isEqualTo(1);
          assertThat(c.getMatchLabelKeys()).containsExactly("pod-template-hash");
          assertThat(c.getLabelSelector()).isEqualTo(deployment.getSpec().getSelector());
        });

    assertThat(one(template("topologySpreadConstraints: []"), Deployment.class).getSpec().getTemplate().getSpec()
        .getTopologySpreadConstraints()).isNullOrEmpty();
    List<TopologySpreadConstraint> zones = one(template("""
        topologySpreadConstraints:
        - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule,
           labelSelector: {matchLabels: {team: ml}}}
        """), Deployment.class).getSpec().getTemplate().getSpec().getTopologySpreadConstraints();
    assertThat(zones).singleElement().satisfies(c -> {
      assertThat(c.getTopologyKey()).isEqualTo("topology.kubernetes.io/zone");
      assertThat(c.getLabelSelector().getMatchLabels()).isEqualTo(Map.of("team", "ml")); // kept as given
    });
    assertRefused("topologySpreadConstraints: [{maxSkew: 1, topologyKey: x, whenUnsatisfiable: Sometimes}]",
        "value must be one of 'DoNotSchedule', 'ScheduleAnyway'");
  }

  /** The limit follows the heap unless set; set too low for the heap, or below the request, it is refused. */
  @Test
  void theMemoryLimitFollowsTheHeap() throws IOException {
    assertThat(memoryLimit("{}")).isEqualTo("768Mi"); // deploy/'s: 384m + 384Mi
    assertThat(memoryLimit("heap: 1g")).isEqualTo("1408Mi");
    assertThat(memoryLimit("heap: 524288k")).isEqualTo("896Mi");
    assertThat(memoryLimit("{heap: 1g, resources: {limits: {memory: 2Gi}}}")).isEqualTo("2Gi");
    assertThat(memoryLimit("{heap: 1g, resources: {limits: {memory: 1.5Gi}}}")).isEqualTo("1.5Gi");
    assertThat(container(template("heap: 1g")).getResources().getRequests()).containsOnlyKeys("cpu", "memory");

    assertRefused("{heap: 1g, resources: {limits: {memory: 1Gi}}}",
        "resources.limits.memory 1Gi is below heap 1g + 384Mi = 1408Mi (the JVM needs about 200 MiB outside its"
            + " heap): raise the limit, or leave it unset to derive it from the heap");
    assertRefused("heap: 64m", "resources.requests.memory 512Mi is above the memory limit 448Mi");
    assertRefused("resources: {limits: {memory: 800m}}",
        "at '/resources/limits/memory': '800m' does not match pattern");
    assertRefused("resources: {limit: {memory: 1Gi}}", "at '/resources': additional properties 'limit' not allowed");
  }

  /**
   * deploy/monitoring/dashboard.json as a ConfigMap for Grafana's sidecar, the same from the chart and from
   * {@code kubectl kustomize deploy/monitoring}; off by default.
   */
  @Test
  void theDashboardIsAConfigMapForGrafanasSidecar() throws IOException {
    JsonNode dashboard = JSON.readTree(LocalCluster.ROOT.resolve("deploy/monitoring/dashboard.json").toFile());
    assertThat(template("{}")).noneMatch(ConfigMap.class::isInstance);

    ConfigMap charted = one(template("metrics: {dashboard: {enabled: true}}"), ConfigMap.class);
    ConfigMap kustomized = one(parse(Kubectl.run("kustomize", LocalCluster.ROOT.resolve("deploy/monitoring")
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

    ConfigMap elsewhere = one(template("""
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
          return parse(Files.readString(f)).stream();
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

    List<CustomResourceDefinition> charted = crds(template("{}"));
    assertThat(charted).extracting(c -> c.getMetadata().getName())
        .containsExactlyElementsOf(files.stream().map(c -> c.getMetadata().getName()).toList());
    for (int i = 0; i < files.size(); i++) {
      CustomResourceDefinition crd = charted.get(i);
      assertThat(crd.getSpec()).as("spec of %s", crd.getMetadata().getName()).isEqualTo(files.get(i).getSpec());
      assertThat(crd.getMetadata().getAnnotations()).containsExactly(Map.entry("helm.sh/resource-policy", "keep"));
      assertThat(crd.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "Helm")
          .containsEntry("app.kubernetes.io/part-of", "stint");
    }
    assertThat(crds(template("crds: {keep: false}"))).hasSize(3)
        .allSatisfy(c -> assertThat(c.getMetadata().getAnnotations()).isNullOrEmpty());
    assertThat(crds(template("crds: {enabled: false}"))).isEmpty();
    assertThat(kinds(template("crds: {enabled: false}")).keySet()).isEqualTo(kinds(template("{}")).keySet().stream()
        .filter(k -> !k.startsWith("CustomResourceDefinition/")).collect(java.util.stream.Collectors.toSet()));
    assertRefused("crds: {enabled: \"no\"}", "at '/crds/enabled': got string, want boolean");
  }

  private static List<CustomResourceDefinition> crds(List<HasMetadata> objects) {
    return objects.stream().filter(CustomResourceDefinition.class::isInstance)
        .map(CustomResourceDefinition.class::cast).toList();
  }

  private static String memoryLimit(String values) throws IOException {
    return container(template(values)).getResources().getLimits().get("memory").toString();
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

  /** {@code helm template stint charts/stint -n stint-system -f <values>}, as objects. */
  private static List<HasMetadata> template(String values) throws IOException {
    return parse(Testbin.helm("template", "stint", CHART, "-n", "stint-system", "-f", valuesFile(values).toString())
        .assertOk().stdout());
  }

  private static Container container(List<HasMetadata> objects) {
    return one(objects, Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
  }

  private static Path valuesFile(String values) throws IOException {
    Path file = Files.createTempFile(Files.createDirectories(LocalCluster.ROOT.resolve("e2e/target")), "values-",
        ".yaml");
    return Files.writeString(file, values);
  }

  private static List<HasMetadata> parse(String yaml) {
    return parser.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items();
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

  private static <T extends HasMetadata> T one(List<HasMetadata> objects, Class<T> type) {
    List<T> found = objects.stream().filter(type::isInstance).map(type::cast).toList();
    assertThat(found).as("objects of kind %s", type.getSimpleName()).hasSize(1);
    return found.get(0);
  }

  /** kind/name (namespace) of each object, counted. */
  private static Map<String, Long> kinds(List<HasMetadata> objects) {
    Map<String, Long> kinds = new TreeMap<>();
    objects.forEach(o -> kinds.merge(o.getKind() + "/" + o.getMetadata().getName()
        + (o.getMetadata().getNamespace() == null ? "" : " in " + o.getMetadata().getNamespace()), 1L, Long::sum));
    return kinds;
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

  /**
   * A kustomization of the user's in e2e/target: deploy/ with one of its components and the flag its comment says
   * to add, spelled as that comment spells it.
   */
  private static String withComponent(String component, String flag) throws IOException {
    Path dir = Files.createTempDirectory(Files.createDirectories(LocalCluster.ROOT.resolve("e2e/target")),
        component + "-");
    Files.writeString(dir.resolve("kustomization.yaml"), """
        apiVersion: kustomize.config.k8s.io/v1beta1
        kind: Kustomization
        resources: [%s]
        components: [%s]
        patches: [{target: {kind: Deployment, name: stint}, patch: '[{"op": "add",
          "path": "/spec/template/spec/containers/0/args/-", "value": "%s"}]'}]
        """.formatted(dir.relativize(LocalCluster.ROOT.resolve("deploy")),
        dir.relativize(LocalCluster.ROOT.resolve("deploy/components/" + component)), flag));
    return LocalCluster.ROOT.relativize(dir).toString();
  }
}
