package dev.stint.core.kube;

import dev.stint.core.decision.CarrierJobs;
import dev.stint.core.model.Action;
import dev.stint.kubeclient.LeanWrites;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out a decision's actions against the API server. Creating what the job already owns (409, and the existing
 * object's controller is the job) and deleting what is gone (404) count as done, so a pass that runs on a stale cache,
 * or again after an operator restart, is harmless. A creation that can never succeed (the API server refuses the
 * object as invalid or forbidden, or another object holds its name) throws {@link ChildRefused}, which ends the job;
 * any other error is thrown as it came, and the reconciler retries it ({@link ApiRefusal} sorts them).
 *
 * <p>The reconciler applies a pass in two steps around its status write: {@link #beforeStatus} first, then
 * {@link #afterStatus}. Within a step, independent actions of one kind (the pods of a pass, the services of a pass)
 * go out concurrently, so suspending or starting a job of n replicas costs one API round trip instead of n; each
 * kind still waits for the one before it, so the order the decision gave between kinds holds.
 */
public final class ActionApplier {
  private static final Logger LOG = LoggerFactory.getLogger(ActionApplier.class);

  private final KubernetesClient client;
  private final LeanWrites lean;
  private final RequestsInFlight inFlight = new RequestsInFlight();

  public ActionApplier(KubernetesClient client) {
    this.client = client;
    this.lean = new LeanWrites(client);
  }

  public KubernetesClient client() {
    return client;
  }

  /**
   * What the status reports on or the job needs to run: pod changes, and the creation of services and supporting
   * objects. Applied before the status, so a status never tells of pods whose services are still to come.
   */
  public static List<Action> beforeStatus(List<Action> actions) {
    return actions.stream().filter(a -> !removal(a)).toList();
  }

  /**
   * Removals of services, supporting objects and the job itself: applied after the status, so a suspension reads
   * {@code active: 0} as soon as its pods are being deleted, without waiting for the rest to go.
   */
  public static List<Action> afterStatus(List<Action> actions) {
    return actions.stream().filter(ActionApplier::removal).toList();
  }

  private static boolean removal(Action a) {
    return a instanceof Action.DeleteService || a instanceof Action.DeleteResource || a instanceof Action.DeleteJob;
  }

  /** Whether the actions create a pod or a service. */
  public static boolean createsChildren(List<Action> actions) {
    return actions.stream().anyMatch(ActionApplier::childCreation);
  }

  /** The actions without the creations of pods and services. */
  public static List<Action> withoutCreations(List<Action> actions) {
    return actions.stream().filter(a -> !childCreation(a)).toList();
  }

  private static boolean childCreation(Action a) {
    return a instanceof Action.CreatePod || a instanceof Action.CreateService;
  }

  /**
   * Applies the actions in order, except that a run of consecutive actions of the same kind on pods or services goes
   * out concurrently; records an event for each child created or deleted.
   */
  public void apply(HasMetadata job, List<Action> actions, EventRecorder events) {
    apply(job, actions, events, false);
  }

  /**
   * As {@link #apply(HasMetadata, List, EventRecorder)}; for a job whose children the API server has already accepted
   * ({@code accepted}), creations skip the slow start and go out in full waves at once. So do the creations after a
   * run of them that went through in this pass (the services after the pods).
   */
  public void apply(HasMetadata job, List<Action> actions, EventRecorder events, boolean accepted) {
    String ns = job.getMetadata().getNamespace();
    boolean acceptedNow = accepted;
    int i = 0;
    while (i < actions.size()) {
      int end = i + 1;
      Class<?> kind = actions.get(i).getClass();
      if (concurrent(actions.get(i))) {
        while (end < actions.size() && actions.get(end).getClass() == kind) {
          end++;
        }
      }
      applyBatch(job, ns, actions.subList(i, end), events, acceptedNow);
      acceptedNow |= childCreation(actions.get(i));
      i = end;
    }
  }

  private static boolean concurrent(Action a) {
    return a instanceof Action.CreatePod || a instanceof Action.DeletePod || a instanceof Action.CreateService
        || a instanceof Action.DeleteService;
  }

  /**
   * Runs the batch, its requests sent together ({@link #applyConcurrently}); the first failure is rethrown.
   * Creations go out in growing waves (1, 2, 4, ... up to {@link #MAX_WAVE}), each only once the one before it
   * succeeded, as the batch Job controller's slow start: a refused pod of a large job costs one request, not
   * thousands, and only one wave of built pods is held at a time. A job that already has pods starts at full waves:
   * its pods are accepted.
   */
  private void applyBatch(HasMetadata job, String ns, List<Action> batch, EventRecorder events, boolean accepted) {
    boolean creations = batch.get(0) instanceof Action.CreatePod || batch.get(0) instanceof Action.CreateService;
    int wave = !creations ? batch.size() : accepted ? MAX_WAVE : 1;
    int i = 0;
    while (i < batch.size()) {
      int end = Math.min(batch.size(), i + wave);
      applyConcurrently(job, ns, batch.subList(i, end), events);
      i = end;
      wave = Math.min(MAX_WAVE, wave * 2);
    }
  }

  /**
   * The largest wave: deletions sent at once at most (the reconcile thread's own and those
   * {@link RequestsInFlight#IN_FLIGHT} allows); creations built and sent together, of which
   * {@link RequestsInFlight#CREATIONS_IN_FLIGHT} and the thread's own are in flight at a time.
   */
  public static final int MAX_WAVE = RequestsInFlight.IN_FLIGHT + 1;

  /**
   * Sends every action of the batch that {@link LeanWrites} carries before waiting for any answer, then settles them
   * in order on this thread (an event for each child created or deleted, a refusal judged), running the others (a
   * carried pod's Job) in between; the most telling failure is rethrown once all are settled.
   */
  private void applyConcurrently(HasMetadata job, String ns, List<Action> batch, EventRecorder events) {
    if (batch.size() == 1) {
      applyOne(job, ns, batch.get(0), events);
      return;
    }
    List<Runnable> settles = new ArrayList<>(batch.size());
    boolean own = true; // the first request is this thread's own, as a blocking call would be
    for (Action a : batch) {
      Runnable settle = sent(job, ns, a, events, own);
      own &= settle == null;
      settles.add(settle != null ? settle : () -> applyOne(job, ns, a, events));
    }
    RuntimeException first = null;
    for (Runnable settle : settles) {
      try {
        settle.run();
      } catch (RuntimeException e) {
        first = first == null ? e : moreTelling(first, e);
      }
    }
    if (first != null) {
      throw first;
    }
  }

  /**
   * Sends the action's request now, if {@link LeanWrites} carries it, and returns what settles it once answered;
   * null for an action that runs as a blocking call. The request takes one of {@link RequestsInFlight#IN_FLIGHT} unless
   * it is this thread's {@code own}.
   */
  private Runnable sent(HasMetadata job, String ns, Action action, EventRecorder events, boolean own) {
    if (action instanceof Action.CreatePod a && !a.carriedByJob()) {
      CompletableFuture<String> answer = inFlight.creation(own, () -> lean.createAsync(ns, "pods", a.pod()));
      return () -> created(job, "Pod", a.name(), answer, () -> client.pods().inNamespace(ns).withName(a.name()).get(),
          events);
    } else if (action instanceof Action.CreateService a) {
      CompletableFuture<String> answer = inFlight.creation(own, () -> lean.createAsync(ns, "services", a.service()));
      return () -> created(job, "Service", a.name(), answer,
          () -> client.services().inNamespace(ns).withName(a.name()).get(), events);
    } else if (action instanceof Action.DeletePod a && a.carrierJob() == null) {
      CompletableFuture<String> answer =
          inFlight.deletion(own, () -> lean.deleteAsync(ns, "pods", a.name(), a.resourceVersion()));
      return () -> podDeleted(job, a, () -> LeanWrites.answer(answer), events);
    } else if (action instanceof Action.DeleteService a) {
      CompletableFuture<String> answer = inFlight.deletion(own, () -> lean.deleteAsync(ns, "services", a.name(), null));
      return () -> delete(() -> LeanWrites.answer(answer));
    }
    return null;
  }

  /** Of two failures of one wave, the one that ends the job wins: it is the one the user must act on. */
  private static RuntimeException moreTelling(RuntimeException a, RuntimeException b) {
    return !(a instanceof ChildRefused) && b instanceof ChildRefused ? b : a;
  }

  private void applyOne(HasMetadata job, String ns, Action action, EventRecorder events) {
    if (action instanceof Action.CreatePod a && a.carriedByJob()) {
      Job carrier = CarrierJobs.carrying(a.pod());
      if (create(job, "Job", a.name(), () -> client.batch().v1().jobs().inNamespace(ns).resource(carrier).create(),
          () -> client.batch().v1().jobs().inNamespace(ns).withName(a.name()).get())) {
        events.normal(job, "SuccessfulCreateJob", "Created job: " + a.name());
      }
    } else if (action instanceof Action.DeletePod a && a.carrierJob() != null) {
      deleteCarried(job, ns, a, events);
    } else if (action instanceof Action.ApplyResource a) {
      applyResource(job, ns, a.resource(), a.replacing());
    } else if (action instanceof Action.DeleteResource a) {
      delete(() -> client.resource(a.resource()).inNamespace(ns).delete());
    } else if (action instanceof Action.DeleteJob) {
      LOG.info("Deleting job: ttlSecondsAfterFinished has passed");
      delete(() -> client.resource(job).inNamespace(ns).delete());
    } else {
      Runnable settle = sent(job, ns, action, events, true); // pods and services, through LeanWrites
      if (settle != null) {
        settle.run();
      }
    }
  }

  /**
   * Deletes a carried pod's batch Job in the background (the Job goes at once, so its controller makes no new pod;
   * the garbage collector follows), then the pod itself, so that its containers get SIGTERM now. A stand-in for a Job
   * with no pod ({@link CarrierJobs#observedPods}) has the Job's name: only the Job is deleted.
   */
  private void deleteCarried(HasMetadata job, String ns, Action.DeletePod a, EventRecorder events) {
    if (!client.batch().v1().jobs().inNamespace(ns).withName(a.carrierJob())
        .withPropagationPolicy(DeletionPropagation.BACKGROUND).delete().isEmpty()) { // empty: gone already
      LOG.info("Deleted job {} ({})", a.carrierJob(), a.why());
      events.normal(job, "SuccessfulDeleteJob", "Deleted job: " + a.carrierJob());
    }
    if (!a.name().equals(a.carrierJob())) {
      podDeleted(job, a, () -> lean.delete(ns, "pods", a.name(), a.resourceVersion()), events);
    }
  }

  /** Runs the pod's deletion ({@code call}) and, if it deleted the pod, logs it and records its event. */
  private static void podDeleted(HasMetadata job, Action.DeletePod a, Runnable call, EventRecorder events) {
    if (deletePod(a, call)) {
      LOG.info("Deleted pod {} ({})", a.name(), a.why());
      events.normal(job, "SuccessfulDeletePod", "Deleted pod: " + a.name());
    }
  }

  private static boolean deletePod(Action.DeletePod a, Runnable call) {
    if (a.resourceVersion() == null) {
      return delete(call);
    }
    try {
      call.run();
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404 || e.getCode() == 409) {
        return false; // gone, or changed since it was observed (it may have ended): the next pass judges it again
      }
      throw e;
    }
  }

  /** Settles a pod's or service's creation sent as {@code answer}: its event if this call created it. */
  private static void created(HasMetadata job, String kind, String name, CompletableFuture<String> answer,
                              Supplier<? extends HasMetadata> existing, EventRecorder events) {
    if (create(job, kind, name, () -> LeanWrites.answer(answer), existing)) {
      events.normal(job, "SuccessfulCreate" + kind, "Created " + kind.toLowerCase(Locale.ROOT) + ": " + name);
    }
  }

  private void applyResource(HasMetadata job, String ns, HasMetadata desired, String replacing) {
    String kind = desired.getKind();
    String name = desired.getMetadata().getName();
    if (replacing == null) {
      HasMetadata[] existing = new HasMetadata[1];
      boolean created = create(job, kind, name, () -> client.resource(desired).inNamespace(ns).create(),
          () -> existing[0] = client.resource(desired).inNamespace(ns).get());
      if (!created && existing[0] != null && !carriesLabels(existing[0], desired.getMetadata().getLabels())) {
        adopt(ns, desired, existing[0]);
      }
    } else {
      desired.getMetadata().setResourceVersion(replacing);
      try {
        client.resource(desired).inNamespace(ns).update();
      } catch (KubernetesClientException e) {
        throw refusedOrRetried(kind, name, e);
      }
    }
  }

  /**
   * The job's own object, made by the controller Stint took the job over from (the MPI Operator's hostfile ConfigMap
   * and Service), which the informers do not show without Stint's labels: labelled, so that the next pass sees it and
   * brings it up to date (an object made only once, an SSH key, is kept as it is). Without this the object stayed as
   * the other controller left it, however the job changed.
   */
  private void adopt(String ns, HasMetadata desired, HasMetadata existing) {
    LOG.info("Adopting {} {}, the job's though not made by Stint", desired.getKind(), desired.getMetadata().getName());
    String labels = client.getKubernetesSerialization()
        .asJson(Map.of("metadata", Map.of("labels", desired.getMetadata().getLabels())));
    try {
      client.resource(existing).inNamespace(ns).patch(PatchContext.of(PatchType.JSON_MERGE), labels);
    } catch (KubernetesClientException e) {
      throw refusedOrRetried(desired.getKind(), desired.getMetadata().getName(), e);
    }
  }

  private static boolean carriesLabels(HasMetadata object, Map<String, String> labels) {
    Map<String, String> current = object.getMetadata().getLabels();
    return labels == null || current != null && current.entrySet().containsAll(labels.entrySet());
  }

  /**
   * Creates a child. An existing child of that name counts as created only when the job is its controller; one that
   * belongs to anything else holds the name the job needs, so the job cannot run.
   *
   * @return whether this call created it
   */
  private static boolean create(HasMetadata job, String kind, String name, Runnable call,
                                Supplier<? extends HasMetadata> existing) {
    try {
      call.run();
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw refusedOrRetried(kind, name, e);
      }
      HasMetadata found = existing.get();
      if (found == null) {
        throw e; // deleted since: the retry creates it
      }
      OwnerReference owner = controllerOf(found);
      if (owner != null && job.getMetadata().getUid().equals(owner.getUid())) {
        return false;
      }
      if (found.getMetadata().getDeletionTimestamp() != null || earlierJobOfTheSameName(job, owner)) {
        // a child of a job deleted and created again under its name: the garbage collector is removing it
        throw new KubernetesClientException(new StatusBuilder().withCode(409).withReason("AlreadyExists")
            .withMessage(kind + " " + name + " still exists, left by an earlier " + job.getKind() + " of this name; "
                + "waiting until it is gone").build());
      }
      throw new ChildRefused(kind + " " + name + " already exists and is not this job's: "
          + (owner == null ? "it has no controller" : "its controller is " + describe(owner))
          + "; delete it or give the job another name");
    }
  }

  private static RuntimeException refusedOrRetried(String kind, String name, KubernetesClientException e) {
    ApiRefusal refusal = ApiRefusal.of(e);
    return refusal.permanent() ? new ChildRefused(refusal.message()) : e;
  }

  private static OwnerReference controllerOf(HasMetadata object) {
    List<OwnerReference> refs = object.getMetadata().getOwnerReferences();
    return refs == null ? null
        : refs.stream().filter(r -> Boolean.TRUE.equals(r.getController())).findFirst().orElse(null);
  }

  private static boolean earlierJobOfTheSameName(HasMetadata job, OwnerReference owner) {
    return owner != null && job.getKind().equals(owner.getKind())
        && job.getMetadata().getName().equals(owner.getName());
  }

  private static String describe(OwnerReference owner) {
    return owner.getKind() + " " + owner.getName() + " (uid " + owner.getUid() + ")";
  }

  /** Runs a deletion; whether it deleted something, false when it was gone already (404). */
  private static boolean delete(Runnable call) {
    try {
      call.run(); // fabric8's typed delete answers a 404 with an empty list, the lean one with the 404
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return false;
      }
      throw e;
    }
  }
}
