package dev.stint.pytorch;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpec;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpecBuilder;
import java.util.List;
import java.util.Optional;

/**
 * The {@code autoscaling/v2} HorizontalPodAutoscaler of an elastic PyTorchJob with metrics: named like the job, it
 * scales the job's Worker replicas (through the CRD's scale subresource) between the elastic policy's bounds.
 */
final class ElasticAutoscaler {

  private ElasticAutoscaler() { }

  /** The autoscaler the job needs, or empty when it is not elastic or has no metrics (as upstream decides). */
  static Optional<HorizontalPodAutoscaler> of(PyTorchJob job) {
    ElasticPolicy elastic = job.getSpec().getElasticPolicy();
    if (elastic == null || elastic.getMetrics() == null) return Optional.empty();
    int workers = PyTorchEnv.workerReplicas(job.getSpec());
    // copies, so that the engine may change the autoscaler without touching the job
    List<MetricSpec> metrics = elastic.getMetrics().stream().map(m -> new MetricSpecBuilder(m).build()).toList();
    return Optional.of(new HorizontalPodAutoscalerBuilder()
        .withNewMetadata()
          .withName(job.getMetadata().getName())
          .withNamespace(job.getMetadata().getNamespace())
        .endMetadata()
        .withNewSpec()
          .withNewScaleTargetRef()
            .withApiVersion(HasMetadata.getApiVersion(PyTorchJob.class))
            .withKind(HasMetadata.getKind(PyTorchJob.class))
            .withName(job.getMetadata().getName())
          .endScaleTargetRef()
          .withMinReplicas(elastic.effectiveMinReplicas(workers))
          .withMaxReplicas(elastic.effectiveMaxReplicas(workers))
          .withMetrics(metrics)
        .endSpec()
        .build());
  }
}
