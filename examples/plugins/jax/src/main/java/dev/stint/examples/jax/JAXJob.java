package dev.stint.examples.jax;

import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.crd.CrdFinisher;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.Annotations;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A Kubeflow {@code kubeflow.org/v1} JAXJob, with the schema of the Kubeflow training operator v1.9: a run policy and
 * the replica specs of its one replica type, {@code Worker}. The status is Stint's common job status, written by the
 * engine. The class-level annotations become the CRD's printer columns, scale subresource and validation rules.
 */
@Group("kubeflow.org")
@Version("v1")
@Kind("JAXJob")
@AdditionalPrinterColumn(name = "State", jsonPath = ".status.conditions[-1:].type",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Outcome", jsonPath = ".status.outcome", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
// hints for CrdFinisher: upstream's scale subresource on the Workers, and upstream's column order
@Annotations({
    CrdFinisher.PRINTER_COLUMN_ORDER + "=State,Outcome,Age",
    CrdFinisher.SCALE_SPEC_REPLICAS_PATH + "=.spec.jaxReplicaSpecs.Worker.replicas",
    CrdFinisher.SCALE_STATUS_REPLICAS_PATH + "=.status.replicaStatuses.Worker.active",
    CrdFinisher.SCALE_LABEL_SELECTOR_PATH + "=.status.replicaStatuses.Worker.selector"})
// pod and service names are made from the job name, so it must be a DNS-1035 label, as upstream's webhook required
@ValidationRule(value = "self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",
    message = "metadata.name: must be a DNS-1035 label (lower case letters, digits and '-', starting with a letter "
        + "and ending with a letter or digit)")
@ValidationRule(value = "size(self.metadata.name) <= 63", message = "metadata.name: must be no more than 63 characters")
@ValidationRule(value = "has(self.spec)", message = "spec.jaxReplicaSpecs: must be set", reason = "FieldValueRequired",
    fieldPath = ".spec")
public class JAXJob extends CustomResource<JAXJobSpec, JobStatus> implements TrainingJob<JAXJobSpec>, Namespaced {
}
