package dev.stint.spi.api;

/**
 * Hints a kind puts on its custom resource class, with fabric8's {@code @Annotations}, for what the CRD generator
 * cannot express. The build step of {@code stint-crd-tools} ({@code dev.stint.crd.CrdFinisher}) reads them from the
 * generated CRD, applies them and removes them; they never reach the cluster.
 *
 * <pre>{@code
 * @Annotations({CrdHints.PRINTER_COLUMN_ORDER + "=State,Outcome,Age",
 *     CrdHints.SCALE_SPEC_REPLICAS_PATH + "=.spec.jaxReplicaSpecs.Worker.replicas",
 *     CrdHints.SCALE_STATUS_REPLICAS_PATH + "=.status.replicaStatuses.Worker.active"})
 * }</pre>
 */
public final class CrdHints {
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
