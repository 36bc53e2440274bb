package dev.stint.core.decision;

import dev.stint.spi.ReplicaId;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.ReplicaLimits;
import dev.stint.spi.api.ReplicaSpec;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checks the engine makes before it creates anything, whatever the CRD already enforced: the CRD may be an older
 * one, or a client may bypass it. Each message names the field.
 */
final class JobValidator {
  private static final Set<String> RESTART_POLICIES = Set.of("Always", "OnFailure", "Never", "ExitCode");

  private JobValidator() { }

  static <J extends TrainingJob<?>> List<String> validate(JobContext<J> ctx) {
    List<String> errors = new ArrayList<>();
    String field = "spec." + (ctx.job().getSpec() == null ? "replicaSpecs" : ctx.job().getSpec().replicaSpecsField());
    Map<String, ReplicaSpec> specs = ctx.replicaSpecs();
    if (specs.isEmpty()) {
      errors.add(field + ": must have at least one replica type");
    }
    specs.forEach((type, spec) -> validateReplica(ctx, field + "." + type, type, spec, errors));
    if (errors.isEmpty()) {
      validateSize(ctx, field, errors);
    }
    if (errors.isEmpty() && !(ctx.gate() instanceof KueueGate.NotQueued)) {
      validateTopology(ctx, field, errors); // Kueue's webhook checks them for its own kinds; Stint has none
    }
    if (ctx.jobService() && !ctx.name().matches("[a-z]([-a-z0-9]{0,61}[a-z0-9])?")) {
      errors.add("spec.runPolicy.serviceMode: PerJob names the job's Service and its pods' subdomain after the job, "
          + "so metadata.name must be a DNS label that starts with a letter (a-z, 0-9 and '-', at most 63), not "
          + ctx.name());
    }
    errors.addAll(ctx.framework().validate(ctx.job()));
    return errors;
  }

  /** Kueue's topology annotations of each template, and the groups they form ({@link TopologyRequest}). */
  private static <J extends TrainingJob<?>> void validateTopology(JobContext<J> ctx, String field,
                                                                  List<String> errors) {
    Map<String, TopologyRequest> requests = new LinkedHashMap<>();
    Map<String, Integer> counts = new LinkedHashMap<>();
    java.util.function.Function<String, String> fieldOf = type -> field + "." + type + ".template.metadata.annotations";
    ctx.replicaSpecs().forEach((type, spec) -> {
      Map<String, String> annotations = spec.getTemplate() == null || spec.getTemplate().getMetadata() == null ? null
          : spec.getTemplate().getMetadata().getAnnotations();
      errors.addAll(TopologyRequest.errors(fieldOf.apply(type), annotations));
      requests.put(type, TopologyRequest.of(annotations));
      counts.put(type, ctx.specReplicas(type));
    });
    if (errors.isEmpty()) {
      errors.addAll(TopologyRequest.groupErrors(requests, counts, fieldOf));
    }
  }

  /**
   * The limits of {@link ReplicaLimits}, with the kind's own pod names (a plugin's may differ from Kubeflow's): the
   * longest pod name, which is also its service's and its hostname, must fit a DNS label.
   */
  private static <J extends TrainingJob<?>> void validateSize(JobContext<J> ctx, String field, List<String> errors) {
    long total = 0;
    String longest = "";
    for (String type : ctx.replicaSpecs().keySet()) {
      int replicas = ctx.replicas(type);
      total += replicas;
      if (replicas > ReplicaLimits.MAX_PER_TYPE) {
        errors.add(field + "." + type + ".replicas: must be no more than " + ReplicaLimits.MAX_PER_TYPE);
      } else if (replicas > 0) {
        String last = ctx.podName(new ReplicaId(type, replicas - 1));
        longest = last.length() > longest.length() ? last : longest;
      }
    }
    if (total > ReplicaLimits.MAX_PER_JOB) {
      errors.add(field + ": at most " + ReplicaLimits.MAX_PER_JOB + " replicas in all, not " + total);
    }
    if (longest.length() > ReplicaLimits.MAX_NAME) {
      int room = ReplicaLimits.MAX_NAME - (longest.length() - ctx.name().length());
      errors.add("metadata.name: must be no more than " + Math.max(room, 0) + " characters for this job: its pod and "
          + "service " + longest + " would be " + longest.length() + " characters, and such names are at most "
          + ReplicaLimits.MAX_NAME);
    }
  }

  private static <J extends TrainingJob<?>> void validateReplica(JobContext<J> ctx, String field, String type,
                                                                 ReplicaSpec spec, List<String> errors) {
    if (!ctx.framework().replicaTypes().contains(type)) {
      errors.add(field + ": unknown replica type " + type + "; allowed: "
          + String.join(", ", ctx.framework().replicaTypes()));
      return;
    }
    if (spec == null) {
      errors.add(field + ": must not be null");
      return;
    }
    if (spec.getReplicas() != null && spec.getReplicas() < 0) {
      errors.add(field + ".replicas: must be 0 or more");
    }
    if (spec.getRestartPolicy() != null && !spec.getRestartPolicy().isEmpty()
        && !RESTART_POLICIES.contains(spec.getRestartPolicy())) {
      errors.add(field + ".restartPolicy: must be one of Always, OnFailure, Never, ExitCode");
    }
    if (spec.getTemplate() != null && spec.getTemplate().getMetadata() != null) {
      ObjectMeta meta = spec.getTemplate().getMetadata();
      errors.addAll(MetadataSyntax.labelErrors(field + ".template.metadata.labels", meta.getLabels()));
      errors.addAll(MetadataSyntax.annotationErrors(field + ".template.metadata.annotations", meta.getAnnotations()));
    }
    List<Container> containers = spec.getTemplate() == null || spec.getTemplate().getSpec() == null ? null
        : spec.getTemplate().getSpec().getContainers();
    String containersField = field + ".template.spec.containers";
    if (containers == null || containers.isEmpty()) {
      errors.add(containersField + ": must have at least one container");
      return;
    }
    for (int i = 0; i < containers.size(); i++) {
      Container c = containers.get(i);
      if (c.getImage() == null || c.getImage().isBlank()) {
        errors.add(containersField + "[" + i + "].image: must not be empty");
      }
    }
    String name = ctx.defaults().containerName();
    if (name != null && containers.stream().noneMatch(c -> name.equals(c.getName()))) {
      errors.add(containersField + ": must have a container named " + name);
    }
  }
}
