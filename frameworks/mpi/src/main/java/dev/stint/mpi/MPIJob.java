package dev.stint.mpi;

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
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * An MPI Operator {@code kubeflow.org/v2beta1} MPIJob. The schema is upstream's v2beta1 one, so existing manifests
 * apply unchanged; the launcher runs as a pod of Stint's engine rather than as a batch Job.
 */
@Group("kubeflow.org")
@Version("v2beta1")
@Kind("MPIJob")
@ShortNames("mpij")
@AdditionalPrinterColumn(name = "State", jsonPath = ".status.conditions[-1:].type",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Outcome", jsonPath = ".status.outcome",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@Annotations(CrdFinisher.PRINTER_COLUMN_ORDER + "=State,Outcome,Age")
// Pod, service and host names are built from the job name, so it must be a DNS-1035 label, as for PyTorchJob.
@ValidationRule(value = "self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",
    message = "metadata.name: must be a DNS-1035 label (lower case letters, digits and '-', starting with a letter "
        + "and ending with a letter or digit)")
// Pods use their names as hostnames, which are DNS labels of at most 63 characters (upstream checks the workers').
@ValidationRule(value = "size(self.metadata.name) <= 54",
    message = "metadata.name: must be no more than 54 characters, so that the launcher's hostname <name>-launcher "
        + "is a DNS label")
@ValidationRule(value = "!has(self.spec) || !has(self.spec.mpiReplicaSpecs) || !has(self.spec.mpiReplicaSpecs.Worker)"
    + " || !has(self.spec.mpiReplicaSpecs.Worker.replicas) || self.spec.mpiReplicaSpecs.Worker.replicas < 1"
    + " || size(self.metadata.name) + 8 + size(string(self.spec.mpiReplicaSpecs.Worker.replicas - 1)) <= 63",
    message = "metadata.name: too long for the workers' hostnames <name>-worker-<index> (DNS labels of at most 63 "
        + "characters)")
// A rule inside spec would not run for a job without spec.
@ValidationRule(value = "has(self.spec)", message = "spec.mpiReplicaSpecs: must be set",
    reason = "FieldValueRequired", fieldPath = ".spec")
// runPolicy's own rules keep managedBy unchanged while runPolicy exists before and after an update; these two also
// cover an update that adds or drops runPolicy as a whole.
@ValidationRule(value = "!has(self.spec) || !has(self.spec.runPolicy) || !has(self.spec.runPolicy.managedBy)"
    + " || (has(oldSelf.spec) && has(oldSelf.spec.runPolicy) && has(oldSelf.spec.runPolicy.managedBy))",
    message = "spec.runPolicy.managedBy is immutable", reason = "FieldValueInvalid",
    fieldPath = ".spec.runPolicy.managedBy")
@ValidationRule(value = "!has(oldSelf.spec) || !has(oldSelf.spec.runPolicy) || !has(oldSelf.spec.runPolicy.managedBy)"
    + " || (has(self.spec) && has(self.spec.runPolicy) && has(self.spec.runPolicy.managedBy))",
    message = "spec.runPolicy.managedBy is immutable", reason = "FieldValueInvalid",
    fieldPath = ".spec.runPolicy.managedBy")
public class MPIJob extends CustomResource<MPIJobSpec, JobStatus> implements TrainingJob<MPIJobSpec>, Namespaced {
}
