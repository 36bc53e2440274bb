package dev.stint.core.decision;

import dev.stint.spi.ReplicaId;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.ReplicaSpec;
import dev.stint.spi.api.SchedulingPolicy;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Gang scheduling as the Kubeflow training operator does it (reference §4.8): a PodGroup named after the job for
 * Volcano ({@code scheduling.volcano.sh/v1beta1}) or scheduler-plugins ({@code scheduling.x-k8s.io/v1alpha1}), the
 * scheduler name and group annotation or label on every pod, and, with Volcano, no pods until the PodGroup is past
 * {@code Pending}. The PodGroup lives while the job runs: suspension and the end delete it, a resume recreates it.
 */
final class GangScheduling {
  static final String VOLCANO_API = "scheduling.volcano.sh/v1beta1";
  static final String PLUGINS_API = "scheduling.x-k8s.io/v1alpha1";

  private GangScheduling() { }

  static <J extends TrainingJob<?>> GenericKubernetesResource podGroup(JobContext<J> ctx) {
    SchedulingPolicy policy = ctx.runPolicy().getSchedulingPolicy() == null ? new SchedulingPolicy()
        : ctx.runPolicy().getSchedulingPolicy();
    // the framework's default for a type whose spec sets no replicas (an MPIJob's Workers: 0), as the engine runs it
    int total = ctx.replicaSpecs().keySet().stream().mapToInt(ctx::specReplicas).sum();
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("minMember", policy.getMinAvailable() != null ? policy.getMinAvailable() : total);
    spec.put("minResources", policy.getMinResources() != null ? policy.getMinResources() : requests(ctx));
    if (ctx.settings().volcano()) {
      spec.put("queue", policy.getQueue() != null ? policy.getQueue() : "default");
      if (policy.getPriorityClass() != null) {
        spec.put("priorityClassName", policy.getPriorityClass());
      }
    } else if (policy.getScheduleTimeoutSeconds() != null) {
      spec.put("scheduleTimeoutSeconds", policy.getScheduleTimeoutSeconds());
    }
    GenericKubernetesResource group = new GenericKubernetesResource();
    group.setApiVersion(ctx.settings().volcano() ? VOLCANO_API : PLUGINS_API);
    group.setKind("PodGroup");
    group.setMetadata(new ObjectMeta());
    group.getMetadata().setName(ctx.name());
    Map<String, String> annotations = ctx.job().getMetadata().getAnnotations();
    group.getMetadata().setAnnotations(annotations == null ? null : new HashMap<>(annotations));
    group.setAdditionalProperty("spec", spec);
    return group;
  }

  /** Requests of every replica (limits where a container requests nothing), summed: the gang's minimum. */
  private static <J extends TrainingJob<?>> Map<String, Quantity> requests(JobContext<J> ctx) {
    Map<String, BigDecimal> sum = new TreeMap<>();
    for (Map.Entry<String, ReplicaSpec> type : ctx.replicaSpecs().entrySet()) {
      ReplicaSpec spec = type.getValue();
      int replicas = ctx.specReplicas(type.getKey());
      if (spec.getTemplate() == null || spec.getTemplate().getSpec() == null) {
        continue;
      }
      for (Container c : spec.getTemplate().getSpec().getContainers()) {
        var resources = c.getResources();
        Map<String, Quantity> amounts = resources == null ? null
            : resources.getRequests() != null && !resources.getRequests().isEmpty() ? resources.getRequests()
            : resources.getLimits();
        if (amounts != null) {
          amounts.forEach((k, q) -> sum.merge(k, q.getNumericalAmount()
              .multiply(BigDecimal.valueOf(replicas)), BigDecimal::add));
        }
      }
    }
    Map<String, Quantity> out = new TreeMap<>();
    sum.forEach((k, v) -> out.put(k, new Quantity(v.stripTrailingZeros().toPlainString())));
    return out;
  }

  /** Scheduler name (unless the template sets one) and the group annotation or label. */
  static <J extends TrainingJob<?>> void decorate(JobContext<J> ctx, ReplicaId replica, Pod pod) {
    if (pod.getSpec().getSchedulerName() == null || pod.getSpec().getSchedulerName().isEmpty()) {
      pod.getSpec().setSchedulerName(ctx.settings().gangScheduler());
    }
    if (ctx.settings().volcano()) {
      Map<String, String> annotations = new HashMap<>(pod.getMetadata().getAnnotations() == null ? Map.of()
          : pod.getMetadata().getAnnotations());
      annotations.put("scheduling.k8s.io/group-name", ctx.name());
      annotations.put("volcano.sh/task-spec", replica.typeLabel());
      pod.getMetadata().setAnnotations(annotations);
    } else {
      pod.getMetadata().getLabels().put("scheduling.x-k8s.io/pod-group", ctx.name());
    }
  }

  /** With Volcano, pods wait until the PodGroup is observed past Pending (Volcano's admission of the gang). */
  static <J extends TrainingJob<?>> boolean podsMayStart(JobContext<J> ctx, Observed observed) {
    if (!ctx.settings().volcano()) {
      return true;
    }
    Optional<HasMetadata> group = observed.supporting().stream()
        .filter(r -> "PodGroup".equals(r.getKind()) && ctx.name().equals(r.getMetadata().getName())).findFirst();
    String phase = group.map(GangScheduling::phase).orElse(null);
    return phase != null && !phase.isEmpty() && !"Pending".equals(phase);
  }

  @SuppressWarnings("unchecked")
  private static String phase(HasMetadata group) {
    if (!(group instanceof GenericKubernetesResource g) || !(g.getAdditionalProperties().get("status") instanceof Map)) {
      return null;
    }
    Object phase = ((Map<String, Object>) g.getAdditionalProperties().get("status")).get("phase");
    return phase == null ? null : phase.toString();
  }
}
