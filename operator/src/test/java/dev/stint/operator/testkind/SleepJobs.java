package dev.stint.operator.testkind;

import dev.stint.operator.demo.ManifestSource;
import dev.stint.operator.demo.ManifestSource.Manifest;
import dev.stint.spi.api.ReplicaSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Fixtures of the test kind. */
public final class SleepJobs {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private SleepJobs() { }

  /** A SleepJob of {@code workers} workers named main/busybox, whose pod template carries these annotations. */
  public static SleepJob job(String name, int workers, String restartPolicy, Map<String, String> annotations) {
    ReplicaSpec worker = new ReplicaSpec();
    worker.setReplicas(workers);
    worker.setRestartPolicy(restartPolicy);
    worker.setTemplate(new PodTemplateSpecBuilder()
        .withNewMetadata().withAnnotations(annotations.isEmpty() ? null : new LinkedHashMap<>(annotations))
        .endMetadata()
        .withNewSpec().addNewContainer().withName("main").withImage("busybox").endContainer().endSpec()
        .build());
    SleepJobSpec spec = new SleepJobSpec();
    spec.setSleepReplicaSpecs(new LinkedHashMap<>(Map.of("Worker", worker)));
    SleepJob job = new SleepJob();
    job.setMetadata(new ObjectMetaBuilder().withName(name).build());
    job.setSpec(spec);
    return job;
  }

  public static String yaml(Object resource) {
    return SERIALIZATION.asYaml(resource);
  }

  public static ManifestSource examples(SleepJob... jobs) {
    return ManifestSource.of("test examples",
        Arrays.stream(jobs).map(j -> new Manifest(j.getMetadata().getName() + ".yaml", yaml(j))).toList());
  }

  public static ManifestSource crds() {
    return ManifestSource.of("test CRDs", List.of(new Manifest("sleepjobs.yaml", yaml(SleepFramework.crd()))));
  }
}
