package dev.stint.operator.demo;

import dev.stint.operator.demo.DemoJobs.DemoJob;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.ReplicaSpec;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The demo's scripted suspension of one job, done as a person with {@code kubectl patch} or a queue such as Kueue
 * would: once the job runs, a JSON merge patch sets {@code spec.runPolicy.suspend: true} and Stint deletes its pods;
 * once they are gone and the pause of the job's {@value JobExpectation#SUSPEND_SECONDS} annotation has passed, its
 * templates get a nodeSelector (as a queue admitting it on other nodes would) and a second patch sets
 * {@code suspend: false}; Stint then creates the pods again from the current templates. Each step prints one line
 * when it happens. The demo moves the script on each time it looks at the jobs ({@link #advance}).
 */
final class SuspendResumeStep {
  /** The nodeSelector the script adds to every template while the job is suspended; the new pods must carry it. */
  static final Map<String, String> RESUME_NODE_SELECTOR = Map.of("stint.dev/demo-pool", "resumed");

  /** The JSON merge patches of {@code kubectl patch --type merge} that suspend and resume a job. */
  private static final String SUSPEND_PATCH = "{\"spec\":{\"runPolicy\":{\"suspend\":true}}}";
  private static final String RESUME_PATCH = "{\"spec\":{\"runPolicy\":{\"suspend\":false}}}";

  private enum Phase { AWAIT_RUNNING, AWAIT_PODS_GONE, PAUSED, AWAIT_PODS_BACK, DONE, MISSED, STALE_TEMPLATE, REFUSED }

  private final KubernetesClient client;
  private final String namespace;
  private final PrintStream out;
  private final Duration pause;
  private Phase phase = Phase.AWAIT_RUNNING;
  private final Set<String> podsBeforeSuspension = new HashSet<>();
  private Instant suspendedAt;
  private int podsBack;
  private String refusal;

  /** The script of a job that the demo resumes {@code pause} after its pods are gone. */
  SuspendResumeStep(KubernetesClient client, String namespace, PrintStream out, Duration pause) {
    this.client = client;
    this.namespace = namespace;
    this.out = out;
    this.pause = pause;
  }

  /**
   * Takes the next step once the job and its pods ({@code pods}, as just listed) are where it waits for them.
   *
   * @return true when it took one
   */
  boolean advance(DemoJob job, List<Pod> pods, Instant now) {
    JobStatus status = job.job().getStatus();
    Phase before = phase;
    try {
      step(job, status, pods, now);
    } catch (KubernetesClientException e) {
      phase = Phase.REFUSED;
      refusal = e.getMessage();
      out.println(">> " + job.name() + ": the API server refused the patch: " + refusal);
    }
    return phase != before;
  }

  private void step(DemoJob job, JobStatus status, List<Pod> pods, Instant now) {
    boolean ended = status != null && (status.isTrue("Succeeded") || status.isTrue("Failed"));
    switch (phase) {
      case AWAIT_RUNNING -> {
        if (ended) {
          phase = Phase.MISSED;
          out.println(">> " + job.name() + " ended before it ran with all its pods up: the demo could not suspend it");
        } else if (status != null && status.isTrue("Running")) {
          suspend(job, pods);
        }
      }
      case AWAIT_PODS_GONE -> {
        if (pods.isEmpty() && status != null && status.isTrue("Suspended")) {
          phase = Phase.PAUSED;
          suspendedAt = now;
          out.println(">> " + job.name() + " is suspended: " + podsBeforeSuspension.size() + " pods deleted, active 0,"
              + " suspensions " + suspensions(status) + "; the job object stays");
        }
      }
      case PAUSED -> {
        if (!now.isBefore(suspendedAt.plus(pause))) {
          resume(job);
        }
      }
      case AWAIT_PODS_BACK -> awaitPodsBack(job, pods);
      default -> { }
    }
  }

  /** True once the job was suspended, resumed, and all its pods came back from the edited templates. */
  boolean done() {
    return phase == Phase.DONE;
  }

  /** Where the script stands, for the demo's summary. */
  String story() {
    return switch (phase) {
      case AWAIT_RUNNING -> "the demo waited in vain for it to run, to suspend it";
      case AWAIT_PODS_GONE -> "suspended, but its pods never all went";
      case PAUSED, AWAIT_PODS_BACK -> "suspended and resumed, but its pods never all came back from the current "
          + "templates";
      case DONE -> "suspended with " + podsBeforeSuspension.size() + " pods running, resumed, " + podsBack
          + " new pods from the current templates";
      case MISSED -> "it ended before the demo could suspend it";
      case STALE_TEMPLATE -> "suspended and resumed, but its new pods lack the edited nodeSelector";
      case REFUSED -> "the API server refused a patch: " + refusal;
    };
  }

  private void suspend(DemoJob job, List<Pod> pods) {
    pods.forEach(p -> podsBeforeSuspension.add(p.getMetadata().getUid()));
    out.println(">> suspending " + job.name() + ": " + kubectlPatch(job, SUSPEND_PATCH));
    patch(job, SUSPEND_PATCH);
    phase = Phase.AWAIT_PODS_GONE;
  }

  private void resume(DemoJob job) {
    TrainingJob<?> current = job.job();
    Map<String, Object> templates = new LinkedHashMap<>();
    for (String type : current.getSpec().replicaSpecs().keySet()) {
      templates.put(type, Map.of("template", Map.of("spec", Map.of("nodeSelector", RESUME_NODE_SELECTOR))));
    }
    out.println(">> while " + job.name() + " is suspended, editing its templates as a queue admitting it elsewhere "
        + "would: nodeSelector " + selectorText());
    patch(job, Map.of("spec", Map.of(current.getSpec().replicaSpecsField(), templates)));
    out.println(">> resuming " + job.name() + ": " + kubectlPatch(job, RESUME_PATCH));
    patch(job, RESUME_PATCH);
    phase = Phase.AWAIT_PODS_BACK;
  }

  private void awaitPodsBack(DemoJob job, List<Pod> pods) {
    List<Pod> fresh = pods.stream().filter(p -> !podsBeforeSuspension.contains(p.getMetadata().getUid()))
        .filter(p -> p.getStatus() != null && ("Running".equals(p.getStatus().getPhase())
            || "Succeeded".equals(p.getStatus().getPhase())))
        .toList();
    if (fresh.size() < desiredPods(job.job())) {
      return;
    }
    long edited = fresh.stream().filter(SuspendResumeStep::hasResumeNodeSelector).count();
    podsBack = fresh.size();
    if (edited == fresh.size()) {
      phase = Phase.DONE;
      out.println(">> " + job.name() + " is running again: " + fresh.size() + " new pods, each with nodeSelector "
          + selectorText() + " from the edited templates");
    } else {
      phase = Phase.STALE_TEMPLATE;
      out.println(">> " + job.name() + ": " + (fresh.size() - edited) + " of " + fresh.size()
          + " new pods lack the edited nodeSelector");
    }
  }

  private void patch(DemoJob job, Map<String, Object> mergePatch) {
    patch(job, client.getKubernetesSerialization().asJson(mergePatch));
  }

  private void patch(DemoJob job, String mergePatch) {
    client.resources(job.framework().jobType()).inNamespace(namespace).withName(job.name())
        .patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
  }

  private static String kubectlPatch(DemoJob job, String json) {
    return "kubectl patch " + job.kind().toLowerCase() + " " + job.name() + " --type merge -p '" + json + "'";
  }

  private static int desiredPods(TrainingJob<?> job) {
    return job.getSpec().replicaSpecs().values().stream().mapToInt(ReplicaSpec::replicasOrDefault).sum();
  }

  private static boolean hasResumeNodeSelector(Pod pod) {
    Map<String, String> selector = pod.getSpec() == null ? null : pod.getSpec().getNodeSelector();
    return selector != null && selector.entrySet().containsAll(RESUME_NODE_SELECTOR.entrySet());
  }

  private static String selectorText() {
    return RESUME_NODE_SELECTOR.entrySet().iterator().next().toString();
  }

  private static int suspensions(JobStatus status) {
    return status.getSuspensions() == null ? 0 : status.getSuspensions();
  }
}
