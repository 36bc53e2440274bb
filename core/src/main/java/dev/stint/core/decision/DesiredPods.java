package dev.stint.core.decision;

import dev.stint.core.model.JobLabels;
import dev.stint.spi.ContainerEnv;
import dev.stint.spi.KubeflowLabels;
import dev.stint.spi.ReplicaHosts;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.ReplicaSpec;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the pod of one replica from the job's current template: the template copied, Kubeflow's name, labels and
 * owner reference, the replica restart policy, the framework's default port, then the framework's own wiring.
 */
final class DesiredPods {

  private DesiredPods() { }

  /** @param attempt the job's attempt ({@code status.restarts}), written on the pod when it has a failure policy */
  static <J extends TrainingJob<?>> Pod build(JobContext<J> ctx, ReplicaId replica, int attempt) {
    ReplicaSpec spec = ctx.replicaSpecs().get(replica.type());
    PodTemplateSpec template = spec.getTemplate() == null ? new PodTemplateSpec()
        : ModelJson.copy(spec.getTemplate(), PodTemplateSpec.class);
    ObjectMeta meta = template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
    Pod pod = new Pod();
    pod.setMetadata(new ObjectMeta());
    pod.getMetadata().setName(ctx.podName(replica));
    pod.getMetadata().setNamespace(ctx.namespace());
    pod.getMetadata().setLabels(labels(ctx, replica, meta.getLabels()));
    pod.getMetadata().setAnnotations(meta.getAnnotations() == null ? null : new LinkedHashMap<>(meta.getAnnotations()));
    pod.getMetadata().setOwnerReferences(List.of(ctx.ownerReference()));
    PodSpec podSpec = template.getSpec() == null ? new PodSpec() : template.getSpec();
    String policy = ctx.restartPolicy(replica.type());
    boolean gang = ctx.facts().gang();
    // with a failure policy, a container that exits ends its pod: restarted in place, it could not rejoin the gang
    podSpec.setRestartPolicy(gang ? RestartPolicies.NEVER : RestartPolicies.podRestartPolicy(policy));
    pod.setSpec(podSpec);
    addDefaultPort(ctx, podSpec);
    if (ctx.jobService()) {
      // <pod>.<job>: the job's one Service gives the pod its DNS name (ReplicaHosts)
      podSpec.setHostname(pod.getMetadata().getName());
      podSpec.setSubdomain(ReplicaHosts.jobService(ctx.job()));
      if (Boolean.TRUE.equals(podSpec.getHostNetwork()) && podSpec.getDnsPolicy() == null) {
        // on the node's network a pod would resolve with the node's DNS, which knows no <pod>.<job>
        podSpec.setDnsPolicy("ClusterFirstWithHostNet");
      }
    }
    ctx.gate().podSet(replica.type()).ifPresent(info -> admitted(pod, info));
    ctx.framework().wire(ctx.job(), replica, pod);
    if (ctx.settings().gangScheduling()) {
      GangScheduling.decorate(ctx, replica, pod);
    }
    if (gang) {
      attempt(pod, attempt); // after the framework's variables, so theirs keep upstream's order
    }
    return pod;
  }

  /**
   * The attempt, for people and tools (label and annotation, as JobSet's) and for the training code (a variable in
   * every container, init containers included, so that a script can resume from its checkpoint and log the attempt).
   */
  private static void attempt(Pod pod, int attempt) {
    String value = Integer.toString(attempt);
    pod.getMetadata().getLabels().put(KubeflowLabels.RESTART_ATTEMPT, value);
    Map<String, String> annotations = pod.getMetadata().getAnnotations() == null ? new LinkedHashMap<>()
        : pod.getMetadata().getAnnotations();
    annotations.put(KubeflowLabels.RESTART_ATTEMPT, value);
    pod.getMetadata().setAnnotations(annotations);
    List<EnvVar> env = List.of(new EnvVar(KubeflowLabels.RESTART_ATTEMPT_ENV, value, null));
    if (pod.getSpec().getContainers() != null) {
      ContainerEnv.appendToEach(pod, env);
    }
    if (pod.getSpec().getInitContainers() != null) {
      pod.getSpec().getInitContainers().forEach(c -> ContainerEnv.append(c, env));
    }
  }

  /**
   * What Kueue's admission puts into the pods ({@code podset.Merge}): the flavors' node labels and tolerations, the
   * admission checks' updates, Kueue's labels and annotation. Built into the pod, never into the job: once evicted,
   * the job's pods are made from the templates as they are.
   */
  private static void admitted(Pod pod, PodSetInfo info) {
    ObjectMeta meta = pod.getMetadata();
    meta.setLabels(merged(meta.getLabels(), info.labels()));
    meta.setAnnotations(merged(meta.getAnnotations(), info.annotations()));
    pod.getSpec().setNodeSelector(merged(pod.getSpec().getNodeSelector(), info.nodeSelector()));
    pod.getSpec().setTolerations(PodSetInfo.withTolerations(pod.getSpec().getTolerations(), info.tolerations()));
    if (!info.schedulingGates().isEmpty()) {
      List<PodSchedulingGate> gates = pod.getSpec().getSchedulingGates() == null ? new ArrayList<>()
          : new ArrayList<>(pod.getSpec().getSchedulingGates());
      info.schedulingGates().stream().filter(g -> gates.stream().noneMatch(p -> g.equals(p.getName())))
          .forEach(g -> gates.add(new PodSchedulingGate(g)));
      pod.getSpec().setSchedulingGates(gates);
    }
  }

  /** Kueue's value wins over the template's for the same key, as the admission decided on it. */
  private static Map<String, String> merged(Map<String, String> existing, Map<String, String> added) {
    if (added.isEmpty()) {
      return existing;
    }
    Map<String, String> result = existing == null ? new LinkedHashMap<>() : new LinkedHashMap<>(existing);
    result.putAll(added);
    return result;
  }

  private static <J extends TrainingJob<?>> Map<String, String> labels(JobContext<J> ctx, ReplicaId replica,
                                                                       Map<String, String> templateLabels) {
    Map<String, String> labels = new LinkedHashMap<>();
    if (templateLabels != null) {
      labels.putAll(templateLabels);
    }
    // operator labels override template labels of the same key, as upstream
    labels.putAll(JobLabels.ofReplica(ctx.controllerName(), ctx.name(), replica));
    if (ctx.framework().isLeader(ctx.job(), replica)) {
      labels.put(JobLabels.JOB_ROLE, "master");
    }
    return labels;
  }

  /** Adds the framework port to the default container (or the first) unless a port of that name exists. */
  static <J extends TrainingJob<?>> void addDefaultPort(JobContext<J> ctx, PodSpec spec) {
    Container container = ctx.defaultContainer(spec);
    if (container == null || !ctx.defaults().hasPort()) {
      return;
    }
    List<ContainerPort> ports = container.getPorts() == null ? new ArrayList<>() : new ArrayList<>(container.getPorts());
    boolean present = ports.stream().anyMatch(p -> ctx.defaults().portName().equals(p.getName()));
    if (!present) {
      ports.add(new ContainerPortBuilder().withName(ctx.defaults().portName())
          .withContainerPort(ctx.defaults().port()).build());
      container.setPorts(ports);
    }
  }
}
