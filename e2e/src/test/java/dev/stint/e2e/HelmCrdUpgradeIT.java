package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The chart's CRD upgrade path (docs/operations.md, "Upgrade"), with the real helm on the real API server: the chart
 * packaged by bin/release takes over CRDs that kubectl applied (as an older chart's crds/ or a kubectl install left
 * them: no Helm metadata, kubectl's fields) with {@code --take-ownership --force-conflicts}; a {@code helm upgrade} to a
 * chart whose CRD changed changes the CRD on the API server (Helm never touches a crds/ folder on upgrade); with
 * {@code crds.keep} (the default) neither an upgrade with {@code crds.enabled=false} nor {@code helm uninstall} deletes
 * them. The release runs no pod ({@code replicas=0}); the CRDs are applied again from crds/ at the end, as the other
 * ITs expect them.
 */
class HelmCrdUpgradeIT {
  private static final String RELEASE = "stint-crds";
  private static final String NS = "stint-crds";
  private static final String CRD = "pytorchjobs.kubeflow.org";
  private static final String CHANGED = "The desired job, as changed by HelmCrdUpgradeIT's chart.";

  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.crds();

  @AfterAll
  static void restore() {
    Testbin.helm("uninstall", RELEASE, "-n", NS, "--ignore-not-found", "--kubeconfig",
        LocalCluster.kubeconfig().toString());
    Kubectl.run("apply", "--server-side", "--force-conflicts", "-f", LocalCluster.ROOT.resolve("crds").toString())
        .assertOk();
    Kubectl.run("delete", "namespace", NS, "--ignore-not-found", "--wait=false").assertOk();
  }

  @Test
  void helmUpgradeUpdatesTheCrdsAndUninstallKeepsThem() throws IOException {
    String original = specDescription();
    assertThat(original).isNotEqualTo(CHANGED);
    Path chart = ReleaseBuild.chart();

    // CRDs that exist without Helm's metadata are refused unless taken over
    Testbin.Result refused = Testbin.helm(withKubeconfig("install", RELEASE, chart.toString(), "-n", NS,
        "--create-namespace", "--set", "replicas=0", "--dry-run=server"));
    assertThat(refused.exitCode()).as("install over kubectl's CRDs without --take-ownership").isNotZero();
    assertThat(refused.stderr()).contains("invalid ownership metadata");

    helm("install", RELEASE, chart.toString(), "-n", NS, "--create-namespace", "--set", "replicas=0",
        "--take-ownership", "--force-conflicts");
    for (String name : List.of("pytorchjobs.kubeflow.org", "tfjobs.kubeflow.org", "mpijobs.kubeflow.org")) {
      Map<String, String> annotations = crd(name).getMetadata().getAnnotations();
      assertThat(annotations).as("annotations of %s", name).containsEntry("helm.sh/resource-policy", "keep")
          .containsEntry("meta.helm.sh/release-name", RELEASE).containsEntry("meta.helm.sh/release-namespace", NS);
      assertThat(crd(name).getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "Helm");
    }
    assertThat(specDescription()).isEqualTo(original);

    // the next chart: the same, but for one description of its PyTorchJob CRD
    Path next = Files.createTempDirectory(Files.createDirectories(LocalCluster.ROOT.resolve("e2e/target")), "chart-");
    Testbin.run(List.of("tar", "-xzf", chart.toString(), "-C", next.toString()), null, null).assertOk();
    Path file = next.resolve("stint/files/crds/pytorchjobs.kubeflow.org-v1.yml");
    String crdText = Files.readString(file);
    String line = crdText.lines().filter(l -> l.contains("description: \"The desired job")).findFirst().orElseThrow();
    String continued = crdText.substring(crdText.indexOf(line) + line.length() + 1).lines().findFirst().orElseThrow();
    Files.writeString(file, crdText.replace(line + "\n" + continued + "\n",
        line.substring(0, line.indexOf("description:")) + "description: \"" + CHANGED + "\"\n"));
    helm("upgrade", RELEASE, next.resolve("stint").toString(), "-n", NS, "--set", "replicas=0");
    assertThat(specDescription()).as("the CRD after helm upgrade").isEqualTo(CHANGED);

    // keep: an upgrade that leaves the CRDs out of the release, then the uninstall, delete none
    helm("upgrade", RELEASE, next.resolve("stint").toString(), "-n", NS, "--set", "replicas=0", "--set",
        "crds.enabled=false");
    assertThat(helm("get", "manifest", RELEASE, "-n", NS)).doesNotContain("CustomResourceDefinition");
    assertThat(crd(CRD)).as("the CRD after an upgrade with crds.enabled=false").isNotNull();
    helm("upgrade", RELEASE, next.resolve("stint").toString(), "-n", NS, "--set", "replicas=0");
    String uninstalled = helm("uninstall", RELEASE, "-n", NS);
    assertThat(uninstalled).contains("kept due to the resource policy").contains(CRD);
    assertThat(crd(CRD)).as("the CRD after helm uninstall").isNotNull();
    assertThat(specDescription()).isEqualTo(CHANGED);
  }

  private static CustomResourceDefinition crd(String name) {
    return cluster.client().apiextensions().v1().customResourceDefinitions().withName(name).get();
  }

  /** The description of spec in the PyTorchJob CRD's served version. */
  private static String specDescription() {
    return crd(CRD).getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema().getProperties().get("spec")
        .getDescription();
  }

  private static String[] withKubeconfig(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--kubeconfig", LocalCluster.kubeconfig().toString()));
    return all.toArray(String[]::new);
  }

  /** helm against the local cluster, asserting success; its standard output. */
  private static String helm(String... args) {
    return Testbin.helm(withKubeconfig(args)).assertOk().stdout();
  }
}
