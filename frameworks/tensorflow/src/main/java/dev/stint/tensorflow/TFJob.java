package dev.stint.tensorflow;

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
 * A Kubeflow {@code kubeflow.org/v1} TFJob. The schema is the upstream v1.9 one, so existing manifests apply
 * unchanged; validation that upstream did in a webhook is expressed as CEL rules in the CRD. Like upstream's, the CRD
 * has no scale subresource.
 */
@Group("kubeflow.org")
@Version("v1")
@Kind("TFJob")
@AdditionalPrinterColumn(name = "State", jsonPath = ".status.conditions[-1:].type",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Outcome", jsonPath = ".status.outcome",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
// kubectl shows upstream's column order (the generator sorts columns by JSON path)
@Annotations(CrdFinisher.PRINTER_COLUMN_ORDER + "=State,Outcome,Age")
// Pod and service names are built from the job name, so it must be a DNS-1035 label, as upstream's webhook required.
@ValidationRule(value = "self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",
    message = "metadata.name: must be a DNS-1035 label (lower case letters, digits and '-', starting with a letter "
        + "and ending with a letter or digit)")
@ValidationRule(value = "size(self.metadata.name) <= 63",
    message = "metadata.name: must be no more than 63 characters")
// A rule inside spec would not run for a job without spec.
@ValidationRule(value = "has(self.spec)", message = "spec.tfReplicaSpecs: must be set",
    reason = "FieldValueRequired", fieldPath = ".spec")
// runPolicy's own rules keep managedBy unchanged while runPolicy exists before and after an update; these two also
// cover an update that adds or drops runPolicy as a whole, as upstream's webhook did.
@ValidationRule(value = "!has(self.spec) || !has(self.spec.runPolicy) || !has(self.spec.runPolicy.managedBy)"
    + " || (has(oldSelf.spec) && has(oldSelf.spec.runPolicy) && has(oldSelf.spec.runPolicy.managedBy))",
    message = "spec.runPolicy.managedBy is immutable", reason = "FieldValueInvalid",
    fieldPath = ".spec.runPolicy.managedBy")
@ValidationRule(value = "!has(oldSelf.spec) || !has(oldSelf.spec.runPolicy) || !has(oldSelf.spec.runPolicy.managedBy)"
    + " || (has(self.spec) && has(self.spec.runPolicy) && has(self.spec.runPolicy.managedBy))",
    message = "spec.runPolicy.managedBy is immutable", reason = "FieldValueInvalid",
    fieldPath = ".spec.runPolicy.managedBy")
public class TFJob extends CustomResource<TFJobSpec, JobStatus> implements TrainingJob<TFJobSpec>, Namespaced {
}
