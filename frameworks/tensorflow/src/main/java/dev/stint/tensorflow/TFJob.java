package dev.stint.tensorflow;

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
@Annotations(CrdHints.PRINTER_COLUMN_ORDER + "=State,Outcome,Age")
// Pod and service names are built from the job name, so it must be a DNS-1035 label, as upstream's webhook required.
@ValidationRule(value = JobRules.NAME_IS_DNS_LABEL, message = JobRules.NAME_IS_DNS_LABEL_MESSAGE)
@ValidationRule(value = JobRules.NAME_FITS, message = JobRules.NAME_FITS_MESSAGE)
// Known limits, checked before any child exists (DESIGN.md §6). A pod and its headless service are named
// <name>-<type in lower case>-<index> and a service name is a DNS-1035 label: the longest of them, that of the last
// index of each replica type present, must fit in 63 characters (lower-casing keeps the length of the type).
@ValidationRule(value = "!has(self.spec) || !has(" + TFJob.SPECS + ") || " + TFJob.SPECS + ".all(t, "
    + "size(self.metadata.name) + 1 + size(t) + 1 + size(string(" + TFJob.REPLICAS_OF_T + " > 1 ? "
    + TFJob.REPLICAS_OF_T + " - 1 : 0)) <= " + ReplicaLimits.MAX_NAME + ")",
    message = "metadata.name: too long for its replica names: pod and service names (<name>-<type>-<index>) must be "
        + "no more than " + ReplicaLimits.MAX_NAME + " characters",
    fieldPath = ".metadata.name", reason = "FieldValueInvalid")
// each replica type has at most ReplicaLimits.MAX_PER_TYPE replicas (the schema's maximum); the job as many in all
@ValidationRule(value = "!has(self.spec) || !has(" + TFJob.SPECS + ") || " + TFJob.CHIEF_REPLICAS + " + "
    + TFJob.EVALUATOR_REPLICAS + " + " + TFJob.MASTER_REPLICAS + " + " + TFJob.PS_REPLICAS + " + "
    + TFJob.WORKER_REPLICAS + " <= " + ReplicaLimits.MAX_PER_JOB,
    message = "spec.tfReplicaSpecs: at most " + ReplicaLimits.MAX_PER_JOB + " replicas in all",
    fieldPath = ".spec.tfReplicaSpecs", reason = "FieldValueInvalid")
// A rule inside spec would not run for a job without spec.
@ValidationRule(value = "has(self.spec)", message = "spec.tfReplicaSpecs: must be set",
    reason = "FieldValueRequired", fieldPath = ".spec")
// runPolicy's own rules keep managedBy unchanged while runPolicy exists before and after an update; these two also
// cover an update that adds or drops runPolicy as a whole, as upstream's webhook did.
@ValidationRule(value = JobRules.MANAGED_BY_NOT_ADDED, message = JobRules.MANAGED_BY_IMMUTABLE,
    reason = "FieldValueInvalid", fieldPath = JobRules.MANAGED_BY_FIELD)
@ValidationRule(value = JobRules.MANAGED_BY_NOT_DROPPED, message = JobRules.MANAGED_BY_IMMUTABLE,
    reason = "FieldValueInvalid", fieldPath = JobRules.MANAGED_BY_FIELD)
public class TFJob extends CustomResource<TFJobSpec, JobStatus> implements TrainingJob<TFJobSpec>, Namespaced {
  /** CEL, from the root: the replica specs. */
  static final String SPECS = "self.spec.tfReplicaSpecs";
  /** CEL, inside {@code SPECS.all(t, ...)}: the replicas of type {@code t}, 1 when unset. */
  static final String REPLICAS_OF_T = "(has(" + SPECS + "[t].replicas) ? " + SPECS + "[t].replicas : 1)";
  /** CEL: the Chief replicas, 1 when unset, 0 without Chief. */
  static final String CHIEF_REPLICAS = "(has(" + SPECS + ".Chief) ? (has(" + SPECS + ".Chief.replicas) ? "
      + SPECS + ".Chief.replicas : 1) : 0)";
  /** CEL: the Evaluator replicas, 1 when unset, 0 without Evaluator. */
  static final String EVALUATOR_REPLICAS = "(has(" + SPECS + ".Evaluator) ? (has(" + SPECS + ".Evaluator.replicas) ? "
      + SPECS + ".Evaluator.replicas : 1) : 0)";
  /** CEL: the Master replicas, 1 when unset, 0 without Master. */
  static final String MASTER_REPLICAS = "(has(" + SPECS + ".Master) ? (has(" + SPECS + ".Master.replicas) ? "
      + SPECS + ".Master.replicas : 1) : 0)";
  /** CEL: the PS replicas, 1 when unset, 0 without PS. */
  static final String PS_REPLICAS = "(has(" + SPECS + ".PS) ? (has(" + SPECS + ".PS.replicas) ? "
      + SPECS + ".PS.replicas : 1) : 0)";
  /** CEL: the Worker replicas, 1 when unset, 0 without Worker. */
  static final String WORKER_REPLICAS = "(has(" + SPECS + ".Worker) ? (has(" + SPECS + ".Worker.replicas) ? "
      + SPECS + ".Worker.replicas : 1) : 0)";
}
