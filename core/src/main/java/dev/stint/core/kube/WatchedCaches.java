package dev.stint.core.kube;

import dev.stint.kubeclient.MetadataLister;
import dev.stint.kubeclient.SlimItemStore;
import dev.stint.kubeclient.WatchedCache;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.javaoperatorsdk.operator.api.config.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.config.informer.InformerConfiguration;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.source.informer.ManagedInformerEventSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The {@link WatchedCache} of a JOSDK informer, for the deaf-watch check: kube-client's workaround knows fabric8
 * only, the engine's informers are JOSDK's event sources.
 */
public final class WatchedCaches {
  private WatchedCaches() {
  }

  /** The informer of one JOSDK event source of {@code controller}. */
  public static <R extends HasMetadata> WatchedCache of(ManagedInformerEventSource<R, ?, ?> source,
                                                         ControllerConfiguration<?> controller,
                                                         KubernetesClient client) {
    InformerConfiguration<R> informer = source.configuration().getInformerConfig();
    Set<String> namespaces = informer.getEffectiveNamespaces(controller);
    // from the API server's watch cache, as an informer's first list: cheap for it, and fresh within milliseconds
    ListOptions options = new ListOptionsBuilder().withResourceVersion("0")
        .withLabelSelector(informer.getLabelSelector()).build();
    Lister lister = lister(source, informer, client, options);
    Supplier<Map<String, String>> apiServer = () -> {
      Map<String, String> versions = new HashMap<>();
      if (InformerConfiguration.allNamespacesWatched(namespaces)) {
        versions.putAll(lister.list(null));
      } else {
        for (String namespace : namespaces) {
          versions.putAll(lister.list(namespace));
        }
      }
      return versions;
    };
    Supplier<Map<String, String>> cache = () -> {
      Map<String, String> versions = new HashMap<>();
      versions(source.list(r -> true).toList(), versions);
      return versions;
    };
    return new WatchedCache(controller.getName() + "/" + source.name(), plural(source, informer), apiServer, cache,
        delivered(informer, namespaces));
  }

  /**
   * What the informer's store counts, where one informer fills it: JOSDK gives every namespace's informer the same
   * store, so with several namespaces one live watch would vouch for a deaf one, and they are listed at every check.
   */
  private static LongSupplier delivered(InformerConfiguration<?> informer, Set<String> namespaces) {
    boolean oneWatch = InformerConfiguration.allNamespacesWatched(namespaces) || namespaces.size() == 1;
    if (oneWatch && informer.getItemStore() instanceof SlimItemStore<?> store) {
      return store::delivered;
    }
    return () -> 0;
  }

  private static String plural(ManagedInformerEventSource<?, ?, ?> source, InformerConfiguration<?> informer) {
    if (informer.getResourceClass() == GenericKubernetesResource.class
        && source.configuration() instanceof InformerEventSourceConfiguration<?> config
        && config.getGroupVersionKind().isPresent()) {
      return io.fabric8.kubernetes.api.Pluralize.toPlural(
          config.getGroupVersionKind().get().getKind().toLowerCase(java.util.Locale.ROOT));
    }
    return HasMetadata.getPlural(informer.getResourceClass());
  }

  /** Lists one namespace, or every namespace when given null, as object key to resource version. */
  private interface Lister {
    Map<String, String> list(String namespace);
  }

  private static Lister lister(ManagedInformerEventSource<?, ?, ?> source, InformerConfiguration<?> informer,
                               KubernetesClient client, ListOptions options) {
    if (informer.getResourceClass() == GenericKubernetesResource.class
        && source.configuration() instanceof InformerEventSourceConfiguration<?> config
        && config.getGroupVersionKind().isPresent()) {
      GroupVersionKind gvk = config.getGroupVersionKind().get();
      var resources = client.genericKubernetesResources(gvk.apiVersion(), gvk.getKind());
      return namespace -> keys(namespace == null ? resources.inAnyNamespace().list(options).getItems()
          : resources.inNamespace(namespace).list(options).getItems());
    }
    Class<? extends HasMetadata> resource = informer.getResourceClass();
    return new MetadataLister(client, HasMetadata.getGroup(resource), HasMetadata.getVersion(resource),
        HasMetadata.getPlural(resource), informer.getLabelSelector())::list;
  }

  private static Map<String, String> keys(List<? extends HasMetadata> items) {
    Map<String, String> versions = new HashMap<>();
    versions(items, versions);
    return versions;
  }

  private static void versions(List<? extends HasMetadata> items, Map<String, String> into) {
    for (HasMetadata item : items) {
      into.put(item.getMetadata().getNamespace() + "/" + item.getMetadata().getName(),
          item.getMetadata().getResourceVersion());
    }
  }
}
