package dev.stint.pytorch;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpec;
import java.util.List;

/**
 * {@code spec.elasticPolicy} of a PyTorchJob (Kubeflow v1.9): torchrun's elastic rendezvous settings and, with
 * {@code metrics}, an autoscaler for the Worker replicas. Field names are explicit because several of them
 * ({@code nProcPerNode}, {@code rdzvId}) would otherwise be renamed by the bean conventions. The bounds that the
 * autoscaler and torchrun need are the CRD's, so that an edit of a running job that breaks them is refused rather
 * than failing the job ({@link PyTorchJobValidation} checks them again for a cluster with an older CRD).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.minReplicas) || !has(self.maxReplicas) || self.minReplicas <= self.maxReplicas",
    message = "spec.elasticPolicy.maxReplicas: must not be less than minReplicas", fieldPath = ".maxReplicas")
public class ElasticPolicy {

  @JsonProperty("minReplicas")
  @JsonPropertyDescription("Lower limit of Worker replicas the job can scale down to. Defaults to maxReplicas, "
      + "or to the Worker replicas when neither is set.")
  @Min(1)
  @Max(Integer.MAX_VALUE) // an int32, as upstream's: a larger number would not be read
  private Integer minReplicas;

  @JsonProperty("maxReplicas")
  @JsonPropertyDescription("Upper limit of Worker replicas the autoscaler may set; not smaller than minReplicas. "
      + "Defaults to minReplicas, or to the Worker replicas when neither is set.")
  @Min(1)
  @Max(Integer.MAX_VALUE)
  private Integer maxReplicas;

  @JsonProperty("rdzvBackend")
  @JsonPropertyDescription("Rendezvous backend: c10d (default), etcd or etcd-v2.")
  private String rdzvBackend;

  @JsonProperty("rdzvPort")
  @JsonPropertyDescription("Rendezvous port. Defaults to the Worker's pytorchjob-port.")
  @Min(1)
  @Max(65535)
  private Integer rdzvPort;

  @JsonProperty("rdzvHost")
  @JsonPropertyDescription("Rendezvous host. Defaults to <job>-worker-0.")
  private String rdzvHost;

  @JsonProperty("rdzvId")
  @JsonPropertyDescription("Rendezvous id.")
  private String rdzvId;

  @JsonProperty("rdzvConf")
  @JsonPropertyDescription("Additional rendezvous configuration, passed on as <key1>=<value1>,<key2>=<value2>.")
  private List<RdzvConf> rdzvConf;

  @JsonProperty("standalone")
  @JsonPropertyDescription("Start a local standalone rendezvous backend (a c10d TCP store on port 29400).")
  private Boolean standalone;

  @JsonProperty("nProcPerNode")
  @JsonPropertyDescription("Deprecated since Kubeflow v1.7: use spec.nprocPerNode. Number of processes per node.")
  @Min(1)
  @Max(Integer.MAX_VALUE)
  private Integer nProcPerNode;

  @JsonProperty("maxRestarts")
  @JsonPropertyDescription("Maximum number of worker group restarts before torchrun fails.")
  @Min(0)
  @Max(Integer.MAX_VALUE)
  private Integer maxRestarts;

  @JsonProperty("metrics")
  @JsonPropertyDescription("Metrics of a HorizontalPodAutoscaler that scales the Worker replicas between "
      + "minReplicas and maxReplicas. Without metrics no autoscaler is created.")
  private List<MetricSpec> metrics;

  public Integer getMinReplicas() { return minReplicas; }
  public void setMinReplicas(Integer minReplicas) { this.minReplicas = minReplicas; }
  public Integer getMaxReplicas() { return maxReplicas; }
  public void setMaxReplicas(Integer maxReplicas) { this.maxReplicas = maxReplicas; }
  public String getRdzvBackend() { return rdzvBackend; }
  public void setRdzvBackend(String rdzvBackend) { this.rdzvBackend = rdzvBackend; }
  public Integer getRdzvPort() { return rdzvPort; }
  public void setRdzvPort(Integer rdzvPort) { this.rdzvPort = rdzvPort; }
  public String getRdzvHost() { return rdzvHost; }
  public void setRdzvHost(String rdzvHost) { this.rdzvHost = rdzvHost; }
  public String getRdzvId() { return rdzvId; }
  public void setRdzvId(String rdzvId) { this.rdzvId = rdzvId; }
  public List<RdzvConf> getRdzvConf() { return rdzvConf; }
  public void setRdzvConf(List<RdzvConf> rdzvConf) { this.rdzvConf = rdzvConf; }
  public Boolean getStandalone() { return standalone; }
  public void setStandalone(Boolean standalone) { this.standalone = standalone; }
  // explicit names: the bean convention would turn getNProcPerNode into a second property "nprocPerNode"
  @JsonProperty("nProcPerNode")
  public Integer getNProcPerNode() { return nProcPerNode; }
  @JsonProperty("nProcPerNode")
  public void setNProcPerNode(Integer nProcPerNode) { this.nProcPerNode = nProcPerNode; }
  public Integer getMaxRestarts() { return maxRestarts; }
  public void setMaxRestarts(Integer maxRestarts) { this.maxRestarts = maxRestarts; }
  public List<MetricSpec> getMetrics() { return metrics; }
  public void setMetrics(List<MetricSpec> metrics) { this.metrics = metrics; }

  /**
   * {@code minReplicas} after the upstream defaulting: itself, else {@code maxReplicas}, else the Worker replicas.
   * Computed, never written back to the job.
   */
  public int effectiveMinReplicas(int workerReplicas) {
    if (minReplicas != null) return minReplicas;
    return maxReplicas != null ? maxReplicas : workerReplicas;
  }

  /** {@code maxReplicas} after the upstream defaulting: itself, else {@code minReplicas}, else the Worker replicas. */
  public int effectiveMaxReplicas(int workerReplicas) {
    if (maxReplicas != null) return maxReplicas;
    return minReplicas != null ? minReplicas : workerReplicas;
  }
}
