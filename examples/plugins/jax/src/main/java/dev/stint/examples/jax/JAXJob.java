package dev.stint.examples.jax;

import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.CrdHints;
import dev.stint.spi.api.JobStatus;
import io.fabric8.crd.generator.annotation.Annotations;
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
// hints for the CRD finisher (stint-crd-tools): the replica-spec map and its types, from which it adds the columns and
// rules every training job has (a DNS-1035 name that leaves room for <name>-<type>-<index>, at most
// ReplicaLimits.MAX_PER_JOB replicas in all, spec required, managedBy immutable, success rules over these types); and
// upstream's scale subresource on the Workers
@Annotations({
    CrdHints.REPLICA_SPECS + "=jaxReplicaSpecs",
    CrdHints.REPLICA_TYPES + "=Worker",
    CrdHints.SCALE_SPEC_REPLICAS_PATH + "=.spec.jaxReplicaSpecs.Worker.replicas",
    CrdHints.SCALE_STATUS_REPLICAS_PATH + "=.status.replicaStatuses.Worker.active",
    CrdHints.SCALE_LABEL_SELECTOR_PATH + "=.status.replicaStatuses.Worker.selector"})
public class JAXJob extends CustomResource<JAXJobSpec, JobStatus> implements TrainingJob<JAXJobSpec>, Namespaced {
}
