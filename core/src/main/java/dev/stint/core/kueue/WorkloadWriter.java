package dev.stint.core.kueue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stint.core.model.EngineFramework;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The I/O edge of the Workload protocol: makes the writes {@link WorkloadSync} decided, and looks up the priority of
 * a Workload to create. A write that finds its Workload changed or gone is dropped: the Workload's watch brings the
 * job back, and the next pass decides on what is there.
 */
public final class WorkloadWriter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WorkloadWriter.class);
  /** Plain Jackson: a merge patch must keep {@code "admission": null}. */
  private static final ObjectMapper JSON = new ObjectMapper();

  private final KubernetesClient client;
  private final boolean serverSideApply;
  private final ExecutorService background = Executors.newSingleThreadExecutor(r -> {
    Thread thread = new Thread(r, "stint-workload-release");
    thread.setDaemon(true);
    return thread;
  });

  /** @param serverSideApply off only for the fabric8 mock server: conditions are then merge-patched whole */
  public WorkloadWriter(KubernetesClient client, boolean serverSideApply) {
    this.client = client;
    this.serverSideApply = serverSideApply;
  }

  /** Makes the writes, in order. */
  public <J extends TrainingJob<?>> void apply(J job, TrainingFramework<J> framework, WorkloadView workload,
                                               List<WorkloadWrite> writes) {
    for (WorkloadWrite write : writes) {
      try {
        apply(job, framework, workload, write);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404 && e.getCode() != 409 && e.getCode() != 422) {
          throw e;
        }
        LOG.debug("Workload write {} not made ({}): the next pass decides again", write, e.getCode());
        return;
      }
    }
  }

  private <J extends TrainingJob<?>> void apply(J job, TrainingFramework<J> framework, WorkloadView workload,
                                                WorkloadWrite write) {
    String namespace = job.getMetadata().getNamespace();
    var workloads = client.genericKubernetesResources(KueueApi.WORKLOADS).inNamespace(namespace);
    if (write instanceof WorkloadWrite.Create) {
      GenericKubernetesResource created = WorkloadFor.of(job, framework, priority(job, framework));
      try {
        workloads.resource(created).create();
      } catch (KubernetesClientException e) {
        if (e.getCode() == 409) {
          checkOurs(workloads.withName(created.getMetadata().getName()).get(), framework);
        }
        throw e;
      }
      LOG.info("Created Workload {} in queue {}", created.getMetadata().getName(), WorkloadFor.queueName(job));
    } else if (write instanceof WorkloadWrite.Adopt adopt) {
      adopt(job, framework, adopt.name());
    } else if (write instanceof WorkloadWrite.SetQueueing queueing) {
      Map<String, Object> spec = queueingSpec(workload, queueing);
      if (spec.isEmpty()) {
        return; // a class that does not exist: said when the Workload was made, and at debug level since
      }
      workloads.withName(workload.name()).patch(PatchContext.of(PatchType.JSON_MERGE),
          json(Map.of("metadata", Map.of("resourceVersion", workload.resourceVersion()), "spec", spec)));
      LOG.info("Workload {} follows the job: queue {}, priority class {}", workload.name(),
          queueing.queueName() == null ? "unchanged" : queueing.queueName(),
          queueing.workloadPriorityClass() == null ? "unchanged" : queueing.workloadPriorityClass());
    } else if (write instanceof WorkloadWrite.SetActive active) {
      Map<String, String> annotations = new HashMap<>(); // a null value removes the mark
      annotations.put(KueueApi.DEACTIVATED_BY_SUSPEND, active.active() ? null : "true");
      workloads.withName(workload.name()).patch(PatchContext.of(PatchType.JSON_MERGE),
          json(Map.of("metadata", Map.of("annotations", annotations), "spec", Map.of("active", active.active()))));
      LOG.info("Workload {} {} as the job is {}", workload.name(), active.active() ? "activated" : "deactivated",
          active.active() ? "resumed" : "suspended");
    } else if (write instanceof WorkloadWrite.ApplyCondition apply) {
      applyCondition(namespace, workload, apply);
    } else if (write instanceof WorkloadWrite.Release release) {
      patchStatus(namespace, workload.name(), release.body());
      LOG.info("Released the quota of evicted Workload {}", workload.name());
    } else if (write instanceof WorkloadWrite.ReplacePodSets replace) {
      workloads.withName(workload.name()).patch(PatchContext.of(PatchType.JSON),
          replacePodSets(workload.resourceVersion(), replace.podSets()));
      LOG.info("Workload {}: podSets replaced, as the job changed while queued", workload.name());
    } else if (write instanceof WorkloadWrite.ApplyReclaimablePods reclaimable) {
      applyReclaimablePods(namespace, workload, reclaimable.counts());
    } else if (write instanceof WorkloadWrite.RemoveFinalizer remove) {
      workloads.withName(workload.name()).patch(PatchContext.of(PatchType.JSON), removeFinalizer(remove.index()));
      LOG.debug("Removed the finalizer of Workload {}", workload.name());
    }
  }

  /** The spec fields of a queue or priority-class change; empty when there is nothing to write. */
  private Map<String, Object> queueingSpec(WorkloadView workload, WorkloadWrite.SetQueueing queueing) {
    Map<String, Object> spec = new LinkedHashMap<>();
    if (queueing.queueName() != null) {
      spec.put("queueName", queueing.queueName());
    }
    String name = queueing.workloadPriorityClass();
    Integer value = name == null ? null : workloadPriorityValue(name);
    if (value != null) {
      spec.put("priorityClassRef", Map.of("group", KueueApi.GROUP, "kind", "WorkloadPriorityClass", "name", name));
      spec.put("priority", value);
    } else if (name != null) {
      LOG.debug("WorkloadPriorityClass {} not found: Workload {} keeps its priority", name, workload.name());
    }
    return spec;
  }

  /** Makes the prebuilt Workload the job's, if it is there and no other object controls it. */
  private <J extends TrainingJob<?>> void adopt(J job, TrainingFramework<J> framework, String name) {
    var workload = client.genericKubernetesResources(KueueApi.WORKLOADS).inNamespace(job.getMetadata().getNamespace())
        .withName(name);
    GenericKubernetesResource prebuilt = workload.get();
    if (prebuilt == null) {
      LOG.debug("Prebuilt Workload {} is not there yet: the job waits for it", name);
      return;
    }
    Optional<Map<String, Object>> adoption = PrebuiltWorkload.adoption(prebuilt, job, framework);
    if (adoption.isEmpty()) {
      LOG.warn("Prebuilt Workload {} is controlled by another object: the job waits", name);
      return;
    }
    workload.patch(PatchContext.of(PatchType.JSON_MERGE), json(adoption.get()));
    LOG.info("Adopted prebuilt Workload {}", name);
  }

  /** A JSON patch that replaces the podSets and their digest, and fails if the Workload changed since it was read. */
  static String replacePodSets(String resourceVersion, WorkloadFor.PodSets podSets) {
    return json(List.of(op("test", "/metadata/resourceVersion", resourceVersion),
        op("replace", "/spec/podSets", podSets.podSets()),
        op("add", "/metadata/annotations/" + KueueApi.PODSETS_DIGEST.replace("/", "~1"), podSets.digest())));
  }

  private static Map<String, Object> op(String op, String path, Object value) {
    Map<String, Object> operation = new LinkedHashMap<>();
    operation.put("op", op);
    operation.put("path", path);
    operation.put("value", value);
    return operation;
  }

  /** A JSON patch that removes Kueue's finalizer at that index, and fails if another entry is there now. */
  static String removeFinalizer(int index) {
    String path = "/metadata/finalizers/" + index;
    Map<String, Object> test = new LinkedHashMap<>();
    test.put("op", "test");
    test.put("path", path);
    test.put("value", KueueApi.FINALIZER);
    Map<String, Object> remove = new LinkedHashMap<>();
    remove.put("op", "remove");
    remove.put("path", path);
    return json(List.of(test, remove));
  }

  /**
   * One condition by server-side apply under its own field manager (Kueue's fields stay Kueue's); without
   * server-side apply, the whole list merge-patched under the resource version observed.
   */
  private void applyCondition(String namespace, WorkloadView workload, WorkloadWrite.ApplyCondition apply) {
    var resource = client.genericKubernetesResources(KueueApi.WORKLOADS).inNamespace(namespace)
        .withName(workload.name()).subresource("status");
    if (serverSideApply) {
      Map<String, Object> body = Map.of("apiVersion", KueueApi.API_VERSION, "kind", "Workload",
          "metadata", Map.of("name", workload.name(), "namespace", namespace),
          "status", Map.of("conditions", List.of(apply.condition().toMap())));
      resource.patch(new PatchContext.Builder().withPatchType(PatchType.SERVER_SIDE_APPLY)
          .withFieldManager(apply.fieldManager()).withForce(true).build(), json(body));
    } else {
      List<Map<String, Object>> conditions = WorkloadCondition.set(workload.conditions(), apply.condition()).stream()
          .map(WorkloadCondition::toMap).toList();
      patchStatus(namespace, workload.name(), Map.of(
          "metadata", Map.of("resourceVersion", workload.resourceVersion()),
          "status", Map.of("conditions", conditions)));
    }
    LOG.debug("Workload {}: {}={} ({})", workload.name(), apply.condition().type(), apply.condition().status(),
        apply.condition().reason());
  }

  /**
   * {@code status.reclaimablePods} by server-side apply under Stint's own field manager: the list is a map keyed by
   * name, so Kueue's other status fields and conditions stay untouched. Without server-side apply, the whole list
   * patched under the resource version observed.
   */
  private void applyReclaimablePods(String namespace, WorkloadView workload, Map<String, Integer> counts) {
    List<Map<String, Object>> entries = counts.entrySet().stream()
        .map(e -> Map.<String, Object>of("name", e.getKey(), "count", e.getValue())).toList();
    if (serverSideApply) {
      Map<String, Object> body = Map.of("apiVersion", KueueApi.API_VERSION, "kind", "Workload",
          "metadata", Map.of("name", workload.name(), "namespace", namespace),
          "status", Map.of("reclaimablePods", entries));
      client.genericKubernetesResources(KueueApi.WORKLOADS).inNamespace(namespace).withName(workload.name())
          .subresource("status").patch(new PatchContext.Builder().withPatchType(PatchType.SERVER_SIDE_APPLY)
              .withFieldManager(ReclaimablePods.MANAGER).withForce(true).build(), json(body));
    } else {
      patchStatus(namespace, workload.name(), Map.of(
          "metadata", Map.of("resourceVersion", workload.resourceVersion()),
          "status", Map.of("reclaimablePods", entries)));
    }
    LOG.info("Workload {}: reclaimable pods {}", workload.name(), counts);
  }

  /**
   * A Workload of the job's name that Stint did not create (it lacks Stint's label): Kueue's own integration for the
   * kind is still on, and the job would be queued twice.
   */
  private static void checkOurs(GenericKubernetesResource existing, TrainingFramework<?> framework) {
    var labels = existing == null ? null : existing.getMetadata().getLabels();
    if (existing != null && (labels == null
        || !EngineFramework.of(framework).controllerName().equals(labels.get("training.kubeflow.org/operator-name")))) {
      throw new ForeignWorkloadException(existing.getMetadata().getName());
    }
  }

  /** See {@link #checkOurs}. */
  public static final class ForeignWorkloadException extends RuntimeException {
    private final String workload;

    ForeignWorkloadException(String workload) {
      super("Workload " + workload + " exists and was not created by Stint");
      this.workload = workload;
    }

    public String workload() {
      return workload;
    }
  }

  /**
   * A merge patch of {@code /status} whose {@code metadata.resourceVersion} locks it. Without server-side apply (the
   * fabric8 mock server, whose merge patches append to lists instead of replacing them), the same change as a JSON
   * patch: a test of the resource version, then each status field set.
   */
  @SuppressWarnings("unchecked")
  private void patchStatus(String namespace, String name, Map<String, Object> body) {
    var resource = client.genericKubernetesResources(KueueApi.WORKLOADS).inNamespace(namespace).withName(name)
        .subresource("status");
    if (serverSideApply) {
      resource.patch(PatchContext.of(PatchType.JSON_MERGE), json(body));
      return;
    }
    List<Map<String, Object>> ops = new java.util.ArrayList<>();
    Map<String, Object> test = new LinkedHashMap<>();
    test.put("op", "test");
    test.put("path", "/metadata/resourceVersion");
    test.put("value", ((Map<String, Object>) body.get("metadata")).get("resourceVersion"));
    ops.add(test);
    ((Map<String, Object>) body.get("status")).forEach((field, value) -> {
      Map<String, Object> set = new LinkedHashMap<>();
      set.put("op", "add");
      set.put("path", "/status/" + field);
      set.put("value", value);
      ops.add(set);
    });
    resource.patch(PatchContext.of(PatchType.JSON), json(ops));
  }

  /** The priority of the class the job asks for; a class that does not exist gives none, with a warning. */
  private <J extends TrainingJob<?>> WorkloadFor.Priority priority(J job, TrainingFramework<J> framework) {
    Optional<WorkloadFor.PriorityRef> ref = WorkloadFor.priorityClass(job, framework);
    if (ref.isEmpty()) {
      return globalDefaultPriority();
    }
    Integer value;
    if ("PriorityClass".equals(ref.get().kind())) {
      var priorityClass = client.scheduling().v1().priorityClasses().withName(ref.get().name()).get();
      value = priorityClass == null ? null : priorityClass.getValue();
    } else {
      value = workloadPriorityValue(ref.get().name());
    }
    if (value == null) {
      LOG.warn("{} {} not found: the Workload gets priority 0", ref.get().kind(), ref.get().name());
      return WorkloadFor.Priority.NONE;
    }
    return new WorkloadFor.Priority(ref.get(), value);
  }

  /**
   * No class asked for: as Kueue ({@code GetPriorityFromPriorityClass("")}), the cluster's global default
   * PriorityClass, the lowest of them should there be several; else none (priority 0). The pods get it as well.
   */
  private WorkloadFor.Priority globalDefaultPriority() {
    return client.scheduling().v1().priorityClasses().list().getItems().stream()
        .filter(pc -> Boolean.TRUE.equals(pc.getGlobalDefault()) && pc.getValue() != null)
        .min(Comparator.comparingInt(pc -> pc.getValue()))
        .map(pc -> new WorkloadFor.Priority(WorkloadFor.PriorityRef.podPriorityClass(pc.getMetadata().getName()),
            pc.getValue()))
        .orElse(WorkloadFor.Priority.NONE);
  }

  /** The value of a WorkloadPriorityClass; null when there is no such class. */
  private Integer workloadPriorityValue(String name) {
    var priorityClass = client.genericKubernetesResources(KueueApi.WORKLOAD_PRIORITY_CLASSES).withName(name).get();
    return priorityClass == null || !(priorityClass.getAdditionalProperties().get("value") instanceof Number n)
        ? null : n.intValue();
  }

  /**
   * {@link #release} in the background, if the API server confirms the job is gone: called from informers' threads,
   * which must not wait on the API server, and from caches that may lag behind it.
   */
  public void releaseLater(GenericKubernetesResource workload, Class<? extends HasMetadata> jobType) {
    background.execute(() -> {
      if (!jobExists(workload, jobType)) {
        release(workload);
      }
    });
  }

  /** As above, for a Workload Stint does not watch (Kueue's own integration made it): only if the gone job owns it. */
  public void releaseLater(String namespace, String name, String jobUid, Class<? extends HasMetadata> jobType) {
    background.execute(() -> {
      try {
        var found = client.genericKubernetesResources(KueueApi.WORKLOADS).inNamespace(namespace).withName(name).get();
        WorkloadView.Owner owner = found == null ? null : WorkloadView.ownerOf(found);
        if (owner != null && jobUid.equals(owner.uid()) && !jobExists(found, jobType)) release(found);
      } catch (KubernetesClientException e) {
        LOG.warn("Workload {}/{} of a deleted job not read: {}", namespace, name, e.getMessage());
      }
    });
  }

  private boolean jobExists(GenericKubernetesResource workload, Class<? extends HasMetadata> jobType) {
    WorkloadView.Owner owner = WorkloadView.ownerOf(workload);
    if (owner == null || owner.name() == null) {
      return false;
    }
    try {
      // a list by name, not a get: the operator's role lists its kinds (informers) and needs no get on them
      return client.resources(jobType).inNamespace(workload.getMetadata().getNamespace())
          .withField("metadata.name", owner.name()).list().getItems().stream()
          .anyMatch(job -> owner.uid() != null && owner.uid().equals(job.getMetadata().getUid()));
    } catch (KubernetesClientException e) {
      LOG.warn("Workload {}/{} kept: its job could not be read ({})", workload.getMetadata().getNamespace(),
          workload.getMetadata().getName(), e.getMessage());
      return true;
    }
  }

  @Override
  public void close() {
    background.shutdown();
  }

  /**
   * Lets a Workload whose job is gone go: its finalizer removed (Kueue holds the quota until it is), then the
   * Workload deleted, for clusters without a garbage collector.
   */
  void release(GenericKubernetesResource workload) {
    WorkloadView view = WorkloadView.of(workload);
    var resource = client.genericKubernetesResources(KueueApi.WORKLOADS)
        .inNamespace(workload.getMetadata().getNamespace()).withName(view.name());
    try {
      if (view.hasFinalizer()) {
        resource.patch(PatchContext.of(PatchType.JSON),
            removeFinalizer(view.finalizers().indexOf(KueueApi.FINALIZER)));
      }
      resource.delete();
      LOG.info("Workload {}/{} released: its job is gone", workload.getMetadata().getNamespace(), view.name());
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404 || e.getCode() == 422) {
        return; // gone already, or its finalizer: released by an earlier call
      }
      LOG.warn("Workload {}/{} of a deleted job not released: {}", workload.getMetadata().getNamespace(),
          view.name(), e.getMessage());
    }
  }

  static String json(Object body) {
    try {
      return JSON.writeValueAsString(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a map of plain values always serializes", e);
    }
  }
}
