package dev.stint.core.decision;

import dev.stint.core.model.Action;
import dev.stint.core.model.JobLabels;
import dev.stint.spi.ReplicaId;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Replicas whose pod runs inside a {@code batch/v1} Job ({@link dev.stint.spi.WithJobCarriedReplicas}), as the MPI
 * Operator v2 runs an MPIJob's launcher: the Job to create, how the engine sees the Job's pod, and which deletions a
 * carried replica's deletion takes. Pure: the I/O layer sends what this builds.
 *
 * <p>The engine keeps its own rules for a carried replica (restarts, {@code backoffLimit}, suspension, the end of the
 * job): the Job only makes the pod. So the Job has {@code backoffLimit: 0} when its pod never restarts in place
 * ({@code Never}, {@code ExitCode}): the pod that fails stays, failed, for the engine to read and judge, and the Job
 * makes no second one. Under {@code OnFailure} the kubelet restarts the container in place, and the Job controller
 * counts those restarts toward its {@code backoffLimit} (failing the Job and killing the pod at the first restart
 * with 0); the engine counts them itself, so the Job's limit is the largest there is. No deadline, TTL or suspension:
 * the engine enforces the run policy and deletes the Job where it would delete the pod.
 */
public final class CarrierJobs {
  static final String API_VERSION = "batch/v1";
  static final String KIND = "Job";
  /** The MPI Operator's label on its launcher Job; kept so that both operators' Jobs look alike. */
  static final String APP_LABEL = "app";

  private CarrierJobs() { }

  /**
   * The Job that carries {@code pod}: the pod's name, the pod's controller (the training job) as its controller, and
   * the pod, fully wired, as its template.
   */
  public static Job carrying(Pod pod) {
    ObjectMeta podMeta = pod.getMetadata();
    OwnerReference trainingJob = controllerOf(pod);
    Map<String, String> labels = new LinkedHashMap<>();
    if (trainingJob != null) {
      labels.put(APP_LABEL, trainingJob.getName());
    }
    copy(podMeta.getLabels(), labels, JobLabels.OPERATOR_NAME, JobLabels.JOB_NAME);
    boolean restartsInPlace = "OnFailure".equals(pod.getSpec().getRestartPolicy());
    PodTemplateSpec template = new PodTemplateSpec(new ObjectMetaBuilder()
        .withLabels(podMeta.getLabels()).withAnnotations(podMeta.getAnnotations()).build(), pod.getSpec());
    return new JobBuilder()
        .withNewMetadata()
          .withName(podMeta.getName()).withNamespace(podMeta.getNamespace()).withLabels(labels)
          .withOwnerReferences(podMeta.getOwnerReferences())
        .endMetadata()
        .withNewSpec()
          .withBackoffLimit(restartsInPlace ? Integer.MAX_VALUE : 0)
          .withTemplate(template)
        .endSpec()
        .build();
  }

  /**
   * The pods the engine judges: those observed, each of a carrier Job included; for a carrier Job with no pod, a
   * stand-in of the Job's name, phase and labels ({@link #standIn}); pods of the upstream operator, which lack
   * {@code replica-type} or {@code replica-index}, with the replica the framework recognises ({@code upstream}).
   */
  public static List<Pod> observedPods(List<Pod> pods, List<Job> carriers,
                                       Function<Map<String, String>, ReplicaId> upstream) {
    Set<String> withPods = new HashSet<>();
    pods.forEach(p -> {
      OwnerReference owner = controllerOf(p);
      if (owner != null) {
        withPods.add(owner.getUid());
      }
    });
    List<Pod> result = new ArrayList<>(pods.size() + carriers.size());
    pods.forEach(p -> result.add(recognised(p, upstream)));
    carriers.stream().filter(j -> !withPods.contains(j.getMetadata().getUid()))
        .forEach(j -> result.add(recognised(standIn(j), upstream)));
    return result;
  }

  /**
   * A carrier Job that has no pod, seen as its pod would be: pending while the Job controller is to make it,
   * succeeded when the Job completed, and terminating while the Job is being deleted, or is stale: suspended (Stint
   * never suspends a carrier Job, it deletes it; a suspended one is the upstream operator's) or failed with no pod
   * left. A launcher that fails leaves its failed pod (the Job's {@code backoffLimit} is 0, so no other replaces it),
   * which the engine judges by its exit code; a failed Job without one lost its pod to a deletion (the Job controller
   * counts a pod deleted while it ran as failed), and a pod that vanishes is replaced without counting, as for every
   * replica. A stale Job is deleted ({@link #withCarriers}) and, once gone, replaced by a new one.
   */
  static Pod standIn(Job job) {
    ObjectMeta jobMeta = job.getMetadata();
    PodTemplateSpec template = job.getSpec() == null ? null : job.getSpec().getTemplate();
    Pod pod = new Pod();
    pod.setMetadata(new ObjectMetaBuilder()
        .withName(jobMeta.getName()).withNamespace(jobMeta.getNamespace())
        .withUid(jobMeta.getUid()).withResourceVersion(jobMeta.getResourceVersion())
        .withCreationTimestamp(jobMeta.getCreationTimestamp())
        .withDeletionTimestamp(jobMeta.getDeletionTimestamp() != null ? jobMeta.getDeletionTimestamp()
            : stale(job) ? jobMeta.getCreationTimestamp() : null)
        .withLabels(template == null || template.getMetadata() == null ? Map.of() : template.getMetadata().getLabels())
        .withOwnerReferences(controllerReference(job))
        .build());
    pod.setSpec(template == null || template.getSpec() == null ? new PodSpec() : template.getSpec());
    pod.setStatus(new PodStatusBuilder().withPhase(phase(job)).build());
    return pod;
  }

  private static boolean stale(Job job) {
    return job.getSpec() != null && Boolean.TRUE.equals(job.getSpec().getSuspend()) || conditionTrue(job, "Failed");
  }

  private static String phase(Job job) {
    if (conditionTrue(job, "Complete")) {
      return "Succeeded";
    }
    return conditionTrue(job, "Failed") ? "Failed" : "Pending";
  }

  /**
   * The carrier Jobs that count a pod which none of the caches shows: no pod of theirs is observed, they have not
   * ended, are neither suspended nor being deleted, and their status counts a pod (active, or ended and not yet
   * folded into a condition). The Job controller made a pod and has not seen it go: after a pod's deletion that
   * coincided with an API server restart, a Job stayed so for over 90 s, probably while its controller waited out its
   * expectations. The I/O layer times how long each stays so ({@code PodlessCarriers}) and has {@link #withCarriers}
   * replace those past its bound. A Job that never made its pod (a quota, an admission webhook) is not one of them: a
   * new Job would fare no better, and the Job controller's events say why.
   */
  public static List<Job> countingAGonePod(Observed observed) {
    if (observed.carriers().isEmpty()) {
      return List.of();
    }
    Set<String> standIns = standIns(observed);
    return observed.carriers().stream()
        .filter(j -> podless(j, standIns) && countsAGonePod(j))
        .toList();
  }

  /** The uids of the observed pods: a carrier Job whose uid is among them has a stand-in, so no pod. */
  private static Set<String> standIns(Observed observed) {
    Set<String> uids = new HashSet<>();
    observed.pods().forEach(p -> uids.add(p.getMetadata().getUid()));
    return uids;
  }

  /** A Job with no pod of its own, not being deleted. */
  private static boolean podless(Job job, Set<String> standIns) {
    return standIns.contains(job.getMetadata().getUid()) && job.getMetadata().getDeletionTimestamp() == null;
  }

  /** A Job still running by its own account: neither stale nor complete, and its status counts a pod. */
  private static boolean countsAGonePod(Job job) {
    var status = job.getStatus();
    if (status == null || stale(job) || conditionTrue(job, "Complete")) {
      return false;
    }
    var uncounted = status.getUncountedTerminatedPods();
    return positive(status.getActive()) || positive(status.getFailed()) || positive(status.getSucceeded())
        || uncounted != null && (nonEmpty(uncounted.getFailed()) || nonEmpty(uncounted.getSucceeded()));
  }

  private static boolean positive(Integer count) {
    return count != null && count > 0;
  }

  private static boolean nonEmpty(List<String> list) {
    return list != null && !list.isEmpty();
  }

  /**
   * The actions, each deletion of a pod that a carrier Job runs naming that Job (deleted with it), and a deletion of
   * every stale carrier Job, one that has no pod and is suspended or failed, not being deleted yet ({@link #standIn}),
   * and of each Job in {@code lostTrack}, named among {@link #countingAGonePod} for longer than the I/O layer waits.
   * A deleted Job's stand-in goes with it, and the engine creates the replica anew.
   */
  public static List<Action> withCarriers(List<Action> actions, Observed observed, Set<String> lostTrack) {
    if (observed.carriers().isEmpty() && observed.pods().stream().noneMatch(p -> carrierOf(p) != null)) {
      return actions;
    }
    Map<String, String> carrierByPod = new HashMap<>();
    observed.pods().forEach(p -> {
      String carrier = carrierOf(p);
      if (carrier != null) {
        carrierByPod.put(p.getMetadata().getName(), carrier);
      }
    });
    Set<String> deleted = new HashSet<>();
    List<Action> result = new ArrayList<>(actions.size());
    for (Action a : actions) {
      if (a instanceof Action.DeletePod d && d.carrierJob() == null && carrierByPod.containsKey(d.name())) {
        String carrier = carrierByPod.get(d.name());
        deleted.add(carrier);
        result.add(new Action.DeletePod(d.name(), d.why(), d.resourceVersion(), carrier));
      } else {
        result.add(a);
      }
    }
    Set<String> standIns = standIns(observed);
    for (Job job : observed.carriers()) {
      String name = job.getMetadata().getName();
      if (deleted.contains(name) || !podless(job, standIns)) {
        continue;
      }
      if (stale(job)) {
        result.add(new Action.DeletePod(name, conditionTrue(job, "Failed") ? "its Job failed with no pod left"
            : "suspended launcher Job of another controller", null, name));
      } else if (lostTrack.contains(name) && countsAGonePod(job)) {
        result.add(new Action.DeletePod(name, "its Job counts a pod that is gone", null, name));
      }
    }
    return result;
  }

  /** The name of the batch Job that controls the pod, or null when a Job does not. */
  public static String carrierOf(Pod pod) {
    OwnerReference owner = controllerOf(pod);
    return owner != null && KIND.equals(owner.getKind()) && API_VERSION.equals(owner.getApiVersion())
        ? owner.getName() : null;
  }

  private static Pod recognised(Pod pod, Function<Map<String, String>, ReplicaId> upstream) {
    Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
    if (labels.containsKey(JobLabels.REPLICA_TYPE) && labels.containsKey(JobLabels.REPLICA_INDEX)) {
      return pod;
    }
    ReplicaId replica = upstream.apply(labels);
    if (replica == null) {
      return pod;
    }
    Map<String, String> withReplica = new LinkedHashMap<>(labels);
    withReplica.put(JobLabels.REPLICA_TYPE, replica.typeLabel());
    withReplica.put(JobLabels.REPLICA_INDEX, Integer.toString(replica.index()));
    // a copy: cached pods are read-only, and the cluster's pod keeps its labels
    Pod copy = new Pod(pod.getApiVersion(), pod.getKind(),
        new ObjectMetaBuilder(pod.getMetadata()).withLabels(withReplica).build(), pod.getSpec(), pod.getStatus());
    return copy;
  }

  private static OwnerReference controllerReference(Job job) {
    return new OwnerReferenceBuilder().withApiVersion(API_VERSION).withKind(KIND)
        .withName(job.getMetadata().getName()).withUid(job.getMetadata().getUid())
        .withController(true).withBlockOwnerDeletion(true).build();
  }

  static OwnerReference controllerOf(HasMetadata object) {
    List<OwnerReference> refs = object.getMetadata().getOwnerReferences();
    return refs == null ? null
        : refs.stream().filter(r -> Boolean.TRUE.equals(r.getController())).findFirst().orElse(null);
  }

  private static boolean conditionTrue(Job job, String type) {
    List<JobCondition> conditions = job.getStatus() == null ? null : job.getStatus().getConditions();
    return conditions != null && conditions.stream()
        .anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static void copy(Map<String, String> from, Map<String, String> to, String... keys) {
    if (from == null) {
      return;
    }
    for (String key : keys) {
      if (from.containsKey(key)) {
        to.put(key, from.get(key));
      }
    }
  }
}
