package dev.stint.spi.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/** {@code spec.runPolicy.schedulingPolicy}: gang-scheduling hints (PodGroup for Volcano or scheduler-plugins). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(oldSelf.queue) || (has(self.queue) && self.queue == oldSelf.queue)",
    message = "spec.runPolicy.schedulingPolicy.queue is immutable", reason = "FieldValueInvalid", fieldPath = ".queue")
public class SchedulingPolicy {
  private Integer minAvailable;
  private String queue;
  private Map<String, Quantity> minResources;
  private String priorityClass;
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
