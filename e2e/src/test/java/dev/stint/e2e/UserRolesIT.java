package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * deploy/'s {@code stint-edit} and {@code stint-view} on the real API server, whose clusterrole-aggregation
 * controller merges them into the built-in roles: a user bound only to {@code edit} in a namespace creates, suspends,
 * resumes and deletes a PyTorchJob there, as a user of a fresh cluster would; one bound only to {@code view} reads it
 * and is refused every change. No operator runs: these are the users' rights, not Stint's.
 */
class UserRolesIT {
  /** The aggregation controller acts on a watch; far above what it needs. */
  private static final Duration AGGREGATED = Duration.ofSeconds(90);
  private static final String EDITOR = "alice";
  private static final String VIEWER = "bob";
  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.namespace("user-roles");

  @BeforeAll
  static void install() {
    List<HasMetadata> deploy = DeployedOperator.build(cluster.client(), "deploy");
    List<ClusterRole> userRoles = deploy.stream().filter(ClusterRole.class::isInstance).map(ClusterRole.class::cast)
        .filter(r -> r.getMetadata().getName().startsWith("stint-")).toList();
    assertThat(userRoles).extracting(r -> r.getMetadata().getName()).containsExactly("stint-edit", "stint-view");
    // kubectl's field manager, as deploy/ is applied by RbacIT and a user, so that a later apply owns the rules too
    String yaml = userRoles.stream().map(r -> cluster.client().getKubernetesSerialization().asYaml(r))
        .collect(java.util.stream.Collectors.joining("\n---\n"));
    Kubectl.runWithInput(yaml, "apply", "--server-side", "-f", "-").assertOk();
    bind(EDITOR, "edit");
    bind(VIEWER, "view");
  }

  /** The roles are cluster-wide: gone with the test, as the chart's install (HelmInstallIT) takes their names. */
  @AfterAll
  static void uninstall() {
    Kubectl.run("delete", "clusterrole", "stint-edit", "stint-view", "--ignore-not-found").assertOk();
  }

  @Test
  void aUserBoundToEditRunsSuspendsAndDeletesAJob() {
    awaitAllowed(EDITOR, "create");

    as(EDITOR, MnistJob.manifest("by-editor", 1), "apply", "-f", "-").assertOk();
    as(EDITOR, null, "patch", "pytorchjob", "by-editor", "--type", "merge",
        "-p", "{\"spec\":{\"runPolicy\":{\"suspend\":true}}}").assertOk();
    assertThat(as(EDITOR, null, "get", "pytorchjob", "by-editor", "-o", "jsonpath={.spec.runPolicy.suspend}")
        .assertOk().stdout()).isEqualTo("true");
    as(EDITOR, null, "patch", "pytorchjob", "by-editor", "--type", "merge",
        "-p", "{\"spec\":{\"runPolicy\":{\"suspend\":false}}}").assertOk();
    as(EDITOR, null, "get", "pytorchjob", "by-editor", "-o", "jsonpath={.status}").assertOk();
    as(EDITOR, null, "delete", "pytorchjob", "by-editor", "--wait=false").assertOk();
  }

  @Test
  void aUserBoundToViewReadsAJobAndChangesNothing() {
    awaitAllowed(VIEWER, "list");
    MnistJob.apply(cluster.ns(), "for-viewer", 1);

    assertThat(as(VIEWER, null, "get", "pytorchjobs", "-o", "name").assertOk().stdout())
        .contains("pytorchjob.kubeflow.org/for-viewer");
    for (List<String> change : List.of(
        List.of("patch", "pytorchjob", "for-viewer", "--type", "merge", "-p",
            "{\"spec\":{\"runPolicy\":{\"suspend\":true}}}"),
        List.of("delete", "pytorchjob", "for-viewer", "--wait=false"))) {
      Kubectl.Result refused = as(VIEWER, null, change.toArray(String[]::new));
      assertThat(refused.exitCode()).as("kubectl %s as %s", change, VIEWER).isNotZero();
      assertThat(refused.stderr()).contains("forbidden");
    }
    Kubectl.Result create = as(VIEWER, MnistJob.manifest("by-viewer", 1), "apply", "-f", "-");
    assertThat(create.exitCode()).isNotZero();
    assertThat(create.stderr()).contains("forbidden");
    assertThat(as(VIEWER, null, "get", "pytorchjob", "for-viewer", "-o", "jsonpath={.spec.runPolicy.suspend}")
        .assertOk().stdout()).as("not suspended by the refused patch").isNotEqualTo("true");
  }

  private static void bind(String user, String role) {
    cluster.client().resource(new RoleBindingBuilder().withNewMetadata().withName(user + "-" + role)
        .withNamespace(cluster.ns()).endMetadata()
        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", role)
        .addNewSubject().withApiGroup("rbac.authorization.k8s.io").withKind("User").withName(user).endSubject()
        .build()).serverSideApply();
  }

  /** Until the aggregation controller has merged stint's rules into the built-in role the user is bound to. */
  private static void awaitAllowed(String user, String verb) {
    await().atMost(AGGREGATED).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
        assertThat(as(user, null, "auth", "can-i", verb, "pytorchjobs.kubeflow.org").stdout().strip())
            .isEqualTo("yes"));
  }

  private static Kubectl.Result as(String user, String stdin, String... args) {
    List<String> all = new java.util.ArrayList<>(List.of("--as=" + user, "-n", cluster.ns()));
    all.addAll(List.of(args));
    return Kubectl.runWithInput(stdin, all.toArray(String[]::new));
  }
}
