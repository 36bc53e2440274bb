package dev.stint.e2e;

import java.util.List;

/** A kind under test: its group version, replica-spec field, container rule and replica types. */
record HostileKind(String apiVersion, String kind, String field, String container, List<String> types) {
  boolean mpi() {
    return kind.equals("MPIJob");
  }

  /** The replicas a type gets when its spec sets none, as the kind defaults them. */
  int defaultReplicas(String type) {
    return mpi() && type.equals("Worker") ? 0 : 1;
  }

  /** The names of the children of a type with this many replicas, longest last (the pod and service names). */
  int longestChildName(String job, String type, int replicas) {
    if (mpi()) {
      if (type.equals("Launcher")) return job.length() + "-launcher".length();
      return replicas < 1 ? 0 : job.length() + "-worker-".length() + Integer.toString(replicas - 1).length();
    }
    return job.length() + 2 + type.length() + Integer.toString(Math.max(replicas - 1, 0)).length();
  }

  static final HostileKind PYTORCH = new HostileKind("kubeflow.org/v1", "PyTorchJob", "pytorchReplicaSpecs",
      "pytorch", List.of("Master", "Worker"));
  static final HostileKind TF = new HostileKind("kubeflow.org/v1", "TFJob", "tfReplicaSpecs", "tensorflow",
      List.of("Chief", "Master", "PS", "Worker", "Evaluator"));
  static final HostileKind MPI = new HostileKind("kubeflow.org/v2beta1", "MPIJob", "mpiReplicaSpecs", "mpi",
      List.of("Launcher", "Worker"));
  static final List<HostileKind> KINDS = List.of(PYTORCH, TF, MPI);
}
