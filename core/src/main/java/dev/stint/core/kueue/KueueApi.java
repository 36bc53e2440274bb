package dev.stint.core.kueue;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The names of Kueue's Workload protocol (v1beta2, as Kueue v0.17 stores it): resources, labels, annotations,
 * conditions and the finalizer, and Kueue's name of a job's Workload.
 */
public final class KueueApi {
  public static final String GROUP = "kueue.x-k8s.io";
  public static final String VERSION = "v1beta2";
  public static final String API_VERSION = GROUP + "/" + VERSION;

  /** Job labels read by Stint. */
  public static final String QUEUE_NAME_LABEL = "kueue.x-k8s.io/queue-name";
  public static final String PRIORITY_CLASS_LABEL = "kueue.x-k8s.io/priority-class";
  public static final String MAX_EXEC_TIME_LABEL = "kueue.x-k8s.io/max-exec-time-seconds";
  /** Workload label and finalizer. */
  public static final String JOB_UID_LABEL = "kueue.x-k8s.io/job-uid";
  public static final String FINALIZER = "kueue.x-k8s.io/resource-in-use";
  /** Pod labels and annotation Kueue's integrations set on an admitted job's pods. */
  public static final String PODSET_LABEL = "kueue.x-k8s.io/podset";
  public static final String LOCAL_QUEUE_LABEL = "kueue.x-k8s.io/local-queue-name";
  public static final String CLUSTER_QUEUE_LABEL = "kueue.x-k8s.io/cluster-queue-name";
  public static final String WORKLOAD_ANNOTATION = "kueue.x-k8s.io/workload";
  /** A pod's annotation that shifts the rank Kueue's topology ungater reads from its index label. */
  public static final String POD_INDEX_OFFSET_ANNOTATION = "kueue.x-k8s.io/pod-index-offset";
  /**
   * A job label (or annotation) naming a Workload made before the job, which the job adopts instead of creating one:
   * MultiKueue's worker copy of a job carries it.
   */
  public static final String PREBUILT_WORKLOAD_LABEL = "kueue.x-k8s.io/prebuilt-workload-name";
  /**
   * The {@code runPolicy.managedBy} of a job MultiKueue dispatches to a worker cluster: in the manager cluster it gets
   * a Workload, and nothing else (no pod, no status write).
   */
  public static final String MULTIKUEUE_MANAGED_BY = "kueue.x-k8s.io/multikueue";
  /**
   * Stint's annotation on a Workload: a digest of the podSets it was made from, so that a job changed while queued
   * is seen without comparing templates the API server may have normalized.
   */
  public static final String PODSETS_DIGEST = "stint.dev/podsets-digest";
  /**
   * Stint's mark on a Workload it deactivated because the user suspended the job: only such a Workload is activated
   * again on resume (one Kueue deactivated, after too many requeues, stays so).
   */
  public static final String DEACTIVATED_BY_SUSPEND = "stint.dev/deactivated-by-suspend";

  public static final ResourceDefinitionContext WORKLOADS = context("Workload", "workloads", true);
  public static final ResourceDefinitionContext RESOURCE_FLAVORS = context("ResourceFlavor", "resourceflavors", false);
  public static final ResourceDefinitionContext LOCAL_QUEUES = context("LocalQueue", "localqueues", true);
  public static final ResourceDefinitionContext WORKLOAD_PRIORITY_CLASSES =
      context("WorkloadPriorityClass", "workloadpriorityclasses", false);

  private KueueApi() { }

  /**
   * Kueue's name of a job's Workload ({@code jobframework/workload_names.go}):
   * {@code <kind>-<job>} in lower case, cut to 247 characters, then {@code -} and the first five hex digits of
   * {@code sha1(kind \n group \n job \n uid)}; the same name Kueue's own integration would give it.
   */
  public static String workloadName(String kind, String group, String jobName, String jobUid) {
    String prefix = (kind.toLowerCase(Locale.ROOT) + "-" + jobName);
    if (prefix.length() > 253 - 6) {
      prefix = prefix.substring(0, 253 - 6);
    }
    try {
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      byte[] hash = sha1.digest((kind + "\n" + group + "\n" + jobName + "\n" + jobUid)
          .getBytes(StandardCharsets.UTF_8));
      return prefix + "-" + HexFormat.of().formatHex(hash).substring(0, 5);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-1", e);
    }
  }

  private static ResourceDefinitionContext context(String kind, String plural, boolean namespaced) {
    return new ResourceDefinitionContext.Builder().withGroup(GROUP).withVersion(VERSION).withKind(kind)
        .withPlural(plural).withNamespaced(namespaced).build();
  }
}
