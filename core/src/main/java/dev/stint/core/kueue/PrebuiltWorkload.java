package dev.stint.core.kueue;

import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Kueue's prebuilt Workloads ({@code jobframework}'s {@code ensurePrebuiltWorkloadOwnership} and
 * {@code ensurePrebuiltWorkloadInSync}): a job that names a Workload made before it, as MultiKueue's worker copy of a
 * job does, adopts that Workload instead of creating one. The job becomes its controller owner, and it gets the
 * job-uid label and Stint's label (Stint's informer selects by it). A prebuilt Workload whose podSets do not say
 * what the job asks for is finished as {@code OutOfSync}, and the job waits. Pure.
 */
public final class PrebuiltWorkload {
  static final String OUT_OF_SYNC = "OutOfSync";
  static final String OUT_OF_SYNC_MESSAGE = "The prebuilt workload is out of sync with its user job";

  private PrebuiltWorkload() { }

  /**
   * The writes for a job with a prebuilt Workload, before any other: adopt it while the job has none; finish it as
   * {@code OutOfSync} when its podSets (names and counts) differ from the job's. Empty: the usual protocol goes on.
   *
   * @param name the Workload the job names
   * @param workload the job's Workload as Stint's informer sees it; null until adopted
   */
  public static List<WorkloadWrite> decide(String name, WorkloadView workload, WorkloadFor.PodSets podSets,
                                           Instant now) {
    if (workload == null) {
      return List.of(new WorkloadWrite.Adopt(name));
    }
    if (workload.isTrue("Finished") || workload.deleting() || inSync(workload, podSets)) {
      return List.of();
    }
    return List.of(new WorkloadWrite.ApplyCondition(new WorkloadCondition("Finished", "True", OUT_OF_SYNC,
        OUT_OF_SYNC_MESSAGE, now.truncatedTo(ChronoUnit.SECONDS).toString(), workload.generation()),
        WorkloadSync.FINISHED_MANAGER));
  }

  /** Whether the Workload's podSets have the job's names and counts, in the job's order. */
  static boolean inSync(WorkloadView workload, WorkloadFor.PodSets podSets) {
    Map<String, Integer> wanted = new LinkedHashMap<>();
    podSets.podSets().forEach(p -> wanted.put((String) p.get("name"), ((Number) p.get("count")).intValue()));
    return new ArrayList<>(wanted.entrySet()).equals(new ArrayList<>(workload.podSetCounts().entrySet()));
  }

  /**
   * The merge patch that makes the prebuilt Workload the job's, locked by the resource version read (its owner
   * references and finalizers are written whole); empty when another object controls it.
   */
  public static <J extends TrainingJob<?>> Optional<Map<String, Object>> adoption(GenericKubernetesResource workload,
                                                                                 J job,
                                                                                 TrainingFramework<J> framework) {
    var meta = workload.getMetadata();
    List<OwnerReference> owners = meta.getOwnerReferences() == null ? new ArrayList<>()
        : new ArrayList<>(meta.getOwnerReferences());
    boolean ownedByAnother = owners.stream().anyMatch(r -> Boolean.TRUE.equals(r.getController())
        && !job.getMetadata().getUid().equals(r.getUid()));
    if (ownedByAnother) {
      return Optional.empty();
    }
    owners.removeIf(r -> job.getMetadata().getUid().equals(r.getUid()));
    owners.add(WorkloadFor.ownerReference(job, framework));
    List<String> finalizers = meta.getFinalizers() == null ? new ArrayList<>() : new ArrayList<>(meta.getFinalizers());
    if (!finalizers.contains(KueueApi.FINALIZER)) {
      finalizers.add(KueueApi.FINALIZER);
    }
    Map<String, Object> patch = new LinkedHashMap<>();
    patch.put("resourceVersion", meta.getResourceVersion());
    patch.put("labels", WorkloadFor.labels(job, framework));
    patch.put("ownerReferences", owners);
    patch.put("finalizers", finalizers);
    return Optional.of(Map.of("metadata", patch));
  }
}
