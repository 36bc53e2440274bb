package dev.stint.spi.api;

/**
 * Hints a kind puts on its custom resource class, with fabric8's {@code @Annotations}, for what the CRD generator
 * cannot express. The build step of {@code stint-crd-tools} ({@code dev.stint.crd.CrdFinisher}) reads them from the
 * generated CRD, applies them and removes them; they never reach the cluster.
 *
 * <pre>{@code
 * @Annotations({CrdHints.REPLICA_SPECS + "=jaxReplicaSpecs", CrdHints.REPLICA_TYPES + "=Worker",
 *     CrdHints.SCALE_SPEC_REPLICAS_PATH + "=.spec.jaxReplicaSpecs.Worker.replicas",
 *     CrdHints.SCALE_STATUS_REPLICAS_PATH + "=.status.replicaStatuses.Worker.active"})
 * }</pre>
 */
public final class CrdHints {
  /**
   * The kind's replica-spec map under {@code spec} ({@code jaxReplicaSpecs}), with {@link #REPLICA_TYPES}. From the
   * two the finisher adds what every training job's CRD has, so that no kind writes it again:
   * <ul>
   *   <li>the printer columns State, Outcome and Age (before any the kind declares);</li>
   *   <li>root rules: the name is a DNS-1035 label; with the engine's pod names ({@code <name>-<type>-<index>}, see
   *       {@link #CUSTOM_POD_NAMES}) the name and the longest pod name fit a DNS label; the replicas summed over the
   *       types are at most {@link ReplicaLimits#MAX_PER_JOB}; {@code spec} is set (message
   *       {@code spec.<field>: must be set}); {@code runPolicy.managedBy} is neither added nor dropped;</li>
   *   <li>{@code spec} rules: the success rules of {@code runPolicy.successPolicy} name only these types, with counts
   *       from 1 to the type's replicas.</li>
   * </ul>
   * The kind's own {@code @ValidationRule}s stay: its root rules between the name rules and the rest, its {@code spec}
   * rules before the success rules.
   * The rules over the map itself (containers, images, the container's name) are the kind's, with {@link JobRules}.
   */
  public static final String REPLICA_SPECS = "stint.dev/replica-specs";
  /**
   * The kind's replica types, comma-separated in the order the engine creates them, each followed by
   * {@code :<replicas>} when its replicas default to another number than 1 when unset: {@code Launcher,Worker:0}.
   * The rules count unset replicas as these defaults, which must be the framework's {@code defaultReplicas}.
   */
  public static final String REPLICA_TYPES = "stint.dev/replica-types";
  /**
   * {@code true} when the kind names its pods itself rather than {@code <name>-<type>-<index>}: the finisher then
   * leaves out the two rules that fit the engine's names in a DNS label, and the kind writes its own.
   */
  public static final String CUSTOM_POD_NAMES = "stint.dev/custom-pod-names";
  /** The scale subresource's {@code specReplicasPath}. */
  public static final String SCALE_SPEC_REPLICAS_PATH = "stint.dev/scale-spec-replicas-path";
  /** The scale subresource's {@code statusReplicasPath}. */
  public static final String SCALE_STATUS_REPLICAS_PATH = "stint.dev/scale-status-replicas-path";
  /** The scale subresource's {@code labelSelectorPath} (optional). */
  public static final String SCALE_LABEL_SELECTOR_PATH = "stint.dev/scale-label-selector-path";
  /**
   * Printer column names in the order {@code kubectl get} should show them, comma-separated (the generator sorts
   * columns by JSON path); columns not listed follow in the generator's order.
   */
  public static final String PRINTER_COLUMN_ORDER = "stint.dev/printer-column-order";

  private CrdHints() { }
}
