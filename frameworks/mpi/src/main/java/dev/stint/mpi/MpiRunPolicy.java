package dev.stint.mpi;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stint.spi.api.RunPolicy;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * {@code spec.runPolicy} of an MPIJob: the MPI Operator's v2beta1 {@code RunPolicy}, which has the fields of the
 * common run policy. Only the values {@code managedBy} accepts differ: an MPIJob is managed by
 * {@code kubeflow.org/mpi-operator} (the MPI Operator's name, which Stint answers to for this kind), not by the
 * training operator. This class redeclares that one field so that its CRD rule says so; everything else is inherited.
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

  @Override
  public String getManagedBy() { return managedBy; }

  @Override
  public void setManagedBy(String managedBy) { this.managedBy = managedBy; }
}
