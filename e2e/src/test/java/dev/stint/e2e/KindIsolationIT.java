package dev.stint.e2e;

import static dev.stint.e2e.RbacJobs.JAX;
import static dev.stint.e2e.RbacJobs.PYTORCH;
import static dev.stint.e2e.RbacJobs.TENSORFLOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.e2e.RbacJobs.Kind;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One kind the operator cannot serve stops that kind only. The operator runs as deploy/'s ServiceAccount, whose
 * ClusterRole has no rule for the JAXJob plugin's kind: PyTorchJobs and TFJobs run to the end, the log says once, in
 * one line without a stack trace, which right is missing, {@code /readyz} stays ready and names the kind,
 * {@code stint_kind_served} is 0 for it and a Warning event is on the operator's Pod. Granted the rule, the same
 * process serves JAXJobs. Then the JAXJob CRD is deleted while running: the other kinds go on, and once the CRD is
 * applied again, JAXJobs run again, still in the same process.
 */
class KindIsolationIT {
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final String POD = "stint-iso-0";
  private static final String JAX_CRD = "examples/plugins/jax/crds";
  private static final String MISSING_RIGHT = "JAXJob is not served: the service account may not list "
      + "jaxjobs.kubeflow.org cluster-wide, watch jaxjobs.kubeflow.org cluster-wide, patch "
      + "jaxjobs.kubeflow.org/status cluster-wide";
  private static final String MISSING_CRD = "JAXJob is not served: CRD jaxjobs.kubeflow.org is not installed";

  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.crds().withCrdsFrom(JAX_CRD);

  @Test
  void aKindThatCannotBeServedIsDownAloneAndComesBackInTheSameProcess() throws Exception {
    DeployedOperator.apply("deploy"); // its ClusterRole: the built-in kinds only
    List<HasMetadata> deploy = DeployedOperator.build(cluster.client(), "deploy");
    Path kubeconfig = DeployedOperator.serviceAccountKubeconfig();
    freshLease();
    String ns = LocalCluster.namespace(cluster.client(), "kind-iso");
    int metricsPort = DeployedMetrics.freePort();
    int healthPort = DeployedMetrics.freePort();
    try (OperatorProcess operator = DeployedOperator.start(deploy, kubeconfig, POD, metricsPort, healthPort,
        JaxPluginJar.build())) {
      operator.awaitStarted(WAIT);
      long pid = operator.pid();

      runsToSuccess(PYTORCH, ns, "pt-1");
      runsToSuccess(TENSORFLOW, ns, "tf-1");
      await("JAXJob down, named").atMost(WAIT).until(() -> operator.log().contains(MISSING_RIGHT));
      assertThat(linesWith(operator.log(), "JAXJob is not served")).as("lines about it; %s", operator.logFile())
          .hasSize(1).allSatisfy(line -> assertThat(line).contains(MISSING_RIGHT));
      assertThat(stackTraceLines(operator.log())).as("stack traces in %s", operator.logFile()).isEmpty();
      String readyz = readyz(healthPort, 200);
      assertThat(readyz).startsWith("ready: leader").contains("not served: JAXJob: the service account may not list");
      assertThat(served(metricsPort, "JAXJob")).isZero();
      assertThat(served(metricsPort, "PyTorchJob")).isOne();
      assertThat(served(metricsPort, "TFJob")).isOne();
      await("Warning event on the operator's pod").atMost(WAIT).until(() -> podEvents("KindNotServed").stream()
          .anyMatch(e -> "Warning".equals(e.getType()) && e.getMessage().startsWith("JAXJob is not served")));

      grantJax();
      await("JAXJob served once granted").atMost(WAIT).until(() -> served(metricsPort, "JAXJob") == 1);
      runsToSuccess(JAX, ns, "jax-1");
      assertThat(readyz(healthPort, 200)).doesNotContain("not served");

      Kubectl.run("delete", "crd", "jaxjobs.kubeflow.org", "--wait=true").assertOk();
      await("JAXJob down once its CRD is gone").atMost(WAIT).until(() -> operator.log().contains(MISSING_CRD));
      assertThat(served(metricsPort, "JAXJob")).isZero();
      runsToSuccess(PYTORCH, ns, "pt-2");
      assertThat(readyz(healthPort, 200)).contains("not served: JAXJob: CRD jaxjobs.kubeflow.org is not installed");

      Kubectl.run("apply", "--server-side", "--force-conflicts", "-f",
          LocalCluster.ROOT.resolve(JAX_CRD).toString()).assertOk();
      await("JAXJob served once its CRD is back").atMost(WAIT).until(() -> served(metricsPort, "JAXJob") == 1);
      runsToSuccess(JAX, ns, "jax-2");
      runsToSuccess(TENSORFLOW, ns, "tf-2");

      assertThat(operator.alive()).as("the operator is up; %s", operator.logFile()).isTrue();
      assertThat(operator.pid()).as("the same process").isEqualTo(pid);
      assertThat(linesWith(operator.log(), "JAXJob is served again")).hasSize(2);
      assertThat(stackTraceLines(operator.log())).as("stack traces in %s", operator.logFile()).isEmpty();
    } finally {
      Kubectl.run("delete", "clusterrolebinding", "stint-jax", "--ignore-not-found");
      Kubectl.run("delete", "clusterrole", "stint-jax", "--ignore-not-found");
      Kubectl.run("apply", "--server-side", "--force-conflicts", "-f", LocalCluster.ROOT.resolve(JAX_CRD).toString());
      cluster.client().namespaces().withName(ns).delete();
    }
  }

  private static void freshLease() {
    cluster.client().leases().inNamespace("stint-system").withName("stint").delete();
    await().atMost(WAIT)
        .until(() -> cluster.client().leases().inNamespace("stint-system").withName("stint").get() == null);
  }

  /** What deploy/overlays/plugins adds for the JAXJob kind, as a ClusterRole of its own. */
  private static void grantJax() {
    Kubectl.run("create", "clusterrole", "stint-jax", "--verb=list,watch,delete",
        "--resource=jaxjobs.kubeflow.org").assertOk();
    Kubectl.run("patch", "clusterrole", "stint-jax", "--type=json", "-p",
        "[{\"op\":\"add\",\"path\":\"/rules/-\",\"value\":{\"apiGroups\":[\"kubeflow.org\"],"
            + "\"resources\":[\"jaxjobs/status\"],\"verbs\":[\"patch\"]}},"
            + "{\"op\":\"add\",\"path\":\"/rules/-\",\"value\":{\"apiGroups\":[\"kubeflow.org\"],"
            + "\"resources\":[\"jaxjobs/finalizers\"],\"verbs\":[\"update\"]}}]").assertOk();
    Kubectl.run("create", "clusterrolebinding", "stint-jax", "--clusterrole=stint-jax",
        "--serviceaccount=stint-system:stint").assertOk();
  }

  private static void runsToSuccess(Kind kind, String ns, String name) {
    Kubectl.runWithInput(kind.manifest(name, 0, "Never", "{}", ""), "create", "-n", ns, "-f", "-").assertOk();
    await(kind.kind() + " " + name + " succeeded").atMost(WAIT)
        .until(() -> "True".equals(RbacJobs.condition(cluster.client(), kind, ns, name, "Succeeded")));
  }

  private static double served(int metricsPort, String kind) throws IOException, InterruptedException {
    return DeployedMetrics.scrape(metricsPort).value("stint_kind_served", "kind", kind);
  }

  private static String readyz(int healthPort, int expectedCode) throws IOException, InterruptedException {
    HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + healthPort + "/readyz")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as("/readyz: %s", response.body()).isEqualTo(expectedCode);
    return response.body();
  }

  private static List<Event> podEvents(String reason) {
    return cluster.client().v1().events().inNamespace("stint-system").list().getItems().stream()
        .filter(e -> POD.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason())).toList();
  }

  private static List<String> linesWith(String log, String text) {
    return log.lines().filter(line -> line.contains(text)).toList();
  }

  private static List<String> stackTraceLines(String log) {
    return log.lines().filter(line -> line.startsWith("\tat ") || line.startsWith("Caused by: ")).toList();
  }
}
