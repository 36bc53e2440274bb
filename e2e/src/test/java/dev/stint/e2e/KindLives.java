package dev.stint.e2e;

import static dev.stint.e2e.RbacJobs.JAX;
import static dev.stint.e2e.RbacJobs.MPI;
import static dev.stint.e2e.RbacJobs.PYTORCH;
import static dev.stint.e2e.RbacJobs.PYTORCH_ELASTIC;
import static dev.stint.e2e.RbacJobs.TENSORFLOW;
import static dev.stint.e2e.RbacJobs.condition;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.e2e.RbacJobs.Kind;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import java.util.Map;

/**
 * What RbacIT puts every kind through, each kind in a namespace of its own, all at once: a job created, running,
 * suspended (its pods, services and autoscaler deleted), resumed and succeeding; a job deleted by
 * ttlSecondsAfterFinished; a failing replica; the objects a job changes while it runs (an elastic PyTorchJob's
 * autoscaler, an MPIJob's hostfile and Service); and children whose name another object already holds (the
 * operator's create answers 409, it reads the holder, and the job fails).
 */
final class KindLives {
  private static final String LIFE = "life";
  private final KubernetesClient client;
  private final Map<Kind, String> namespaces;
  private final Duration wait;
  private final AuditLog audit;

  /** Each wait ends at once when the audit log shows a request of the operator refused (a rule missing). */
  KindLives(KubernetesClient client, Map<Kind, String> namespaces, Duration wait, AuditLog audit) {
    this.client = client;
    this.namespaces = namespaces;
    this.wait = wait;
    this.audit = audit;
  }

  private ConditionFactory await(String what) {
    return Awaitility.await(what)
        .failFast("the API server refused a request of the operator", audit::anyForbidden);
  }

  void run() {
    String pytorch = namespaces.get(PYTORCH);
    String mpi = namespaces.get(MPI);
    takeNames(pytorch, mpi);
    namespaces.forEach((kind, ns) -> {
      create(ns, kind.running(LIFE));
      create(ns, kind.manifest("ttl", 0, "Never", "{ttlSecondsAfterFinished: 0}", ""));
    });
    create(pytorch, PYTORCH.manifest("failing", 1, "Never", "{}", ""));
    create(pytorch, PYTORCH_ELASTIC.manifest("elastic", null, "OnFailure", "{}", RbacJobs.elasticPolicy(3)));
    create(pytorch, PYTORCH_ELASTIC.manifest("taken-hpa", null, "OnFailure", "{}", RbacJobs.elasticPolicy(3)));
    create(pytorch, PYTORCH.running("taken-pod"));
    create(pytorch, PYTORCH.running("taken-svc"));
    create(mpi, MPI.running("taken-cm"));
    create(mpi, MPI.running("taken-secret"));
    create(mpi, MPI.running("taken-job"));

    namespaces.forEach((kind, ns) -> awaitCondition(kind, ns, LIFE, "Running"));
    namespaces.forEach((kind, ns) -> await("ttl " + kind.kind() + " deleted")
        .until(() -> RbacJobs.get(client, kind, ns, "ttl") == null));
    awaitCondition(PYTORCH, pytorch, "failing", "Failed");
    for (String taken : new String[] {"taken-pod", "taken-svc", "taken-hpa"}) {
      awaitCondition(PYTORCH, pytorch, taken, "Failed");
    }
    awaitCondition(MPI, mpi, "taken-cm", "Failed");
    awaitCondition(MPI, mpi, "taken-secret", "Failed");
    awaitCondition(MPI, mpi, "taken-job", "Failed");
    changeWhileRunning(pytorch, mpi);

    namespaces.forEach((kind, ns) -> RbacJobs.suspend(kind, ns, LIFE, true));
    RbacJobs.suspend(PYTORCH_ELASTIC, pytorch, "elastic", true);
    namespaces.forEach((kind, ns) -> {
      awaitCondition(kind, ns, LIFE, "Suspended");
      await(kind.kind() + " pods gone").until(() -> RbacJobs.pods(client, ns, LIFE).isEmpty());
    });
    await("autoscaler of the suspended elastic job deleted").until(() -> hpa(pytorch, "elastic") == null);

    namespaces.forEach((kind, ns) -> RbacJobs.suspend(kind, ns, LIFE, false));
    namespaces.forEach((kind, ns) -> {
      awaitCondition(kind, ns, LIFE, "Running");
      await(kind.kind() + " pods back")
          .until(() -> RbacJobs.pods(client, ns, LIFE).size() == kind.replicas().values().stream()
              .mapToInt(Integer::intValue).sum());
    });
    namespaces.forEach((kind, ns) -> await(kind.kind() + " " + ns + "/" + LIFE + " Succeeded")
        .until(() -> {
          RbacJobs.finish(client, ns, LIFE, 0);
          return "True".equals(condition(client, kind, ns, LIFE, "Succeeded"));
        }));
  }

  /** An elastic job's autoscaler follows its maxReplicas; an MPIJob's Service follows runLauncherAsWorker. */
  private void changeWhileRunning(String pytorch, String mpi) {
    awaitCondition(PYTORCH_ELASTIC, pytorch, "elastic", "Running");
    await("autoscaler of the elastic job").until(() -> hpa(pytorch, "elastic") != null);
    RbacJobs.patch(PYTORCH_ELASTIC, pytorch, "elastic", "{\"spec\":{\"elasticPolicy\":{\"maxReplicas\":4}}}");
    await("autoscaler's maxReplicas updated")
        .until(() -> hpa(pytorch, "elastic").getSpec().getMaxReplicas() == 4);
    RbacJobs.patch(MPI, mpi, LIFE, "{\"spec\":{\"runLauncherAsWorker\":true}}");
    await("MPIJob's Service updated").until(() -> Boolean.TRUE.equals(
        client.services().inNamespace(mpi).withName(LIFE).get().getSpec().getPublishNotReadyAddresses()));
  }

  /** Objects of other owners holding the names of the taken-* jobs' children. */
  private void takeNames(String pytorch, String mpi) {
    client.pods().inNamespace(pytorch).resource(new PodBuilder().withNewMetadata().withName("taken-pod-master-0")
        .endMetadata().withNewSpec().addNewContainer().withName("c").withImage("busybox").endContainer().endSpec()
        .build()).create();
    client.services().inNamespace(pytorch).resource(new ServiceBuilder().withNewMetadata()
        .withName("taken-svc-master-0").endMetadata().withNewSpec().addNewPort().withPort(80).endPort().endSpec()
        .build()).create();
    client.autoscaling().v2().horizontalPodAutoscalers().inNamespace(pytorch).resource(
        new HorizontalPodAutoscalerBuilder().withNewMetadata().withName("taken-hpa").endMetadata().withNewSpec()
            .withNewScaleTargetRef().withApiVersion("apps/v1").withKind("Deployment").withName("other")
            .endScaleTargetRef().withMaxReplicas(2).endSpec().build()).create();
    client.configMaps().inNamespace(mpi).resource(new ConfigMapBuilder().withNewMetadata().withName("taken-cm-config")
        .endMetadata().build()).create();
    client.secrets().inNamespace(mpi).resource(new SecretBuilder().withNewMetadata().withName("taken-secret-ssh")
        .endMetadata().build()).create();
    // suspended: it holds the launcher Job's name and runs nothing
    client.batch().v1().jobs().inNamespace(mpi).resource(new JobBuilder().withNewMetadata()
        .withName("taken-job-launcher").endMetadata().withNewSpec().withSuspend(true).withNewTemplate().withNewSpec()
        .withRestartPolicy("Never").addNewContainer().withName("c").withImage("busybox").endContainer().endSpec()
        .endTemplate().endSpec().build()).create();
  }

  private io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler hpa(String ns, String name) {
    return client.autoscaling().v2().horizontalPodAutoscalers().inNamespace(ns).withName(name).get();
  }

  private static void create(String ns, String manifest) {
    Kubectl.runWithInput(manifest, "create", "-n", ns, "-f", "-").assertOk();
  }

  private void awaitCondition(Kind kind, String ns, String name, String type) {
    await(kind.kind() + " " + ns + "/" + name + " " + type)
        .until(() -> "True".equals(condition(client, kind, ns, name, type)));
    assertThat(condition(client, kind, ns, name, type)).isEqualTo("True");
  }
}
