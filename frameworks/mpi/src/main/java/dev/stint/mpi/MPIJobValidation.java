package dev.stint.mpi;

import dev.stint.spi.TrainingJobSpec;
import dev.stint.spi.api.ReplicaSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checks of an MPIJob that wiring depends on. The CRD makes them all as CEL rules; they are made here again for
 * clusters that run an older CRD (or upstream's, whose checks live in the controller), so that such a job fails with
 * a message naming the field instead of running half wired. The engine already checks replica types, containers and
 * images.
 */
final class MPIJobValidation {

  private static final Set<String> RESTART_POLICIES = Set.of("Never", "OnFailure");
  private static final Set<String> IMPLEMENTATIONS = Set.of(MPIJobSpec.OPEN_MPI, MPIJobSpec.INTEL, MPIJobSpec.MPICH);
  private static final Set<String> CREATION_POLICIES =
      Set.of(MPIJobSpec.AT_STARTUP, MPIJobSpec.WAIT_FOR_WORKERS_READY);

  private MPIJobValidation() { }

  /** The problems, each naming its field; empty when the job can run. */
  static List<String> problems(MPIJob job) {
    MPIJobSpec spec = job.getSpec();
    if (!TrainingJobSpec.hasReplicaSpecs(spec)) return List.of("spec.mpiReplicaSpecs: must be set");
    List<String> problems = new ArrayList<>();
    replicaProblems(spec.getMpiReplicaSpecs(), problems);
    if (spec.getSlotsPerWorker() != null && spec.getSlotsPerWorker() < 0) {
      problems.add("spec.slotsPerWorker: must be greater than or equal to 0");
    }
    if (spec.getMpiImplementation() != null && !IMPLEMENTATIONS.contains(spec.getMpiImplementation())) {
      problems.add("spec.mpiImplementation must be one of OpenMPI, Intel, MPICH");
    }
    if (spec.getLauncherCreationPolicy() != null && !CREATION_POLICIES.contains(spec.getLauncherCreationPolicy())) {
      problems.add("spec.launcherCreationPolicy must be AtStartup or WaitForWorkersReady");
    }
    return problems;
  }

  private static void replicaProblems(Map<String, ReplicaSpec> specs, List<String> problems) {
    ReplicaSpec launcher = specs.get(MPIJobSpec.LAUNCHER);
    ReplicaSpec worker = specs.get(MPIJobSpec.WORKER);
    if (launcher == null) {
      problems.add("spec.mpiReplicaSpecs.Launcher: must be set");
    } else if (launcher.getReplicas() != null && launcher.getReplicas() != 1) {
      problems.add("spec.mpiReplicaSpecs.Launcher.replicas: must be 1");
    }
    if (worker != null && worker.getReplicas() != null && worker.getReplicas() < 1) {
      problems.add("spec.mpiReplicaSpecs.Worker.replicas: must be greater than or equal to 1");
    }
    specs.forEach((type, spec) -> {
      String policy = spec == null ? null : spec.getRestartPolicy();
      if (policy != null && !policy.isEmpty() && !RESTART_POLICIES.contains(policy)) {
        problems.add("spec.mpiReplicaSpecs." + type + ".restartPolicy: must be Never or OnFailure");
      }
    });
  }
}
