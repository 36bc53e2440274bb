package dev.stint.mpi;

import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.CrdHints;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.ReplicaLimits;
import io.fabric8.crd.generator.annotation.Annotations;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * An MPI Operator {@code kubeflow.org/v2beta1} MPIJob. The schema is upstream's v2beta1 one, so existing manifests
 * apply unchanged; the launcher runs as a pod of Stint's engine rather than as a batch Job.
 */
@Group("kubeflow.org")
@Version("v2beta1")
@Kind("MPIJob")
// named, not derived: fabric8 otherwise runs its pluralizer in the constructor of every object it decodes
@Plural("mpijobs")
@ShortNames("mpij")
// Hints for the CRD finisher. The replica-spec map and types give the columns and rules every training job has
// (CrdHints.REPLICA_SPECS): a DNS-1035 name, at most ReplicaLimits.MAX_PER_JOB replicas in all (Worker replicas
// default to 0), spec required, managedBy immutable, success rules over these types. Pods are named by MpiHosts, not
// <name>-<type>-<index>, so the rule that fits their names in a DNS label is this class's own.
@Annotations({
    CrdHints.REPLICA_SPECS + "=mpiReplicaSpecs",
    CrdHints.REPLICA_TYPES + "=Launcher,Worker:0",
    CrdHints.CUSTOM_POD_NAMES + "=true"})
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
public class MPIJob extends CustomResource<MPIJobSpec, JobStatus> implements TrainingJob<MPIJobSpec>, Namespaced {
  /** CEL, from the root: the replica specs. */
  static final String SPECS = "self.spec.mpiReplicaSpecs";
  /** CEL: the Worker replicas, 0 when unset (the MPI Operator's default) or without Worker. */
  static final String WORKER_REPLICAS = "(has(" + SPECS + ".Worker) && has(" + SPECS + ".Worker.replicas) ? "
      + SPECS + ".Worker.replicas : 0)";
  /** The length of {@code -launcher}, after the job name in the launcher's pod name ({@link MpiHosts}). */
  static final int LAUNCHER_SUFFIX = 9;
  /** The length of {@code -worker-}, between the job name and the index in a worker's pod name ({@link MpiHosts}). */
  static final int WORKER_PREFIX = 8;
}
