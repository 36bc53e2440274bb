package dev.stint.kubeclient;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The informer caches' store: keeps of each object what the engine reads, as controller-runtime's cache transforms
 * do. It drops {@code metadata.managedFields} from every object ({@code TransformStripManagedFields}): one entry per
 * field manager (the operator, the scheduler, the kubelet), a large part of a cached pod.
 *
 * <p>Of a pod's spec the engine reads only the container names (which container's exit code counts) and the
 * scheduling fields; the environment, commands, volumes and mounts it wrote itself are dropped from the cached copy.
 * That is most of a PyTorchJob pod (ten environment variables, the init container, the service-account token volume):
 * at 2000 jobs and 8000 pods the caches were most of the operator's heap (docs/benchmarks.md). Pods a decision
 * creates are always built from the job's template, never from a cached pod.
 */
public final class SlimItemStore<R extends HasMetadata> extends BasicItemStore<R> {
  /**
   * Objects an informer lists per request, when it starts and when it lists again after its watch expired: pages
   * bound what one list holds in the heap at once. A pod as fabric8 decodes it takes 39 KB of heap, its managed
   * fields included, before the store trims it to 3 ({@code CachedFootprintTest}): unpaged, the first list of an
   * operator restarted at 2000 jobs (8000 pods) needed some 300 MB at once. client-go's reflector pages by 500 too.
   */
  public static final long LIST_PAGE = 500;

  /** The fields of a pod's spec that the store drops, by their JSON names; {@link WatchEventReader} never reads them. */
  static final List<String> DROPPED_POD_SPEC_FIELDS = List.of("volumes");
  /** The same of each container ({@link #slim(List)} drops these). */
  static final List<String> DROPPED_CONTAINER_FIELDS = List.of("env", "envFrom", "command", "args", "volumeMounts");

  private final Consumer<R> onRemove;
  private final boolean compact;
  /** For the batch Job cache: the kind whose Jobs are kept whole; others are kept as their name only. */
  private final String carrierOwnerKind;
  /** Objects put or removed since the store was made: the informer's watch (or list) delivered something. */
  private final AtomicLong delivered = new AtomicLong();

  public SlimItemStore() {
    this(removed -> { });
  }

  /**
   * A store that tells when an object leaves the cache: deleted, or gone when the informer lists again. Without a
   * finalizer this is how the engine learns that a job is gone.
   */
  public SlimItemStore(Consumer<R> onRemove) {
    this(onRemove, false);
  }

  private SlimItemStore(Consumer<R> onRemove, boolean compact) {
    this(onRemove, compact, null);
  }

  private SlimItemStore(Consumer<R> onRemove, boolean compact, String carrierOwnerKind) {
    super(Cache::metaNamespaceKeyFunc);
    this.onRemove = onRemove;
    this.compact = compact;
    this.carrierOwnerKind = carrierOwnerKind;
  }

  /**
   * The store of batch Jobs that carry replicas of the kind {@code ownerKind}: a Job's controller is not something a
   * label selector can ask for, and the upstream operator's Jobs carry none of Stint's labels (the MPI Operator's
   * only {@code app}), so the informer watches every Job. Those controlled by an object of {@code ownerKind} are kept
   * as children are (their pod template slimmed as a pod); every other Job is kept as its name alone, so that the
   * cluster's other batch Jobs cost next to no memory.
   */
  public static SlimItemStore<Job> forCarrierJobs(String ownerKind, Consumer<Job> onRemove) {
    return new SlimItemStore<>(onRemove, true, ownerKind);
  }

  /**
   * The store of a job's children (pods, services, supporting objects): as {@link #SlimItemStore(Consumer)}, and each
   * object is also {@linkplain CompactObjects compacted}, so that it is read-only. Children are most of what the
   * operator caches (four pods and four services to a PyTorchJob of four replicas), and nothing writes them back.
   */
  public static <R extends HasMetadata> SlimItemStore<R> forChildren(Consumer<R> onRemove) {
    return new SlimItemStore<>(onRemove, true);
  }

  /**
   * How many objects the informer has put into or removed from this store so far, counting its lists and its watch
   * events: a number that moved since it was last read proves the informer's watch was alive in between.
   */
  public long delivered() {
    return delivered.get();
  }

  @Override
  public R remove(String key) {
    delivered.incrementAndGet();
    R removed = super.remove(key);
    if (removed != null) {
      onRemove.accept(removed);
    }
    return removed;
  }

  @Override
  public R put(String key, R obj) {
    delivered.incrementAndGet();
    if (obj.getMetadata() != null) {
      obj.getMetadata().setManagedFields(null);
    }
    if (obj instanceof Pod pod && pod.getSpec() != null) {
      slim(pod.getSpec());
    }
    if (obj instanceof Job job && carrierOwnerKind != null) {
      slim(job);
    }
    return super.put(key, compact ? CompactObjects.compact(obj) : obj);
  }

  private void slim(Job job) {
    boolean carrier = job.getMetadata().getOwnerReferences() != null && job.getMetadata().getOwnerReferences()
        .stream().anyMatch(r -> Boolean.TRUE.equals(r.getController()) && carrierOwnerKind.equals(r.getKind()));
    if (!carrier) {
      ObjectMeta meta = job.getMetadata();
      job.setMetadata(new ObjectMetaBuilder().withName(meta.getName()).withNamespace(meta.getNamespace())
          .withUid(meta.getUid()).withResourceVersion(meta.getResourceVersion()).withOwnerReferences(List.of())
          .withLabels(Map.of()).build());
      job.setSpec(null);
      job.setStatus(null);
    } else if (job.getSpec() != null && job.getSpec().getTemplate() != null
        && job.getSpec().getTemplate().getSpec() != null) {
      slim(job.getSpec().getTemplate().getSpec());
    }
  }

  private static void slim(PodSpec spec) {
    spec.setVolumes(List.of()); // empty, not null: readers of a cached pod need no null checks
    slim(spec.getContainers());
    slim(spec.getInitContainers());
  }

  private static void slim(List<Container> containers) {
    if (containers == null) {
      return;
    }
    for (Container c : containers) {
      c.setEnv(List.of());
      c.setEnvFrom(List.of());
      c.setCommand(List.of());
      c.setArgs(List.of());
      c.setVolumeMounts(List.of());
    }
  }
}
