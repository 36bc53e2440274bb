package dev.stint.spi.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.Objects;

/**
 * {@code status.replicaStatuses.<type>}. Zero counts are omitted from JSON, as upstream does; {@code terminating}
 * and {@code restarts} are Stint additions.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("The pods of one replica type, counted from the pods as the operator last saw them.")
public class ReplicaStatus {
  @JsonPropertyDescription("Pods of this type that are running (phase Running and not being deleted).")
  private Integer active;

  @JsonPropertyDescription("Pods of this type that succeeded (phase Succeeded).")
  private Integer succeeded;

  @JsonPropertyDescription("Pods of this type that failed (phase Failed), whether or not they are retried.")
  private Integer failed;

  @JsonPropertyDescription("Pods of this type being deleted (by a suspension, a gang restart, a scale-down or the end "
      + "of the job), counted neither active nor failed; a replacement waits until its old pod is gone (a Stint "
      + "addition).")
  private Integer terminating;

  @JsonPropertyDescription("Pods of this type deleted and created again after a retryable failure; they count toward "
      + "runPolicy.backoffLimit (a Stint addition). Gang restarts are counted in status.restarts instead.")
  private Integer restarts;

  @JsonPropertyDescription("Indexes of this type whose pod succeeded, in batch/v1 Job interval format, for example "
      + "\"0,2-4\" (a Stint addition).")
  private String succeededIndexes;

  @JsonPropertyDescription("Indexes of this type whose pod failed for good (not to be retried), in the interval "
      + "format of succeededIndexes (a Stint addition). A partial success names them in its condition.")
  private String failedIndexes;

  @JsonPropertyDescription("Deprecated in Kubeflow and never written: use selector.")
  private LabelSelector labelSelector;

  @JsonPropertyDescription("Label selector of this type's pods, as a string: the job's training.kubeflow.org labels "
      + "and this type's replica-type. PyTorchJob's scale subresource reads the Worker's.")
  private String selector;

  public Integer getActive() { return active; }
  public void setActive(Integer active) { this.active = nullIfZero(active); }
  public Integer getSucceeded() { return succeeded; }
  public void setSucceeded(Integer succeeded) { this.succeeded = nullIfZero(succeeded); }
  public Integer getFailed() { return failed; }
  public void setFailed(Integer failed) { this.failed = nullIfZero(failed); }
  public Integer getTerminating() { return terminating; }
  public void setTerminating(Integer terminating) { this.terminating = nullIfZero(terminating); }
  /** Pods of this type deleted and recreated by Stint after a retryable failure (counts toward backoffLimit). */
  public Integer getRestarts() { return restarts; }
  public void setRestarts(Integer restarts) { this.restarts = nullIfZero(restarts); }
  /** Indexes whose pod succeeded, in batch/v1 Job interval format ({@code "0,2-4"}); a Stint addition. */
  public String getSucceededIndexes() { return succeededIndexes; }
  public void setSucceededIndexes(String v) { this.succeededIndexes = v == null || v.isEmpty() ? null : v; }
  /** Indexes that failed for good (not retried), in interval format; a Stint addition. */
  public String getFailedIndexes() { return failedIndexes; }
  public void setFailedIndexes(String v) { this.failedIndexes = v == null || v.isEmpty() ? null : v; }
  public LabelSelector getLabelSelector() { return labelSelector; }
  public void setLabelSelector(LabelSelector labelSelector) { this.labelSelector = labelSelector; }
  public String getSelector() { return selector; }
  public void setSelector(String selector) { this.selector = selector; }

  public int active() { return active == null ? 0 : active; }
  public int succeeded() { return succeeded == null ? 0 : succeeded; }
  public int failed() { return failed == null ? 0 : failed; }
  public int terminating() { return terminating == null ? 0 : terminating; }
  public int restarts() { return restarts == null ? 0 : restarts; }

  private static Integer nullIfZero(Integer v) { return v == null || v == 0 ? null : v; }

  public ReplicaStatus copy() {
    ReplicaStatus r = new ReplicaStatus();
    r.active = active; r.succeeded = succeeded; r.failed = failed; r.terminating = terminating;
    r.restarts = restarts; r.succeededIndexes = succeededIndexes; r.failedIndexes = failedIndexes;
    r.labelSelector = labelSelector; r.selector = selector;
    return r;
  }

  @Override public boolean equals(Object o) {
    if (!(o instanceof ReplicaStatus r)) return false;
    return active() == r.active() && succeeded() == r.succeeded() && failed() == r.failed()
        && terminating() == r.terminating() && restarts() == r.restarts()
        && Objects.equals(succeededIndexes, r.succeededIndexes) && Objects.equals(failedIndexes, r.failedIndexes)
        && Objects.equals(labelSelector, r.labelSelector) && Objects.equals(selector, r.selector);
  }

  @Override public int hashCode() { return Objects.hash(active(), succeeded(), failed(), selector); }

  @Override public String toString() {
    return "{active=" + active() + ", succeeded=" + succeeded() + ", failed=" + failed()
        + ", terminating=" + terminating() + ", restarts=" + restarts() + "}";
  }
}
