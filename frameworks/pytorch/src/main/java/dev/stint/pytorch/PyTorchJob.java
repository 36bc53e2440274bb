package dev.stint.pytorch;

import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.CrdHints;
import dev.stint.spi.api.JobStatus;
import io.fabric8.crd.generator.annotation.Annotations;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A Kubeflow {@code kubeflow.org/v1} PyTorchJob. The schema is the upstream v1.9 one, so existing manifests apply
 * unchanged; validation that upstream did in a webhook is expressed as CEL rules in the CRD.
 */
@Group("kubeflow.org")
@Version("v1")
@Kind("PyTorchJob")
// named, not derived: fabric8 otherwise runs its pluralizer in the constructor of every object it decodes
@Plural("pytorchjobs")
// Hints for the CRD finisher. The replica-spec map and types give the columns and rules every training job has
// (CrdHints.REPLICA_SPECS): a DNS-1035 name that leaves room for <name>-<type>-<index>, at most
// ReplicaLimits.MAX_PER_JOB replicas in all, spec required, managedBy immutable, success rules over these types; as
// upstream's webhook required, checked before any child exists (DESIGN.md §6). The scale subresource reaches into the
// replica map, which fabric8's @SpecReplicas cannot express.
@Annotations({
    CrdHints.REPLICA_SPECS + "=pytorchReplicaSpecs",
    CrdHints.REPLICA_TYPES + "=Master,Worker",
    CrdHints.SCALE_SPEC_REPLICAS_PATH + "=.spec.pytorchReplicaSpecs.Worker.replicas",
    CrdHints.SCALE_STATUS_REPLICAS_PATH + "=.status.replicaStatuses.Worker.active",
    CrdHints.SCALE_LABEL_SELECTOR_PATH + "=.status.replicaStatuses.Worker.selector"})
public class PyTorchJob extends CustomResource<PyTorchJobSpec, JobStatus>
    implements TrainingJob<PyTorchJobSpec>, Namespaced {
}
