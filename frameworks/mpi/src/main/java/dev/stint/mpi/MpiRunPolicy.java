package dev.stint.mpi;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stint.spi.api.RunPolicy;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * {@code spec.runPolicy} of an MPIJob: the MPI Operator's v2beta1 {@code RunPolicy}, which has the fields of the
 * common run policy. Only the values {@code managedBy} accepts differ: an MPIJob is managed by
 * {@code kubeflow.org/mpi-operator} (the MPI Operator's name, which Stint answers to for this kind), not by the
 * training operator. This class redeclares that field so that its CRD rule says so, and {@code serviceMode}, whose
 * only value for an MPIJob is {@code PerJob}; everything else is inherited.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MpiRunPolicy extends RunPolicy {

  /** The {@code managedBy} value of jobs that Stint reconciles as the MPI Operator would. */
  public static final String MPI_OPERATOR = "kubeflow.org/mpi-operator";

  // hides RunPolicy's field of the same name, so that the schema carries this field's rule instead of the v1 one
  @JsonPropertyDescription("The controller that reconciles this job: kubeflow.org/mpi-operator (Stint) or "
      + "kueue.x-k8s.io/multikueue. Immutable.")
  @ValidationRule(value = "self in ['kubeflow.org/mpi-operator', 'kueue.x-k8s.io/multikueue']",
      message = "spec.runPolicy.managedBy must be kubeflow.org/mpi-operator or kueue.x-k8s.io/multikueue")
  private String managedBy;

  // hides RunPolicy's serviceMode: an MPIJob's pods are always reached through the job's one Service (the MPI
  // Operator's way), so PerReplica is refused rather than silently ignored
  @JsonPropertyDescription("How the pods are reached by name (a Stint addition): an MPIJob always has one headless "
      + "Service named as the job, each pod reached as <pod>.<job> (the MPI Operator's way), so the only value is "
      + "PerJob, the same as unset.")
  @ValidationRule(value = "self == 'PerJob'",
      message = "spec.runPolicy.serviceMode: an MPIJob always has one Service per job: PerJob, or leave it unset")
  private String serviceMode;

  @Override
  public String getServiceMode() { return serviceMode; }

  @Override
  public void setServiceMode(String serviceMode) { this.serviceMode = serviceMode; }

  @Override
  public String getManagedBy() { return managedBy; }

  @Override
  public void setManagedBy(String managedBy) { this.managedBy = managedBy; }
}
