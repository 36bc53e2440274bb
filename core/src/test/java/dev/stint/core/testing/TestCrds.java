package dev.stint.core.testing;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;

/** CRDs of test kinds for the mock server: a status subresource and a schema that keeps every field. */
public final class TestCrds {

  private TestCrds() { }

  /** The CRD of a custom resource class, from its {@code @Group}, {@code @Version} and {@code @Kind}. */
  public static CustomResourceDefinition of(Class<? extends HasMetadata> type) {
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata().withName(HasMetadata.getFullResourceName(type)).endMetadata()
        .withNewSpec().withGroup(HasMetadata.getGroup(type)).withScope("Namespaced")
        .withNewNames().withKind(HasMetadata.getKind(type)).withPlural(HasMetadata.getPlural(type))
        .withSingular(HasMetadata.getSingular(type)).endNames()
        .addNewVersion().withName(HasMetadata.getVersion(type)).withServed(true).withStorage(true)
        .withNewSubresources().withNewStatus().endStatus().endSubresources()
        .withNewSchema().withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true)
        .endOpenAPIV3Schema().endSchema().endVersion().endSpec().build();
  }
}
