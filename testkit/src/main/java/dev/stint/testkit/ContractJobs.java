package dev.stint.testkit;

import dev.stint.core.decision.Decision;
import dev.stint.core.decision.JobContext;
import dev.stint.core.decision.JobDecider;
import dev.stint.core.decision.Observed;
import dev.stint.core.model.Action;
import dev.stint.core.model.EngineFramework;
import dev.stint.spi.ReplicaOutcomes;
import dev.stint.spi.SupportingResource;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link FrameworkContractTest} does to a framework's jobs and pods: the engine's decision on them, jobs changed
 * through their JSON as a user would write them, pods as the kubelet leaves them.
 */
final class ContractJobs {
  static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  static final ReplicaOutcomes NO_OUTCOMES = new ReplicaOutcomes(Map.of());
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private ContractJobs() {
  }

  /**
   * The engine's decision on {@code job} with these pods. Objects created once with content made lazily (a generated
   * key) are observed as already there, as they are from the second pass on: their content is random by design.
   */
  static <J extends TrainingJob<?>> Decision decide(TrainingFramework<J> framework, J job, List<Pod> pods) {
    List<HasMetadata> createdOnce = EngineFramework.of(framework).supportingResources(job, NO_OUTCOMES).stream()
        .filter(r -> r.content() != null).map(SupportingResource::resource).toList();
    return JobDecider.decide(new JobContext<>(job, framework, NOW), new Observed(pods, List.of(), createdOnce));
  }

  static List<Pod> createdPods(Decision decision) {
    return decision.actions().stream().filter(a -> a instanceof Action.CreatePod)
        .map(a -> ((Action.CreatePod) a).pod()).toList();
  }

  /** The job with {@code spec.runPolicy.<field>} set, through its JSON as a user writes it. */
  @SuppressWarnings("unchecked")
  static <J extends TrainingJob<?>> J withRunPolicy(TrainingFramework<J> framework, J job, String field,
                                                    Object value) {
    Map<String, Object> manifest = manifest(framework, job);
    Map<String, Object> spec = (Map<String, Object>) manifest.get("spec");
    ((Map<String, Object>) spec.computeIfAbsent("runPolicy", k -> new LinkedHashMap<String, Object>()))
        .put(field, value);
    return fromManifest(framework, manifest);
  }

  /** The job with this status, through JSON (the SPI's job has no status setter). */
  static <J extends TrainingJob<?>> J withStatus(TrainingFramework<J> framework, J job, JobStatus status) {
    Map<String, Object> manifest = manifest(framework, job);
    manifest.put("status", JSON.unmarshal(JSON.asJson(status), Map.class));
    return fromManifest(framework, manifest);
  }

  /** The pod as the kubelet leaves it: running, or ended with this exit code in every container. */
  static Pod ended(Pod pod, String phase, Integer exitCode) {
    Pod copy = JSON.unmarshal(JSON.asJson(pod), Pod.class);
    copy.setStatus(new PodStatusBuilder().withPhase(phase)
        .withContainerStatuses(copy.getSpec().getContainers().stream().map(c -> {
          var status = new ContainerStatusBuilder().withName(c.getName());
          if (exitCode == null) {
            status.withNewState().withNewRunning().endRunning().endState();
          } else {
            status.withNewState().withNewTerminated().withExitCode(exitCode).endTerminated().endState();
          }
          return status.build();
        }).toList()).build());
    return copy;
  }

  @SuppressWarnings("unchecked")
  private static <J extends TrainingJob<?>> Map<String, Object> manifest(TrainingFramework<J> framework, J job) {
    return serialization(framework).unmarshal(JSON.asJson(job), Map.class);
  }

  private static <J extends TrainingJob<?>> J fromManifest(TrainingFramework<J> framework,
                                                         Map<String, Object> manifest) {
    KubernetesSerialization serialization = serialization(framework);
    return serialization.unmarshal(serialization.asJson(manifest), framework.jobType());
  }

  private static KubernetesSerialization serialization(TrainingFramework<?> framework) {
    KubernetesSerialization serialization = new KubernetesSerialization();
    serialization.registerKubernetesResource(framework.jobType());
    return serialization;
  }
}
