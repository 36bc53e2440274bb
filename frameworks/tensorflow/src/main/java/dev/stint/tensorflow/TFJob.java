package dev.stint.tensorflow;

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
 * A Kubeflow {@code kubeflow.org/v1} TFJob. The schema is the upstream v1.9 one, so existing manifests apply
 * unchanged; validation that upstream did in a webhook is expressed as CEL rules in the CRD. Like upstream's, the CRD
 * has no scale subresource.
 */
@Group("kubeflow.org")
@Version("v1")
@Kind("TFJob")
// named, not derived: fabric8 otherwise runs its pluralizer in the constructor of every object it decodes
@Plural("tfjobs")
// Hints for the CRD finisher. The replica-spec map and types give the columns and rules every training job has
// (CrdHints.REPLICA_SPECS): a DNS-1035 name that leaves room for <name>-<type>-<index>, at most
// ReplicaLimits.MAX_PER_JOB replicas in all, spec required, managedBy immutable, success rules over these types; as
// upstream's webhook required, checked before any child exists (DESIGN.md §6).
@Annotations({
    CrdHints.REPLICA_SPECS + "=tfReplicaSpecs",
    CrdHints.REPLICA_TYPES + "=Chief,Evaluator,Master,PS,Worker"})
public class TFJob extends CustomResource<TFJobSpec, JobStatus> implements TrainingJob<TFJobSpec>, Namespaced {
}
