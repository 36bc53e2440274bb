package dev.stint.spi.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** One entry of {@code status.conditions}, as in Kubeflow v1 ({@code JobCondition}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("One condition of the job.")
public class JobCondition {
  @JsonPropertyDescription("Created, Running, Restarting, Suspended, Succeeded or Failed, as in Kubeflow; or one of "
      + "Stint's: PartiallySucceeded (the success policy held while some replica failed, set just before Succeeded), "
      + "PodsWaiting (some pod exists and cannot run) or ReplicaFailure (the API server refuses the job's pods or "
      + "services for a reason that heals, such as quota; retried).")
  private String type;

  @JsonPropertyDescription("True, False or Unknown.")
  private String status;

  @JsonPropertyDescription("Why, in one word: <Kind><Type> (PyTorchJobRunning), or a more precise cause such as "
      + "<Kind>Resumed, <Kind>FailedValidation, <Kind>MemberFailed or <Kind>ImagePullBackOff.")
  private String reason;

  @JsonPropertyDescription("Why, for people: what happened, naming the replicas, fields or objects concerned.")
  private String message;

  @JsonPropertyDescription("When the condition was last set (RFC 3339, UTC).")
  private String lastUpdateTime;

  @JsonPropertyDescription("When the condition's status last changed (RFC 3339, UTC).")
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

  @com.fasterxml.jackson.annotation.JsonIgnore
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
