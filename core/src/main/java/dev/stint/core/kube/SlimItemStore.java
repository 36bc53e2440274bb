package dev.stint.core.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * The informer caches' store: drops {@code metadata.managedFields} from every object it keeps, as controller-runtime's
 * {@code TransformStripManagedFields} does. Stint never reads them, and they are a large part of a cached pod (one
 * entry per field manager: the operator, the scheduler, the kubelet), so without them the caches take less memory and
 * each cached object is cheaper to clone and to hash.
 */
public final class SlimItemStore<R extends HasMetadata> extends BasicItemStore<R> {
  public SlimItemStore() {
    super(Cache::metaNamespaceKeyFunc);
  }

  @Override
  public R put(String key, R obj) {
    if (obj.getMetadata() != null) {
      obj.getMetadata().setManagedFields(null);
    }
    return super.put(key, obj);
  }
}
