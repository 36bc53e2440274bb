package dev.stint.mpi;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stint.spi.api.JobRules;
import dev.stint.spi.api.KubeflowJobSpec;
import dev.stint.spi.api.ReplicaSpec;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.Map;

/**
 * {@code spec} of an MPIJob, field for field the MPI Operator's v2beta1 {@code MPIJobSpec}. Upstream's defaults
 * (slots 1, {@code /root/.ssh}, {@code OpenMPI}, {@code AtStartup}) are applied in memory by the accessors below and
 * never written to the job; the CEL rules carry upstream's validation, each message naming its field.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("The desired job: its Launcher and Workers, run policy and MPI settings.")
public class MPIJobSpec extends KubeflowJobSpec<MpiRunPolicy> {
  /** The Launcher replica type: the one pod that runs {@code mpirun} and decides the job's outcome. */
  public static final String LAUNCHER = "Launcher";
  /** The Worker replica type: pods running sshd, into which the launcher starts the MPI processes. */
  public static final String WORKER = "Worker";

  public static final String OPEN_MPI = "OpenMPI";
  public static final String INTEL = "Intel";
  public static final String MPICH = "MPICH";
  public static final String AT_STARTUP = "AtStartup";
  public static final String WAIT_FOR_WORKERS_READY = "WaitForWorkersReady";
  public static final String DEFAULT_SSH_AUTH_MOUNT_PATH = "/root/.ssh";


  @JsonProperty("slotsPerWorker")
  @JsonPropertyDescription("Specifies the number of slots per worker used in hostfile. Defaults to 1.")
  @Min(0)
  @Max(Integer.MAX_VALUE) // an int32, as upstream's: a larger number would not be read
  private Integer slotsPerWorker;

  @JsonProperty("runLauncherAsWorker")
  @JsonPropertyDescription("RunLauncherAsWorker indicates whether to run worker process in launcher. Defaults to "
      + "false.")
  private Boolean runLauncherAsWorker;

  @JsonProperty("mpiReplicaSpecs")
  @JsonPropertyDescription("MPIReplicaSpecs contains maps from `MPIReplicaType` to `ReplicaSpec` that specify the MPI "
      + "replicas to run: Launcher (exactly one replica, restartPolicy OnFailure by default) and Worker (0 replicas "
      + "and restartPolicy Never by default).")
  @Required
  @Size(min = 1, max = 2)
  @ValidationRule(value = "self.all(t, t == 'Launcher' || t == 'Worker')",
      message = "spec.mpiReplicaSpecs: replica types must be Launcher or Worker")
  @ValidationRule(value = "has(self.Launcher)", message = "spec.mpiReplicaSpecs.Launcher: must be set",
      reason = "FieldValueRequired")
  @ValidationRule(value = JobRules.EVERY_TYPE_HAS_CONTAINERS,
      message = "spec.mpiReplicaSpecs" + JobRules.NEEDS_CONTAINERS)
  @ValidationRule(value = JobRules.EVERY_CONTAINER_HAS_IMAGE,
      message = "spec.mpiReplicaSpecs" + JobRules.NEEDS_IMAGES)
  @ValidationRule(value = "!has(self.Launcher) || !has(self.Launcher.replicas) || self.Launcher.replicas == 1",
      message = "spec.mpiReplicaSpecs.Launcher.replicas: must be 1")
  @ValidationRule(value = "!has(self.Worker) || !has(self.Worker.replicas) || self.Worker.replicas >= 1",
      message = "spec.mpiReplicaSpecs.Worker.replicas: must be greater than or equal to 1")
  @ValidationRule(value = "!has(self.Launcher) || !has(self.Launcher.restartPolicy)"
      + " || self.Launcher.restartPolicy in ['Never', 'OnFailure']",
      message = "spec.mpiReplicaSpecs.Launcher.restartPolicy: must be Never or OnFailure")
  @ValidationRule(value = "!has(self.Worker) || !has(self.Worker.restartPolicy)"
      + " || self.Worker.restartPolicy in ['Never', 'OnFailure']",
      message = "spec.mpiReplicaSpecs.Worker.restartPolicy: must be Never or OnFailure")
  private Map<String, ReplicaSpec> mpiReplicaSpecs;

  @JsonProperty("sshAuthMountPath")
  @JsonPropertyDescription("SSHAuthMountPath is the directory where SSH keys are mounted. Defaults to \"/root/.ssh\".")
  private String sshAuthMountPath;

  @JsonProperty("launcherCreationPolicy")
  @JsonPropertyDescription("launcherCreationPolicy if WaitForWorkersReady, the launcher is created only after all "
      + "workers are in Ready state. Defaults to AtStartup.")
  @ValidationRule(value = "self in ['AtStartup', 'WaitForWorkersReady']",
      message = "spec.launcherCreationPolicy must be AtStartup or WaitForWorkersReady")
  private String launcherCreationPolicy;

  @JsonProperty("mpiImplementation")
  @JsonPropertyDescription("MPIImplementation is the MPI implementation. Options are \"OpenMPI\" (default), \"Intel\" "
      + "and \"MPICH\".")
  @ValidationRule(value = "self in ['OpenMPI', 'Intel', 'MPICH']",
      message = "spec.mpiImplementation must be one of OpenMPI, Intel, MPICH")
  private String mpiImplementation;

  public Integer getSlotsPerWorker() { return slotsPerWorker; }
  public void setSlotsPerWorker(Integer slotsPerWorker) { this.slotsPerWorker = slotsPerWorker; }
  public Boolean getRunLauncherAsWorker() { return runLauncherAsWorker; }
  public void setRunLauncherAsWorker(Boolean runLauncherAsWorker) { this.runLauncherAsWorker = runLauncherAsWorker; }
  public Map<String, ReplicaSpec> getMpiReplicaSpecs() { return mpiReplicaSpecs; }
  public void setMpiReplicaSpecs(Map<String, ReplicaSpec> v) { this.mpiReplicaSpecs = v; }
  public String getSshAuthMountPath() { return sshAuthMountPath; }
  public void setSshAuthMountPath(String sshAuthMountPath) { this.sshAuthMountPath = sshAuthMountPath; }
  public String getLauncherCreationPolicy() { return launcherCreationPolicy; }
  public void setLauncherCreationPolicy(String v) { this.launcherCreationPolicy = v; }
  public String getMpiImplementation() { return mpiImplementation; }
  public void setMpiImplementation(String mpiImplementation) { this.mpiImplementation = mpiImplementation; }

  /** The field as the base class declares it, described in upstream's words. */
  @Override
  @JsonPropertyDescription("RunPolicy encapsulates various runtime policies of the job.")
  public MpiRunPolicy getRunPolicy() { return super.getRunPolicy(); }

  @Override
  public Map<String, ReplicaSpec> replicaSpecs() { return mpiReplicaSpecs; }

  @Override
  public String replicaSpecsField() { return "mpiReplicaSpecs"; }

  /** {@code slotsPerWorker}, 1 when unset. */
  public int slots() { return slotsPerWorker == null ? 1 : slotsPerWorker; }

  /** {@code runLauncherAsWorker}, false when unset. */
  public boolean launcherIsWorker() { return Boolean.TRUE.equals(runLauncherAsWorker); }

  /** {@code sshAuthMountPath}, {@code /root/.ssh} when unset or empty. */
  public String sshMountPath() {
    return sshAuthMountPath == null || sshAuthMountPath.isEmpty() ? DEFAULT_SSH_AUTH_MOUNT_PATH : sshAuthMountPath;
  }

  /** {@code mpiImplementation}, {@code OpenMPI} when unset or empty. */
  public String implementation() {
    return mpiImplementation == null || mpiImplementation.isEmpty() ? OPEN_MPI : mpiImplementation;
  }

  /** Whether the launcher waits for every worker to run ({@code launcherCreationPolicy: WaitForWorkersReady}). */
  public boolean launcherWaitsForWorkers() { return WAIT_FOR_WORKERS_READY.equals(launcherCreationPolicy); }
}
