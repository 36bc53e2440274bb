package dev.stint.examples.jax;

import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.CrdHints;
import dev.stint.spi.api.JobRules;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.ReplicaLimits;
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
// hints for the CRD finisher (stint-crd-tools): upstream's scale subresource on the Workers, upstream's column order
@Annotations({
    CrdHints.PRINTER_COLUMN_ORDER + "=State,Outcome,Age",
    CrdHints.SCALE_SPEC_REPLICAS_PATH + "=.spec.jaxReplicaSpecs.Worker.replicas",
    CrdHints.SCALE_STATUS_REPLICAS_PATH + "=.status.replicaStatuses.Worker.active",
    CrdHints.SCALE_LABEL_SELECTOR_PATH + "=.status.replicaStatuses.Worker.selector"})
// pod and service names are made from the job name, so it must be a DNS-1035 label, as upstream's webhook required
@ValidationRule(value = JobRules.NAME_IS_DNS_LABEL, message = JobRules.NAME_IS_DNS_LABEL_MESSAGE)
@ValidationRule(value = JobRules.NAME_FITS, message = JobRules.NAME_FITS_MESSAGE)
// the limits every kind checks before any child exists, with the SPI's numbers: pods and their services are named
// <name>-<type in lower case>-<index> (the engine's default name), a DNS-1035 label of at most 63 characters; and at
// most ReplicaLimits.MAX_PER_JOB replicas in all (each type's maximum comes with the SPI's ReplicaSpec)
@ValidationRule(value = "!has(self.spec) || !has(" + JAXJob.SPECS + ") || " + JAXJob.SPECS + ".all(t, "
    + "size(self.metadata.name) + 1 + size(t) + 1 + size(string(" + JAXJob.REPLICAS_OF_T + " > 1 ? "
    + JAXJob.REPLICAS_OF_T + " - 1 : 0)) <= " + ReplicaLimits.MAX_NAME + ")",
    message = "metadata.name: too long for its replica names: pod and service names (<name>-<type>-<index>) must be "
        + "no more than " + ReplicaLimits.MAX_NAME + " characters",
    fieldPath = ".metadata.name", reason = "FieldValueInvalid")
@ValidationRule(value = "!has(self.spec) || !has(" + JAXJob.SPECS + ") || " + JAXJob.WORKER_REPLICAS + " <= "
    + ReplicaLimits.MAX_PER_JOB,
    message = "spec.jaxReplicaSpecs: at most " + ReplicaLimits.MAX_PER_JOB + " replicas in all",
    fieldPath = ".spec.jaxReplicaSpecs", reason = "FieldValueInvalid")
@ValidationRule(value = "has(self.spec)", message = "spec.jaxReplicaSpecs: must be set", reason = "FieldValueRequired",
    fieldPath = ".spec")
public class JAXJob extends CustomResource<JAXJobSpec, JobStatus> implements TrainingJob<JAXJobSpec>, Namespaced {
  /** CEL, from the root: the replica specs. */
  static final String SPECS = "self.spec.jaxReplicaSpecs";
  /** CEL, inside {@code SPECS.all(t, ...)}: the replicas of type {@code t}, 1 when unset (the SPI's default). */
  static final String REPLICAS_OF_T = "(has(" + SPECS + "[t].replicas) ? " + SPECS + "[t].replicas : 1)";
  /** CEL: the Worker replicas, 1 when unset, 0 without Worker. */
  static final String WORKER_REPLICAS = "(has(" + SPECS + ".Worker) ? (has(" + SPECS + ".Worker.replicas) ? "
      + SPECS + ".Worker.replicas : 1) : 0)";
}
