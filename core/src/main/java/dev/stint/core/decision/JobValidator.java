package dev.stint.core.decision;

import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.ReplicaSpec;
import io.fabric8.kubernetes.api.model.Container;
import java.util.ArrayList;
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
    errors.addAll(ctx.framework().validate(ctx.job()));
    return errors;
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
