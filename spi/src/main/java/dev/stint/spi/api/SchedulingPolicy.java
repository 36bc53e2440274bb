package dev.stint.spi.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/** {@code spec.runPolicy.schedulingPolicy}: gang-scheduling hints (PodGroup for Volcano or scheduler-plugins). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(oldSelf.queue) || (has(self.queue) && self.queue == oldSelf.queue)",
    message = "spec.runPolicy.schedulingPolicy.queue is immutable", reason = "FieldValueInvalid", fieldPath = ".queue")
@JsonClassDescription("Gang scheduling: the PodGroup the job's pods are scheduled as, when the operator runs with "
    + "--gang-scheduler-name (Volcano or scheduler-plugins).")
public class SchedulingPolicy {
  @JsonPropertyDescription("The PodGroup's minMember: pods that must be schedulable together. Defaults to every "
      + "replica of the job.")
  private Integer minAvailable;

  @JsonPropertyDescription("Volcano only: the PodGroup's queue (default: default). Immutable.")
  private String queue;

  @JsonPropertyDescription("The PodGroup's minResources. Defaults to the requests (else the limits) of every "
      + "replica's containers, summed.")
  private Map<String, Quantity> minResources;

  @JsonPropertyDescription("Volcano only: the PodGroup's priorityClassName. With --kueue=native also the priority of "
      + "the job's Workload, unless its label kueue.x-k8s.io/priority-class names one.")
  private String priorityClass;

  @JsonPropertyDescription("scheduler-plugins only: the PodGroup's scheduleTimeoutSeconds.")
  private Integer scheduleTimeoutSeconds;

  public Integer getMinAvailable() { return minAvailable; }
  public void setMinAvailable(Integer minAvailable) { this.minAvailable = minAvailable; }
  public String getQueue() { return queue; }
  public void setQueue(String queue) { this.queue = queue; }
  public Map<String, Quantity> getMinResources() { return minResources; }
  public void setMinResources(Map<String, Quantity> minResources) { this.minResources = minResources; }
  public String getPriorityClass() { return priorityClass; }
  public void setPriorityClass(String priorityClass) { this.priorityClass = priorityClass; }
  public Integer getScheduleTimeoutSeconds() { return scheduleTimeoutSeconds; }
  public void setScheduleTimeoutSeconds(Integer v) { this.scheduleTimeoutSeconds = v; }
}
