package dev.stint.core.reconciler;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.IndexedResourceCache;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.api.reconciler.dependent.managed.ManagedWorkflowAndDependentResourceContext;
import io.javaoperatorsdk.operator.processing.event.EventSourceRetriever;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What JOSDK hands a reconcile, with the informers' caches fixed by the test: the children, and the job as the
 * primary cache holds it. Lets a test call {@code reconcile} directly with a job as a lagging cache would give it.
 */
final class FixedChildrenContext<P extends HasMetadata> implements Context<P> {
  private final P cachedJob;
  private final List<? extends HasMetadata> children;

  FixedChildrenContext(P cachedJob, List<? extends HasMetadata> children) {
    this.cachedJob = cachedJob;
    this.children = children;
  }

  @Override
  public <R> Set<R> getSecondaryResources(Class<R> expectedType) {
    return children.stream().filter(expectedType::isInstance).map(expectedType::cast).collect(Collectors.toSet());
  }

  @Override
  public IndexedResourceCache<P> getPrimaryCache() {
    return new IndexedResourceCache<>() {
      @Override
      public Optional<P> get(ResourceID id) {
        return id.equals(ResourceID.fromResource(cachedJob)) ? Optional.of(cachedJob) : Optional.empty();
      }

      @Override
      public Stream<ResourceID> keys() {
        return Stream.of(ResourceID.fromResource(cachedJob));
      }

      @Override
      public Stream<P> list(Predicate<P> predicate) {
        return Stream.of(cachedJob).filter(predicate);
      }

      @Override
      public Stream<P> list(String namespace, Predicate<P> predicate) {
        return list(predicate).filter(j -> namespace.equals(j.getMetadata().getNamespace()));
      }

      @Override
      public List<P> byIndex(String indexName, String indexKey) {
        return List.of();
      }
    };
  }

  @Override
  public Optional<RetryInfo> getRetryInfo() {
    return Optional.empty();
  }

  @Override
  public P getPrimaryResource() {
    return cachedJob;
  }

  @Override
  public <R> Optional<R> getSecondaryResource(Class<R> expectedType, String eventSourceName) {
    return getSecondaryResources(expectedType).stream().findFirst();
  }

  @Override
  public boolean isNextReconciliationImminent() {
    return false;
  }

  @Override
  public boolean isPrimaryResourceDeleted() {
    return false;
  }

  @Override
  public boolean isPrimaryResourceFinalStateUnknown() {
    return false;
  }

  // what the engine's reconcile never asks for

  @Override
  public ControllerConfiguration<P> getControllerConfiguration() {
    throw new UnsupportedOperationException("not used by the engine's reconcile");
  }

  @Override
  public ManagedWorkflowAndDependentResourceContext managedWorkflowAndDependentResourceContext() {
    throw new UnsupportedOperationException("not used by the engine's reconcile");
  }

  @Override
  public EventSourceRetriever<P> eventSourceRetriever() {
    throw new UnsupportedOperationException("not used by the engine's reconcile");
  }

  @Override
  public KubernetesClient getClient() {
    throw new UnsupportedOperationException("not used by the engine's reconcile");
  }

  @Override
  public ExecutorService getWorkflowExecutorService() {
    throw new UnsupportedOperationException("not used by the engine's reconcile");
  }
}
