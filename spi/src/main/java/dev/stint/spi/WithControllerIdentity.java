package dev.stint.spi;

/**
 * Capability: a kind that answers to another controller's name than the Kubeflow training operator's (the MPI
 * Operator's {@code mpi-operator} and {@code kubeflow.org/mpi-operator}). Without it the label value is
 * {@code <kind in lower case>-controller} and {@code runPolicy.managedBy} is {@code kubeflow.org/training-operator}.
 */
public interface WithControllerIdentity {

  /** The value of the {@code training.kubeflow.org/operator-name} label on the kind's pods and services. */
  String controllerName();

  /** The {@code runPolicy.managedBy} value that means "reconciled by this operator". */
  String managedByValue();
}
