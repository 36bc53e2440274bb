package dev.stint.spi.api;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/** One entry of {@code status.conditions}, as in Kubeflow v1 ({@code JobCondition}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class JobCondition {
  private String type;
  private String status;
  private String reason;
  private String message;
  private String lastUpdateTime;
  private String lastTransitionTime;

  public JobCondition() { }

  public JobCondition(String type, String status, String reason, String message, String time) {
    this.type = type;
    this.status = status;
    this.reason = reason;
    this.message = message;
    this.lastUpdateTime = time;
    this.lastTransitionTime = time;
  }

  public JobCondition copy() {
    JobCondition c = new JobCondition(type, status, reason, message, lastUpdateTime);
    c.lastTransitionTime = lastTransitionTime;
    return c;
  }

  public String getType() { return type; }
  public void setType(String type) { this.type = type; }
  public String getStatus() { return status; }
  public void setStatus(String status) { this.status = status; }
  public String getReason() { return reason; }
  public void setReason(String reason) { this.reason = reason; }
  public String getMessage() { return message; }
  public void setMessage(String message) { this.message = message; }
  public String getLastUpdateTime() { return lastUpdateTime; }
  public void setLastUpdateTime(String lastUpdateTime) { this.lastUpdateTime = lastUpdateTime; }
  public String getLastTransitionTime() { return lastTransitionTime; }
  public void setLastTransitionTime(String lastTransitionTime) { this.lastTransitionTime = lastTransitionTime; }

  /** Not a property: without {@code @JsonIgnore} Jackson writes {@code "true": ...} and then cannot read it back. */
  @JsonIgnore
  public boolean isTrue() { return "True".equals(status); }

  @Override public boolean equals(Object o) {
    if (!(o instanceof JobCondition c)) return false;
    return Objects.equals(type, c.type) && Objects.equals(status, c.status) && Objects.equals(reason, c.reason)
        && Objects.equals(message, c.message) && Objects.equals(lastUpdateTime, c.lastUpdateTime)
        && Objects.equals(lastTransitionTime, c.lastTransitionTime);
  }

  @Override public int hashCode() { return Objects.hash(type, status, reason, message); }

  @Override public String toString() { return type + "=" + status + "(" + reason + ": " + message + ")"; }
}
