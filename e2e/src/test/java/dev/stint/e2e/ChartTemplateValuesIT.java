package dev.stint.e2e;

import static dev.stint.e2e.HelmTemplate.CHART;
import static dev.stint.e2e.HelmTemplate.assertRefused;
import static dev.stint.e2e.HelmTemplate.container;
import static dev.stint.e2e.HelmTemplate.one;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * charts/stint's values with no variant of deploy/ (security contexts, image digest, an existing ServiceAccount, the
 * spread, the memory limit, the release's name and namespace) do what they say, rendered by the real helm; the values
 * the chart refuses are refused with a message. Needs helm, no cluster.
 */
class ChartTemplateValuesIT {
  /** charts/stint rendered by helm template, as objects. */
  @RegisterExtension
  static final HelmTemplate helm = new HelmTemplate();

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
    assertThat(container(helm.template("kueue: {mode: off}")).getArgs()).noneMatch(a -> a.startsWith("--kueue"));
    assertRefused("frameworks: [jax]", "no job kind is served");
    // alerts with nothing scraped (StintNoLeader fires for ever), a Lease the API server would refuse (a review)
    assertRefused("metrics: {enabled: false, prometheusRule: {enabled: true}}",
        "metrics.serviceMonitor and metrics.prometheusRule need metrics.enabled");
    assertRefused("metrics: {enabled: false, serviceMonitor: {enabled: true}}",
        "metrics.serviceMonitor and metrics.prometheusRule need metrics.enabled");
    assertRefused("leaderElection: {id: Bad_ID}", "leaderElection.id \"Bad_ID\" is not a valid Lease name");
    // the last of a repeated flag wins: extraArgs cannot undo a flag the chart sets (two writers, a port unscraped)
    assertRefused("extraArgs: [--leader-election=false]", "extraArgs: --leader-election is the chart's to set");
    assertRefused("extraArgs: [--verbose, --metrics-port=9999]", "extraArgs: --metrics-port is the chart's");
    assertThat(container(helm.template("extraArgs: [--verbose]")).getArgs()).as("another flag passes")
        .contains("--verbose");
    // one replica without leader election is a valid install (a single writer)
    assertThat(container(helm.template("{replicas: 1, leaderElection: {enabled: false}}")).getArgs())
        .contains("--leader-election=false");
  }


  /** The chart's ServiceAccount, bindings and Lease name follow the release's name and namespace. */
  @Test
  void anotherReleaseNameAndNamespaceNameEverythingAfterThem() throws IOException {
    List<HasMetadata> objects = helm.parse(Testbin.helm("template", "ml", CHART, "-n", "ml-system").assertOk()
        .stdout());

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
    List<HasMetadata> objects = helm.template("""
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
    PodSpec bare = one(helm.template("{podSecurityContext: null, securityContext: null}"), Deployment.class).getSpec()
        .getTemplate().getSpec();
    assertThat(bare.getSecurityContext()).isNull();
    assertThat(bare.getContainers().get(0).getSecurityContext()).isNull();
    assertRefused("podSecurityContext: {runAsUsr: 1000}",
        "at '/podSecurityContext': additional properties 'runAsUsr' not allowed");
  }

  @Test
  void aDigestPinsTheImageAndTheTagIsIgnored() throws IOException {
    String digest = "sha256:" + "0123456789abcdef".repeat(4);

    assertThat(container(helm.template("image: {tag: \"9.9.9\", digest: \"" + digest + "\"}")).getImage())
        .isEqualTo("ghcr.io/stint-dev/stint@" + digest);
    assertThat(container(helm.template("image: {repository: registry.example.com/stint, tag: \"9.9.9\"}")).getImage())
        .isEqualTo("registry.example.com/stint:9.9.9");
    assertRefused("image: {digest: latest}", "at '/image/digest': 'latest' does not match pattern");
  }

  /** serviceAccount.create=false: no ServiceAccount, and every binding and the pod name the existing one. */
  @Test
  void anExistingServiceAccountIsTheOneEveryBindingNames() throws IOException {
    for (String values : List.of("serviceAccount: {create: false, name: ops}",
        "{serviceAccount: {create: false, name: ops}, watchNamespaces: [team-a, team-b]}")) {
      List<HasMetadata> objects = helm.template(values);

      assertThat(objects).as(values).noneMatch(ServiceAccount.class::isInstance);
      assertThat(one(objects, Deployment.class).getSpec().getTemplate().getSpec().getServiceAccountName())
          .isEqualTo("ops");
      List<String> subjects = objects.stream().flatMap(o -> o instanceof ClusterRoleBinding b ? b.getSubjects()
          .stream() : o instanceof RoleBinding b ? b.getSubjects().stream() : Stream.empty())
          .map(subject -> subject.getKind() + " " + subject.getNamespace() + "/" + subject.getName()).toList();
      assertThat(subjects).as("subjects of every binding with %s", values).hasSizeGreaterThanOrEqualTo(2)
          .containsOnly("ServiceAccount stint-system/ops");
    }
    List<HasMetadata> named = helm.template("serviceAccount: {name: ops}");
    assertThat(one(named, ServiceAccount.class).getMetadata().getName()).isEqualTo("ops");
    assertThat(one(named, ClusterRoleBinding.class).getSubjects().get(0).getName()).isEqualTo("ops");
  }

  /** By default the replicas are spread over nodes, softly; the constraints are a value. */
  @Test
  void theReplicasAreSpreadOverNodesByDefault() throws IOException {
    Deployment deployment = one(helm.template("{}"), Deployment.class);
    assertThat(deployment.getSpec().getTemplate().getSpec().getTopologySpreadConstraints()).singleElement()
        .satisfies(c -> {
          assertThat(c.getTopologyKey()).isEqualTo("kubernetes.io/hostname");
          assertThat(c.getWhenUnsatisfiable()).isEqualTo("ScheduleAnyway");
          assertThat(c.getMaxSkew()).isEqualTo(1);
          assertThat(c.getMatchLabelKeys()).containsExactly("pod-template-hash");
          assertThat(c.getLabelSelector()).isEqualTo(deployment.getSpec().getSelector());
        });

    assertThat(one(helm.template("topologySpreadConstraints: []"), Deployment.class).getSpec().getTemplate().getSpec()
        .getTopologySpreadConstraints()).isNullOrEmpty();
    List<TopologySpreadConstraint> zones = one(helm.template("""
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
    assertThat(container(helm.template("heap: 1g")).getResources().getRequests()).containsOnlyKeys("cpu", "memory");

    assertRefused("{heap: 1g, resources: {limits: {memory: 1Gi}}}",
        "resources.limits.memory 1Gi is below heap 1g + 384Mi = 1408Mi (the JVM needs about 200 MiB outside its"
            + " heap): raise the limit, or leave it unset to derive it from the heap");
    assertRefused("heap: 64m", "resources.requests.memory 512Mi is above the memory limit 448Mi");
    assertRefused("resources: {limits: {memory: 800m}}",
        "at '/resources/limits/memory': '800m' does not match pattern");
    assertRefused("resources: {limit: {memory: 1Gi}}", "at '/resources': additional properties 'limit' not allowed");
  }

  private static String memoryLimit(String values) throws IOException {
    return container(helm.template(values)).getResources().getLimits().get("memory").toString();
  }
}
