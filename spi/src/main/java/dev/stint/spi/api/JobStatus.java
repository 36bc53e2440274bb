package dev.stint.spi.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** {@code status} of every kind: the Kubeflow v1 {@code JobStatus}, plus Stint's optional additions. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("The state of the job, written by the operator: conditions, pod counts per replica type, "
    + "times, and Stint's counters of suspensions and gang restarts.")
public class JobStatus {
  @JsonPropertyDescription("Where the job stands, one condition per type: Created, Running, Restarting, Suspended, "
      + "Succeeded and Failed as in Kubeflow, and Stint's PartiallySucceeded, PodsWaiting and ReplicaFailure. A "
      + "condition that changes moves to the end of the list (the STATE column shows the last). Succeeded=True or "
      + "Failed=True: the job has finished.")
  private List<JobCondition> conditions;

  @JsonPropertyDescription("Pod counts of each replica type, keyed by the type (Master, Worker, ...).")
  private Map<String, ReplicaStatus> replicaStatuses;

  @JsonPropertyDescription("When the job started (RFC 3339, UTC): the first time it may run (neither suspended nor "
      + "queued), and again on every resume, so that activeDeadlineSeconds measures continuous running time.")
  private String startTime;

  @JsonPropertyDescription("When the job finished (RFC 3339, UTC): set whenever it ends Succeeded or Failed.")
  private String completionTime;

  @JsonPropertyDescription("Written only with gang scheduling on Volcano: the last time the job's pods were held back "
      + "because the scheduler had not yet admitted its PodGroup.")
  private String lastReconcileTime;

  @JsonPropertyDescription("How many times the job was suspended after it had started, being created suspended not "
      + "counted (a Stint addition). Absent: 0.")
  private Integer suspensions;

  @JsonPropertyDescription("The metadata.generation of the spec this status was computed from (a Stint addition).")
  private Long observedGeneration;

  @JsonPropertyDescription("One word for where the job stands, the OUTCOME column (a Stint addition): its most "
      + "telling true condition of Failed, PartiallySucceeded, Succeeded, Suspended, Restarting, PodsWaiting, Running "
      + "and Created, in that order.")
  private String outcome;

  @JsonPropertyDescription("Gang restarts by runPolicy.failurePolicy so far, counted toward maxRestarts or not; also "
      + "the attempt number of the current pods (their label training.kubeflow.org/restart-attempt and variable "
      + "STINT_RESTART_ATTEMPT). A Stint addition, as JobSet's restarts. Absent: 0.")
  private Integer restarts;

  @JsonPropertyDescription("Gang restarts that counted toward runPolicy.failurePolicy.maxRestarts (a Stint addition, "
      + "as JobSet's restartsCountTowardsMax). Absent: 0.")
  private Integer restartsCountTowardsMax;

  @JsonPropertyDescription("Gang restarts in a row whose failed attempt lasted less than 10 minutes (a Stint "
      + "addition). From the second, the next attempt's pods wait 10 s, doubling each time up to 6 minutes; a restart "
      + "after a longer attempt starts the count again at 1; a disruption leaves it as it is.")
  private Integer quickRestarts;

  public List<JobCondition> getConditions() { return conditions; }
  public void setConditions(List<JobCondition> conditions) { this.conditions = conditions; }
  public Map<String, ReplicaStatus> getReplicaStatuses() { return replicaStatuses; }
  public void setReplicaStatuses(Map<String, ReplicaStatus> v) { this.replicaStatuses = v; }
  public String getStartTime() { return startTime; }
  public void setStartTime(String startTime) { this.startTime = startTime; }
  public String getCompletionTime() { return completionTime; }
  public void setCompletionTime(String completionTime) { this.completionTime = completionTime; }
  public String getLastReconcileTime() { return lastReconcileTime; }
  public void setLastReconcileTime(String lastReconcileTime) { this.lastReconcileTime = lastReconcileTime; }
  /** How many times the job was suspended while it had started (a Stint addition). */
  public Integer getSuspensions() { return suspensions; }
  public void setSuspensions(Integer suspensions) { this.suspensions = suspensions; }
  /** The {@code metadata.generation} this status was computed from (a Stint addition). */
  public Long getObservedGeneration() { return observedGeneration; }
  public void setObservedGeneration(Long observedGeneration) { this.observedGeneration = observedGeneration; }

  /**
   * One word for where the job stands, for people and printer columns (a Stint addition): Created, Running,
   * Restarting, PodsWaiting, Suspended, Succeeded, PartiallySucceeded or Failed.
   */
  public String getOutcome() { return outcome; }
  public void setOutcome(String outcome) { this.outcome = outcome; }

  /**
   * Gang restarts of the job's failure policy so far, counted or not (a Stint addition, JobSet's {@code restarts});
   * also the attempt number of the pods running now.
   */
  public Integer getRestarts() { return restarts; }
  public void setRestarts(Integer restarts) { this.restarts = restarts; }
  /** Gang restarts that counted toward {@code failurePolicy.maxRestarts} (JobSet's {@code restartsCountTowardsMax}). */
  public Integer getRestartsCountTowardsMax() { return restartsCountTowardsMax; }
  public void setRestartsCountTowardsMax(Integer v) { this.restartsCountTowardsMax = v; }

  /**
   * Gang restarts in a row whose failed attempt had lasted less than ten minutes (a Stint addition): from the second,
   * the next attempt's pods wait 10 s, doubling with each, at most 6 minutes, as a batch Job waits before it
   * recreates a failed pod. A restart after a longer attempt starts the count again at 1; a disruption leaves it.
   */
  public Integer getQuickRestarts() { return quickRestarts; }
  public void setQuickRestarts(Integer quickRestarts) { this.quickRestarts = quickRestarts; }

  /** The condition of a type, if present. */
  public Optional<JobCondition> condition(String type) {
    if (conditions == null) return Optional.empty();
    return conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  /** True when a condition of this type has status True. */
  public boolean isTrue(String type) { return condition(type).map(JobCondition::isTrue).orElse(false); }

  /** A deep copy, so that a decision never mutates the observed object. */
  public JobStatus copy() {
    JobStatus s = new JobStatus();
    if (conditions != null) {
      s.conditions = new ArrayList<>();
      conditions.forEach(c -> s.conditions.add(c.copy()));
    }
    if (replicaStatuses != null) {
      s.replicaStatuses = new LinkedHashMap<>();
      replicaStatuses.forEach((k, v) -> s.replicaStatuses.put(k, v.copy()));
    }
    s.startTime = startTime;
    s.completionTime = completionTime;
    s.lastReconcileTime = lastReconcileTime;
    s.suspensions = suspensions;
    s.observedGeneration = observedGeneration;
    s.outcome = outcome;
    s.restarts = restarts;
    s.restartsCountTowardsMax = restartsCountTowardsMax;
    s.quickRestarts = quickRestarts;
    return s;
  }

  @Override public boolean equals(Object o) {
    if (!(o instanceof JobStatus s)) return false;
    return Objects.equals(conditions, s.conditions) && Objects.equals(replicaStatuses, s.replicaStatuses)
        && Objects.equals(startTime, s.startTime) && Objects.equals(completionTime, s.completionTime)
        && Objects.equals(lastReconcileTime, s.lastReconcileTime) && Objects.equals(suspensions, s.suspensions)
        && Objects.equals(observedGeneration, s.observedGeneration) && Objects.equals(outcome, s.outcome)
        && Objects.equals(restarts, s.restarts) && Objects.equals(restartsCountTowardsMax, s.restartsCountTowardsMax)
        && Objects.equals(quickRestarts, s.quickRestarts);
  }

  @Override public int hashCode() { return Objects.hash(conditions, replicaStatuses, startTime, completionTime); }
}
