package dev.stint.mpi;

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
@Annotations(CrdHints.PRINTER_COLUMN_ORDER + "=State,Outcome,Age")
// Pod, service and host names are built from the job name, so it must be a DNS-1035 label, as for PyTorchJob.
@ValidationRule(value = JobRules.NAME_IS_DNS_LABEL, message = JobRules.NAME_IS_DNS_LABEL_MESSAGE)
// Known limits, checked before any child exists (DESIGN.md §6). Pods use their names as hostnames, DNS labels of at
// most 63 characters: the launcher <name>-launcher and, when there are workers (Worker replicas default to 0), the last
// <name>-worker-<index>; the Service <name>, Secret <name>-ssh and ConfigMap <name>-config are shorter than the first.
@ValidationRule(value = "!has(self.spec) || !has(" + MPIJob.SPECS + ") || ((!has(" + MPIJob.SPECS + ".Launcher)"
    + " || size(self.metadata.name) + " + MPIJob.LAUNCHER_SUFFIX + " <= " + ReplicaLimits.MAX_NAME + ")"
    + " && (" + MPIJob.WORKER_REPLICAS + " < 1 || size(self.metadata.name) + " + MPIJob.WORKER_PREFIX
    + " + size(string(" + MPIJob.WORKER_REPLICAS + " - 1)) <= " + ReplicaLimits.MAX_NAME + "))",
    message = "metadata.name: too long for its replica names: pod and host names (<name>-launcher, "
        + "<name>-worker-<index>) must be no more than " + ReplicaLimits.MAX_NAME + " characters",
    fieldPath = ".metadata.name", reason = "FieldValueInvalid")
// each replica type has at most ReplicaLimits.MAX_PER_TYPE replicas (the schema's maximum); the job as many in all
@ValidationRule(value = "!has(self.spec) || !has(" + MPIJob.SPECS + ") || " + MPIJob.LAUNCHER_REPLICAS + " + "
    + MPIJob.WORKER_REPLICAS + " <= " + ReplicaLimits.MAX_PER_JOB,
    message = "spec.mpiReplicaSpecs: at most " + ReplicaLimits.MAX_PER_JOB + " replicas in all",
    fieldPath = ".spec.mpiReplicaSpecs", reason = "FieldValueInvalid")
// A rule inside spec would not run for a job without spec.
@ValidationRule(value = "has(self.spec)", message = "spec.mpiReplicaSpecs: must be set",
    reason = "FieldValueRequired", fieldPath = ".spec")
// runPolicy's own rules keep managedBy unchanged while runPolicy exists before and after an update; these two also
// cover an update that adds or drops runPolicy as a whole.
@ValidationRule(value = JobRules.MANAGED_BY_NOT_ADDED, message = JobRules.MANAGED_BY_IMMUTABLE,
    reason = "FieldValueInvalid", fieldPath = JobRules.MANAGED_BY_FIELD)
@ValidationRule(value = JobRules.MANAGED_BY_NOT_DROPPED, message = JobRules.MANAGED_BY_IMMUTABLE,
    reason = "FieldValueInvalid", fieldPath = JobRules.MANAGED_BY_FIELD)
public class MPIJob extends CustomResource<MPIJobSpec, JobStatus> implements TrainingJob<MPIJobSpec>, Namespaced {
  /** CEL, from the root: the replica specs. */
  static final String SPECS = "self.spec.mpiReplicaSpecs";
  /** CEL: the Launcher replicas, 1 when unset, 0 without Launcher. */
  static final String LAUNCHER_REPLICAS = "(has(" + SPECS + ".Launcher) ? (has(" + SPECS + ".Launcher.replicas) ? "
      + SPECS + ".Launcher.replicas : 1) : 0)";
  /** CEL: the Worker replicas, 0 when unset (the MPI Operator's default) or without Worker. */
  static final String WORKER_REPLICAS = "(has(" + SPECS + ".Worker) && has(" + SPECS + ".Worker.replicas) ? "
      + SPECS + ".Worker.replicas : 0)";
  /** The length of {@code -launcher}, after the job name in the launcher's pod name ({@link MpiHosts}). */
  static final int LAUNCHER_SUFFIX = 9;
  /** The length of {@code -worker-}, between the job name and the index in a worker's pod name ({@link MpiHosts}). */
  static final int WORKER_PREFIX = 8;
}
