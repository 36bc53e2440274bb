package dev.stint.core.kueue;

import dev.stint.core.decision.KueueSettings;
import dev.stint.core.decision.TopologyRequest;
import dev.stint.core.model.EngineFramework;
import dev.stint.core.model.JobFacts;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.ReplicaSpec;
import dev.stint.spi.api.RunPolicy;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The Workload of a queued job, as Kueue's own integration would build it ({@code jobframework.ConstructWorkload}):
 * Kueue's name, the job as controller owner, Kueue's finalizer and job-uid label, the queue, one podSet per replica
 * type in the kind's order (lower-case names, counts, templates, the topology request of Kueue's podset annotations
 * with the replica index as the pod index label) and the priority. Pure; the same for every kind, so
 * plugin kinds get it with no code of their own.
 */
public final class WorkloadFor {

  /** A priority class a job asks for: a Kueue WorkloadPriorityClass or a pod PriorityClass. */
  public record PriorityRef(String group, String kind, String name) {
    static PriorityRef workloadPriorityClass(String name) {
      return new PriorityRef(KueueApi.GROUP, "WorkloadPriorityClass", name);
    }

    static PriorityRef podPriorityClass(String name) {
      return new PriorityRef("scheduling.k8s.io", "PriorityClass", name);
    }

    /** A Kueue WorkloadPriorityClass (else a pod PriorityClass). */
    boolean workloadClass() {
      return KueueApi.GROUP.equals(group);
    }
  }

  /** The Workload's priority: the class and its value (Kueue orders by {@code spec.priority} alone). */
  public record Priority(PriorityRef ref, int value) {
    /** No class: priority 0. */
    public static final Priority NONE = new Priority(null, 0);
  }

  private WorkloadFor() { }

  /**
   * Whether a job gets a Workload: native mode, and a queue label, a prebuilt Workload or every job managed. A job
   * MultiKueue dispatches gets one too (its manager-side Workload); another controller's job never does.
   */
  public static boolean queued(TrainingJob<?> job, KueueSettings settings, String managedByValue) {
    if (!settings.nativeMode()) {
      return false;
    }
    JobFacts facts = JobFacts.of(job);
    if (!facts.ours(managedByValue) && !KueueApi.MULTIKUEUE_MANAGED_BY.equals(facts.managedBy())) {
      return false;
    }
    return queueName(job) != null || prebuiltName(job) != null || settings.manageJobsWithoutQueueName();
  }

  /** Whether Stint manages the job here: {@code runPolicy.managedBy} unset or Stint's own value. */
  public static boolean ours(TrainingJob<?> job, String managedByValue) {
    return JobFacts.of(job).ours(managedByValue);
  }

  /**
   * Whether MultiKueue runs the job in a worker cluster: this cluster's Stint keeps its Workload and nothing else,
   * as MultiKueue copies the worker's status and {@code Finished} back.
   */
  public static boolean dispatched(TrainingJob<?> job) {
    return KueueApi.MULTIKUEUE_MANAGED_BY.equals(JobFacts.of(job).managedBy());
  }

  /** The Workload made before the job that it names to adopt (label, else annotation), or null. */
  public static String prebuiltName(HasMetadata job) {
    String name = valueOf(job.getMetadata().getLabels(), KueueApi.PREBUILT_WORKLOAD_LABEL);
    return name != null ? name : valueOf(job.getMetadata().getAnnotations(), KueueApi.PREBUILT_WORKLOAD_LABEL);
  }

  private static String valueOf(Map<String, String> map, String key) {
    String value = map == null ? null : map.get(key);
    return value == null || value.isBlank() ? null : value;
  }

  /** The job's {@code kueue.x-k8s.io/queue-name} label, or null. */
  public static String queueName(HasMetadata job) {
    return valueOf(job.getMetadata().getLabels(), KueueApi.QUEUE_NAME_LABEL);
  }

  /**
   * The priority class the job asks for: the {@code kueue.x-k8s.io/priority-class} label (a WorkloadPriorityClass);
   * else its pods' class: {@code runPolicy.schedulingPolicy.priorityClass}, else the first template's
   * {@code priorityClassName} in the kind's order. An empty value asks for nothing, as in Kueue
   * ({@code len(priorityClass) > 0}).
   */
  public static <J extends TrainingJob<?>> Optional<PriorityRef> priorityClass(J job, TrainingFramework<J> framework) {
    String label = valueOf(job.getMetadata().getLabels(), KueueApi.PRIORITY_CLASS_LABEL);
    if (label != null) {
      return Optional.of(PriorityRef.workloadPriorityClass(label));
    }
    RunPolicy runPolicy = JobFacts.of(job).runPolicy();
    if (runPolicy.getSchedulingPolicy() != null && runPolicy.getSchedulingPolicy().getPriorityClass() != null
        && !runPolicy.getSchedulingPolicy().getPriorityClass().isEmpty()) {
      return Optional.of(PriorityRef.podPriorityClass(runPolicy.getSchedulingPolicy().getPriorityClass()));
    }
    return orderedSpecs(job, framework).values().stream()
        .map(spec -> spec.getTemplate() == null || spec.getTemplate().getSpec() == null ? null
            : spec.getTemplate().getSpec().getPriorityClassName())
        .filter(name -> name != null && !name.isBlank()).findFirst().map(PriorityRef::podPriorityClass);
  }

  /** The Workload of a queued job. */
  public static <J extends TrainingJob<?>> GenericKubernetesResource of(J job, TrainingFramework<J> framework,
                                                                       Priority priority) {
    String kind = HasMetadata.getKind(framework.jobType());
    ObjectMeta meta = new ObjectMeta();
    meta.setName(KueueApi.workloadName(kind, HasMetadata.getGroup(framework.jobType()), job.getMetadata().getName(),
        job.getMetadata().getUid()));
    meta.setNamespace(job.getMetadata().getNamespace());
    meta.setFinalizers(List.of(KueueApi.FINALIZER));
    meta.setLabels(labels(job, framework));
    meta.setOwnerReferences(List.of(ownerReference(job, framework)));
    Map<String, Object> spec = new LinkedHashMap<>();
    if (queueName(job) != null) {
      spec.put("queueName", queueName(job));
    }
    List<Map<String, Object>> podSets = podSets(job, framework);
    spec.put("podSets", podSets);
    if (priority.ref() != null) {
      spec.put("priorityClassRef", Map.of("group", priority.ref().group(), "kind", priority.ref().kind(),
          "name", priority.ref().name()));
      spec.put("priority", priority.value());
    }
    maxExecutionSeconds(job).ifPresent(seconds -> spec.put("maximumExecutionTimeSeconds", seconds));
    // a job created suspended queues only once resumed (a user's suspend is spec.active=false)
    boolean suspended = JobFacts.of(job).suspended();
    spec.put("active", !suspended);
    Map<String, String> annotations = new LinkedHashMap<>();
    annotations.put(KueueApi.PODSETS_DIGEST, digest(podSets));
    if (suspended) {
      annotations.put(KueueApi.DEACTIVATED_BY_SUSPEND, "true");
    }
    meta.setAnnotations(annotations);
    GenericKubernetesResource workload = new GenericKubernetesResource();
    workload.setApiVersion(KueueApi.API_VERSION);
    workload.setKind("Workload");
    workload.setMetadata(meta);
    workload.setAdditionalProperty("spec", spec);
    return workload;
  }

  /** The labels of a job's Workload: Kueue's job-uid label, and Stint's label that its informer selects by. */
  static Map<String, String> labels(TrainingJob<?> job, TrainingFramework<?> framework) {
    return Map.of(KueueApi.JOB_UID_LABEL, job.getMetadata().getUid(),
        "training.kubeflow.org/operator-name", EngineFramework.of(framework).controllerName());
  }

  /** The job as its Workload's controller owner. */
  static OwnerReference ownerReference(TrainingJob<?> job, TrainingFramework<?> framework) {
    return new OwnerReferenceBuilder().withApiVersion(HasMetadata.getApiVersion(framework.jobType()))
        .withKind(HasMetadata.getKind(framework.jobType())).withName(job.getMetadata().getName())
        .withUid(job.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true).build();
  }

  /** The podSets of the job's Workload as it should be now, and their digest. */
  public record PodSets(List<Map<String, Object>> podSets, String digest) { }

  /** The podSets the job's Workload should have now ({@link #of} with no other field). */
  public static <J extends TrainingJob<?>> PodSets podSetsOf(J job, TrainingFramework<J> framework) {
    List<Map<String, Object>> podSets = podSets(job, framework);
    return new PodSets(podSets, digest(podSets));
  }

  /** SHA-256 of the podSets' JSON (maps keep their insertion order), 16 bytes in hex. */
  static String digest(List<Map<String, Object>> podSets) {
    try {
      byte[] hash = java.security.MessageDigest.getInstance("SHA-256")
          .digest(Serialization.asJson(podSets).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return java.util.HexFormat.of().formatHex(hash, 0, 16);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  /** One podSet per replica type; {@code minCount} on the first that can run with fewer (Kueue allows one). */
  private static <J extends TrainingJob<?>> List<Map<String, Object>> podSets(J job, TrainingFramework<J> framework) {
    List<Map<String, Object>> podSets = new ArrayList<>();
    EngineFramework<J> engine = EngineFramework.of(framework); // probes the capabilities once, not per podSet
    boolean minCountSet = false;
    for (Map.Entry<String, ReplicaSpec> entry : orderedSpecs(job, framework).entrySet()) {
      String type = entry.getKey();
      ReplicaSpec spec = entry.getValue();
      int count = spec.getReplicas() == null ? engine.defaultReplicas(type) : spec.getReplicas();
      Map<String, Object> podSet = new LinkedHashMap<>();
      podSet.put("name", type.toLowerCase(Locale.ROOT));
      podSet.put("count", count);
      OptionalInt min = engine.minReplicas(job, type);
      if (!minCountSet && min.isPresent() && min.getAsInt() >= 1 && min.getAsInt() < count) {
        podSet.put("minCount", min.getAsInt());
        minCountSet = true;
      }
      podSet.put("template", template(spec.getTemplate()));
      Map<String, String> annotations = spec.getTemplate() == null || spec.getTemplate().getMetadata() == null ? null
          : spec.getTemplate().getMetadata().getAnnotations();
      podSet.put("topologyRequest", TopologyRequest.of(annotations).toWorkloadField());
      podSets.add(podSet);
    }
    return podSets;
  }

  /** The template with only the metadata a Workload allows (labels and annotations). */
  private static Object template(PodTemplateSpec template) {
    PodTemplateSpec copy = template == null ? new PodTemplateSpec() : Serialization.clone(template);
    ObjectMeta meta = new ObjectMeta();
    if (copy.getMetadata() != null) {
      meta.setLabels(copy.getMetadata().getLabels());
      meta.setAnnotations(copy.getMetadata().getAnnotations());
    }
    copy.setMetadata(meta);
    return Serialization.unmarshal(Serialization.asJson(copy), Map.class);
  }

  private static Optional<Integer> maxExecutionSeconds(HasMetadata job) {
    Map<String, String> labels = job.getMetadata().getLabels();
    String value = labels == null ? null : labels.get(KueueApi.MAX_EXEC_TIME_LABEL);
    try {
      return value == null ? Optional.empty() : Optional.of(Integer.parseInt(value.trim())).filter(s -> s > 0);
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** Replica specs in the kind's order; types the kind does not know are left out (validation refuses them). */
  private static <J extends TrainingJob<?>> Map<String, ReplicaSpec> orderedSpecs(J job,
                                                                                TrainingFramework<J> framework) {
    Map<String, ReplicaSpec> raw = job.getSpec() == null ? null : job.getSpec().replicaSpecs();
    Map<String, ReplicaSpec> ordered = new LinkedHashMap<>();
    if (raw != null) {
      framework.replicaTypes().stream().filter(raw::containsKey).forEach(t -> ordered.put(t, raw.get(t)));
    }
    return ordered;
  }
}
