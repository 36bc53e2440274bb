package dev.stint.operator.testkind;

import dev.stint.spi.FrameworkDefaults;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.SuccessPolicy;
import dev.stint.spi.TrainingFramework;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceSubresourceStatus;
import java.util.List;

/** The framework of {@link SleepJob}: Workers only, succeeded when every worker has. */
public class SleepFramework implements TrainingFramework<SleepJob> {
  public static final String CRD_NAME = "sleepjobs.test.stint.dev";

  @Override public String name() { return "sleep"; }

  @Override public Class<SleepJob> jobType() { return SleepJob.class; }

  @Override public List<String> replicaTypes() { return List.of("Worker"); }

  @Override public FrameworkDefaults defaults() { return new FrameworkDefaults("main", "main-port", 1234, "Never"); }

  @Override public boolean isLeader(SleepJob job, ReplicaId replica) { return replica.index() == 0; }

  @Override public void wire(SleepJob job, ReplicaId replica, Pod pod) { }

  @Override public SuccessPolicy successPolicy(SleepJob job) { return SuccessPolicy.allOf("Worker"); }

  /** The CRD of the kind: status subresource, schema that keeps every field. */
  public static CustomResourceDefinition crd() {
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata().withName(CRD_NAME).endMetadata()
        .withNewSpec()
          .withGroup("test.stint.dev")
          .withScope("Namespaced")
          .withNewNames().withKind("SleepJob").withPlural("sleepjobs").withSingular("sleepjob")
            .withListKind("SleepJobList").endNames()
          .addNewVersion().withName("v1").withServed(true).withStorage(true)
            .withNewSubresources().withStatus(new CustomResourceSubresourceStatus()).endSubresources()
            .withNewSchema().withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true)
              .endOpenAPIV3Schema().endSchema()
          .endVersion()
        .endSpec()
        .build();
  }
}
