package dev.stint.operator.demo;

import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.operator.CommandFailure;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.ReplicaSpec;
import dev.stint.testdoubles.SimulatedKubelet;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The example jobs the demo runs: every document of the example files whose kind a framework of the registry serves,
 * read into that framework's job class, placed in the demo namespace, given run times for the
 * {@link SimulatedKubelet} where the example sets none, and paired with what the demo expects of it
 * ({@link JobExpectation}). Anything else is skipped with a note.
 */
final class DemoJobs {
  /**
   * Seconds each replica type runs, by its position in the framework's order. The first type (a Master or Chief) runs
   * longer than the second (the Workers), so the workers' completions show in the status before the job ends.
   */
  private static final int[] RUN_SECONDS_BY_POSITION = {6, 4, 8, 5, 7, 3};

  /** A job, the framework that serves it, and what the demo expects of it. */
  record DemoJob(TrainingFramework<?> framework, TrainingJob<?> job, JobExpectation expectation) {
    String kind() {
      return HasMetadata.getKind(framework.jobType());
    }

    String name() {
      return job.getMetadata().getName();
    }

    /** The same job as last read from the API server. */
    DemoJob withJob(TrainingJob<?> current) {
      return new DemoJob(framework, current, expectation);
    }
  }

  private DemoJobs() { }

  /** The jobs among the documents of one example file ({@code origin}). */
  static List<DemoJob> load(KubernetesClient client, String origin, List<HasMetadata> items,
                            FrameworkRegistry registry, String namespace, PrintStream out) {
    List<DemoJob> jobs = new ArrayList<>();
    for (HasMetadata item : items) {
      if (item == null || item instanceof CustomResourceDefinition) {
        continue; // a sample plugin keeps its CRD beside its example job; the demo installs it with the CRDs
      }
      Optional<TrainingFramework<?>> framework = servedBy(registry, item);
      if (framework.isEmpty()) {
        out.println("  skipping " + item.getKind() + " " + item.getMetadata().getName() + " in " + origin
            + ": no loaded framework serves " + item.getApiVersion() + " " + item.getKind());
        continue;
      }
      TrainingJob<?> job = typed(client, item, framework.get().jobType());
      prepare(job, framework.get(), namespace);
      jobs.add(new DemoJob(framework.get(), job, JobExpectation.of(job)));
    }
    return jobs;
  }

  /** The job read into its framework's class (loading YAML gives generic resources for custom kinds). */
  private static TrainingJob<?> typed(KubernetesClient client, HasMetadata item, Class<?> jobType) {
    Object job = client.getKubernetesSerialization().convertValue(item, jobType);
    if (!jobType.isInstance(job)) {
      throw new CommandFailure(jobType.getName() + " is read as " + job.getClass().getSimpleName()
          + "; a job kind must extend CustomResource and implement dev.stint.spi.TrainingJob");
    }
    return (TrainingJob<?>) job;
  }

  private static Optional<TrainingFramework<?>> servedBy(FrameworkRegistry registry, HasMetadata item) {
    return registry.all().stream()
        .filter(f -> HasMetadata.getApiVersion(f.jobType()).equals(item.getApiVersion())
            && HasMetadata.getKind(f.jobType()).equals(item.getKind()))
        .findFirst();
  }

  private static void prepare(TrainingJob<?> job, TrainingFramework<?> framework, String namespace) {
    job.getMetadata().setNamespace(namespace);
    Map<String, ReplicaSpec> specs = job.getSpec() == null ? null : job.getSpec().replicaSpecs();
    if (specs == null) {
      return; // the engine reports the invalid job; the demo shows it
    }
    List<String> types = framework.replicaTypes();
    for (int position = 0; position < types.size(); position++) {
      ReplicaSpec spec = specs.get(types.get(position));
      if (spec != null && spec.getTemplate() != null) {
        addRunSeconds(spec, RUN_SECONDS_BY_POSITION[position % RUN_SECONDS_BY_POSITION.length]);
      }
    }
  }

  private static void addRunSeconds(ReplicaSpec spec, int seconds) {
    ObjectMeta meta = spec.getTemplate().getMetadata() == null ? new ObjectMeta() : spec.getTemplate().getMetadata();
    Map<String, String> annotations = meta.getAnnotations() == null ? new LinkedHashMap<>()
        : new LinkedHashMap<>(meta.getAnnotations());
    annotations.putIfAbsent(SimulatedKubelet.RUN_SECONDS, Integer.toString(seconds));
    meta.setAnnotations(annotations);
    spec.getTemplate().setMetadata(meta);
  }
}
