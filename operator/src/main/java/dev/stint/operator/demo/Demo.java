package dev.stint.operator.demo;

import dev.stint.core.StintOperator;
import dev.stint.core.StintOperatorBuilder;
import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.operator.CommandFailure;
import dev.stint.operator.demo.DemoJobs.DemoJob;
import dev.stint.spi.TrainingFramework;
import dev.stint.testdoubles.SimulatedKubelet;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The demo on an empty API server: install the CRDs, start the operator (server-side apply off, which the fabric8 mock
 * server lacks) and a {@link SimulatedKubelet}, create the example jobs, show their progress until each has
 * succeeded or failed (suspending and resuming on the way those whose annotation asks for it), then print their final
 * status and whether each ended as expected. Everything it reads comes in through the constructor, so a
 * test can run it with its own framework, CRD and jobs.
 */
public final class Demo {
  public static final String NAMESPACE = "default";

  private final FrameworkRegistry registry;
  private final ManifestSource crds;
  private final ManifestSource examples;
  private final Settings settings;
  private final PrintStream out;
  private final Clock clock;

  /**
   * @param timeout how long to wait for every job to end
   * @param refresh how often to look at the jobs
   * @param reconcileThreads the engine's reconcile threads, or null for its default
   */
  public record Settings(Duration timeout, Duration refresh, Integer reconcileThreads) { }

  public Demo(FrameworkRegistry registry, ManifestSource crds, ManifestSource examples, Settings settings,
              PrintStream out, Clock clock) {
    this.registry = registry;
    this.crds = crds;
    this.examples = examples;
    this.settings = settings;
    this.out = out;
    this.clock = clock;
  }

  /**
   * Runs the demo on the API server of {@code client}, which the caller owns.
   *
   * @return 0 when every job ended as expected ({@link JobExpectation}: Succeeded unless its annotation says
   *     otherwise, and, for a job the demo suspends, resumed with {@code suspensions: 1}); 1 when a job did not, or the
   *     jobs did not end in time
   * @throws CommandFailure when there is nothing to run (no CRDs, no CRD of a loaded framework, no jobs)
   */
  public int run(KubernetesClient client) throws InterruptedException {
    FrameworkRegistry served = installCrds(client);
    List<DemoJob> jobs = loadJobs(client, served);
    StintOperatorBuilder builder = StintOperator.builder(client, served).serverSideApply(false).kindChecks(false)
        .closeClientOnStop(false).clock(clock);
    if (settings.reconcileThreads() != null) {
      builder.reconcileThreads(settings.reconcileThreads());
    }
    StintOperator operator = builder.build();
    SimulatedKubelet kubelet = new SimulatedKubelet(client, clock);
    try {
      operator.start();
      kubelet.start();
      DemoProgress progress = new DemoProgress(client, createJobs(client, jobs), NAMESPACE, out, clock);
      boolean ended = progress.awaitEnd(settings.timeout(), settings.refresh());
      return progress.report(ended);
    } finally {
      kubelet.stop();
      operator.stop();
    }
  }

  private FrameworkRegistry installCrds(KubernetesClient client) {
    Set<String> served = registry.all().stream().map(f -> HasMetadata.getFullResourceName(f.jobType()))
        .collect(Collectors.toSet());
    Set<String> installed = new LinkedHashSet<>();
    installFrom(client, crds, "CRDs", name -> true, installed);
    // a plugin's CRD may sit beside its example job (examples/plugins/<name>/crds/): installed if the plugin is loaded
    Set<String> besideJobs = new LinkedHashSet<>();
    installFrom(client, examples, "jobs", name -> served.contains(name) && !installed.contains(name), besideJobs);
    installed.addAll(besideJobs);
    if (installed.isEmpty()) {
      throw new CommandFailure("no CRDs in " + crds.description() + ": the demo installs the CRDs of its frameworks "
          + "from there (crds/ holds the generated ones; or pass --crds=DIR)");
    }
    List<TrainingFramework<?>> running = new ArrayList<>();
    for (TrainingFramework<?> framework : registry.all()) {
      String crd = HasMetadata.getFullResourceName(framework.jobType());
      if (installed.contains(crd)) {
        running.add(framework);
      } else {
        out.println("note: no CRD " + crd + " in " + crds.description() + " or " + examples.description()
            + "; the demo leaves out " + framework.name());
      }
    }
    if (running.isEmpty()) {
      throw new CommandFailure("none of the CRDs in " + crds.description() + " (" + String.join(", ", installed)
          + ") belongs to a loaded framework (" + names(registry.all()) + ")");
    }
    out.println("Frameworks: " + running.stream().map(f -> f.name() + " (" + HasMetadata.getKind(f.jobType()) + ")")
        .collect(Collectors.joining(", ")) + "; CRDs from " + crds.description()
        + (besideJobs.isEmpty() ? "" : ", and " + String.join(", ", besideJobs) + " from " + examples.description()));
    return FrameworkRegistry.of(running);
  }

  /** Installs the CRDs of a source whose names {@code wanted} accepts; adds their names to {@code installed}. */
  private static void installFrom(KubernetesClient client, ManifestSource source, String what,
                                  Predicate<String> wanted, Set<String> installed) {
    for (ManifestSource.Manifest manifest : read(source, what)) {
      for (HasMetadata item : parse(client, manifest)) {
        if (item instanceof CustomResourceDefinition crd && wanted.test(crd.getMetadata().getName())) {
          create(client, crd);
          installed.add(crd.getMetadata().getName());
        }
      }
    }
  }

  private List<DemoJob> loadJobs(KubernetesClient client, FrameworkRegistry served) {
    List<DemoJob> jobs = new ArrayList<>();
    for (ManifestSource.Manifest manifest : read(examples, "jobs")) {
      jobs.addAll(DemoJobs.load(client, manifest.origin(), parse(client, manifest), served, NAMESPACE, out));
    }
    if (jobs.isEmpty()) {
      throw new CommandFailure("no jobs in " + examples.description() + " of the kinds the demo runs ("
          + served.all().stream().map(f -> HasMetadata.getKind(f.jobType())).collect(Collectors.joining(", "))
          + "); add example jobs there, or pass --examples=DIR");
    }
    out.println("Jobs from " + examples.description() + ": " + jobs.stream().map(j -> j.kind() + " " + j.name())
        .collect(Collectors.joining(", ")));
    return jobs;
  }

  private List<DemoJob> createJobs(KubernetesClient client, List<DemoJob> jobs) {
    List<DemoJob> created = new ArrayList<>();
    for (DemoJob job : jobs) {
      try {
        client.resource(job.job()).inNamespace(NAMESPACE).create();
        created.add(job);
      } catch (KubernetesClientException e) {
        out.println("  could not create " + job.kind() + " " + job.name() + ": " + e.getMessage());
      }
    }
    if (created.isEmpty()) {
      throw new CommandFailure("none of the example jobs could be created");
    }
    return created;
  }

  private static List<ManifestSource.Manifest> read(ManifestSource source, String what) {
    try {
      return source.manifests();
    } catch (IOException e) {
      throw new CommandFailure("cannot read " + what + " from " + source.description() + ": " + e.getMessage());
    }
  }

  private static List<HasMetadata> parse(KubernetesClient client, ManifestSource.Manifest manifest) {
    try {
      return client.load(new ByteArrayInputStream(manifest.yaml().getBytes(StandardCharsets.UTF_8))).items();
    } catch (KubernetesClientException | IllegalArgumentException e) {
      throw new CommandFailure("cannot read " + manifest.origin() + ": " + e.getMessage());
    }
  }

  private static void create(KubernetesClient client, CustomResourceDefinition crd) {
    try {
      client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) { // already there: a test may have installed it
        throw new CommandFailure("cannot install CRD " + crd.getMetadata().getName() + ": " + e.getMessage());
      }
    }
  }

  private static String names(List<TrainingFramework<?>> frameworks) {
    return frameworks.stream().map(TrainingFramework::name).collect(Collectors.joining(", "));
  }
}
