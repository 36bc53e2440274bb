package dev.stint.core.decision;

import dev.stint.core.model.EngineFramework;
import dev.stint.core.model.JobFacts;
import dev.stint.spi.FrameworkDefaults;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.ReplicaSpec;
import dev.stint.spi.api.RunPolicy;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One job as the engine sees it during one decision: the typed job, its framework, and the facts derived from them
 * once (kind, run policy, replica specs in the framework's order, the current time as written in status).
 */
public final class JobContext<J extends TrainingJob<?>> {
  private final J job;
  private final EngineFramework<J> framework;
  private final String kind;
  private final Instant now;
  private final Map<String, ReplicaSpec> replicaSpecs;
  private final EngineSettings settings;
  private final KueueGate gate;
  private final JobFacts facts;

  public JobContext(J job, TrainingFramework<J> framework, Instant now) {
    this(job, framework, now, EngineSettings.defaults());
  }

  public JobContext(J job, TrainingFramework<J> framework, Instant now, EngineSettings settings) {
    this(job, framework, now, settings, KueueGate.NOT_QUEUED);
  }

  /** @param gate whether Kueue lets the job's pods run now, and what they carry ({@code --kueue=native}) */
  public JobContext(J job, TrainingFramework<J> framework, Instant now, EngineSettings settings, KueueGate gate) {
    this.settings = settings;
    this.gate = gate;
    this.job = job;
    this.framework = EngineFramework.of(framework);
    this.kind = HasMetadata.getKind(framework.jobType());
    this.now = now.truncatedTo(ChronoUnit.SECONDS);
    this.replicaSpecs = orderedSpecs(job, framework);
    this.facts = JobFacts.of(job);
  }

  private static <J extends TrainingJob<?>> Map<String, ReplicaSpec> orderedSpecs(J job, TrainingFramework<J> fw) {
    Map<String, ReplicaSpec> raw = job.getSpec() == null ? null : job.getSpec().replicaSpecs();
    Map<String, ReplicaSpec> ordered = new LinkedHashMap<>();
    if (raw == null) {
      return ordered;
    }
    // deterministic order: the framework's, then any unknown type (rejected by validation) by name
    fw.replicaTypes().stream().filter(raw::containsKey).forEach(t -> ordered.put(t, raw.get(t)));
    raw.keySet().stream().sorted().filter(t -> !ordered.containsKey(t)).forEach(t -> ordered.put(t, raw.get(t)));
    return ordered;
  }

  public J job() { return job; }
  public EngineSettings settings() { return settings; }
  public KueueGate gate() { return gate; }
  public EngineFramework<J> framework() { return framework; }
  public String kind() { return kind; }
  public String name() { return job.getMetadata().getName(); }
  public String namespace() { return job.getMetadata().getNamespace(); }
  public Instant now() { return now; }
  /** The current time as written into status (RFC 3339, seconds). */
  public String nowString() { return now.toString(); }
  public FrameworkDefaults defaults() { return framework.defaults(); }
  public String controllerName() { return framework.controllerName(); }

  /** The facts of its run policy that other parts of the engine read too, worked out once. */
  public JobFacts facts() { return facts; }

  /** The job's run policy, an empty one where it has none ({@link JobFacts#runPolicy}). */
  public RunPolicy runPolicy() { return facts.runPolicy(); }

  /**
   * True when {@code runPolicy.managedBy} names another controller: such a job gets no writes at all, not even
   * status. An empty value also counts as another controller, as upstream.
   */
  public boolean managedElsewhere() {
    return !facts.ours(framework.managedByValue());
  }

  /**
   * Whether each replica gets a headless Service of its pod's name: the framework's default, unless the job asks for
   * one Service per job ({@code runPolicy.serviceMode: PerJob}).
   */
  public boolean servicePerPod() {
    return framework.servicePerPod() && !facts.servicePerJob();
  }

  /** Whether the engine keeps one headless Service for the whole job (PerJob, where the framework has none). */
  public boolean jobService() {
    return framework.servicePerPod() && facts.servicePerJob();
  }

  /** Replica specs in the framework's order. */
  public Map<String, ReplicaSpec> replicaSpecs() { return replicaSpecs; }

  /** The restart policy of a replica type, with the framework default applied. */
  public String restartPolicy(String type) {
    return framework.restartPolicy(type, replicaSpecs.get(type));
  }

  /**
   * The desired replicas of a replica type, with the framework default applied; for a job admitted by Kueue, the
   * admitted count when it is lower (partial admission).
   */
  public int replicas(String type) {
    int desired = specReplicas(type);
    Integer admitted = gate.podSet(type).map(PodSetInfo::count).orElse(null);
    return admitted == null ? desired : Math.min(desired, admitted);
  }

  /** The replicas of a type as its spec asks, with the framework's default where it sets none. */
  public int specReplicas(String type) {
    ReplicaSpec spec = replicaSpecs.get(type);
    Integer replicas = spec == null ? null : spec.getReplicas();
    return replicas == null ? framework.defaultReplicas(type) : replicas;
  }

  /** The pod (and per-pod service) name of a replica, as the framework names it. */
  public String podName(ReplicaId replica) {
    return framework.podName(job, replica);
  }

  /** The container whose exit code counts: the one of the framework's default name, else the pod's first. */
  public String exitCodeContainer(io.fabric8.kubernetes.api.model.Pod pod) {
    if (defaults().namesContainer()) {
      return defaults().containerName();
    }
    Container first = defaultContainer(pod.getSpec());
    return first == null ? "" : first.getName();
  }

  public Container defaultContainer(PodSpec spec) {
    if (spec == null || spec.getContainers() == null || spec.getContainers().isEmpty()) {
      return null;
    }
    String name = defaults().containerName();
    return spec.getContainers().stream().filter(c -> name != null && name.equals(c.getName())).findFirst()
        .orElse(spec.getContainers().get(0));
  }

  /** The owner reference every child of the job carries. */
  public OwnerReference ownerReference() {
    return new OwnerReferenceBuilder()
        .withApiVersion(HasMetadata.getApiVersion(framework.jobType()))
        .withKind(kind)
        .withName(name())
        .withUid(job.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build();
  }
}
