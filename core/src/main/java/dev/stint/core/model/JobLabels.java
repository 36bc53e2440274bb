package dev.stint.core.model;

import dev.stint.spi.KubeflowLabels;
import dev.stint.spi.ReplicaId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The {@code training.kubeflow.org/*} labels that Kubeflow puts on a job's pods and services. */
public final class JobLabels {
  public static final String OPERATOR_NAME = KubeflowLabels.OPERATOR_NAME;
  public static final String JOB_NAME = KubeflowLabels.JOB_NAME;
  public static final String REPLICA_TYPE = KubeflowLabels.REPLICA_TYPE;
  public static final String REPLICA_INDEX = KubeflowLabels.REPLICA_INDEX;
  public static final String JOB_ROLE = KubeflowLabels.JOB_ROLE;

  private JobLabels() { }

  /** The label value of a job name ({@code /} becomes {@code -}). */
  public static String jobNameValue(String jobName) {
    return jobName.replace('/', '-');
  }

  /** Labels shared by every child of a job. */
  public static Map<String, String> ofJob(String controllerName, String jobName) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(OPERATOR_NAME, controllerName);
    labels.put(JOB_NAME, jobNameValue(jobName));
    return labels;
  }

  /** Labels (and service selector) of one replica's pod and service. */
  public static Map<String, String> ofReplica(String controllerName, String jobName, ReplicaId replica) {
    Map<String, String> labels = ofJob(controllerName, jobName);
    labels.put(REPLICA_TYPE, replica.typeLabel());
    labels.put(REPLICA_INDEX, Integer.toString(replica.index()));
    return labels;
  }

  /** {@code status.replicaStatuses.<type>.selector}: the labels of one replica type, keys sorted. */
  public static String selector(String controllerName, String jobName, String replicaType) {
    Map<String, String> labels = new TreeMap<>(ofJob(controllerName, jobName));
    labels.put(REPLICA_TYPE, new ReplicaId(replicaType, 0).typeLabel());
    return labels.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
  }
}
