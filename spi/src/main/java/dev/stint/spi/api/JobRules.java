package dev.stint.spi.api;

/**
 * CEL rules every kind's CRD carries, written once. They say what Kubeflow's webhooks checked; messages name the
 * field. The root and {@code spec} rules (the name, {@code managedBy}, the success rules) are what the CRD finisher
 * adds for {@link CrdHints#REPLICA_SPECS}; a kind that gives that hint does not write them again. The rules over the
 * replica-spec map ({@code self} is the map) are for the kind's own {@code @ValidationRule} annotations on that field,
 * the messages prefixed with its field: {@code "spec.jaxReplicaSpecs" + JobRules.NEEDS_CONTAINERS}.
 */
public final class JobRules {
  /** Root: the name is a DNS-1035 label, since pod and service names are made from it. */
  public static final String NAME_IS_DNS_LABEL = "self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')";
  public static final String NAME_IS_DNS_LABEL_MESSAGE = "metadata.name: must be a DNS-1035 label (lower case "
      + "letters, digits and '-', starting with a letter and ending with a letter or digit)";
  /** Root: the name is a DNS label's length at most. */
  public static final String NAME_FITS = "size(self.metadata.name) <= " + ReplicaLimits.MAX_NAME;
  public static final String NAME_FITS_MESSAGE = "metadata.name: must be no more than " + ReplicaLimits.MAX_NAME
      + " characters";

  /**
   * Root: {@code runPolicy.managedBy} is not added to a job that had none, nor dropped from one that had it, also when
   * the whole {@code runPolicy} comes or goes (its own rules cover a change while it exists), as upstream's webhook.
   */
  public static final String MANAGED_BY_NOT_ADDED = "!has(self.spec) || !has(self.spec.runPolicy) "
      + "|| !has(self.spec.runPolicy.managedBy) || (has(oldSelf.spec) && has(oldSelf.spec.runPolicy) "
      + "&& has(oldSelf.spec.runPolicy.managedBy))";
  public static final String MANAGED_BY_NOT_DROPPED = "!has(oldSelf.spec) || !has(oldSelf.spec.runPolicy) "
      + "|| !has(oldSelf.spec.runPolicy.managedBy) || (has(self.spec) && has(self.spec.runPolicy) "
      + "&& has(self.spec.runPolicy.managedBy))";
  public static final String MANAGED_BY_IMMUTABLE = "spec.runPolicy.managedBy is immutable";
  public static final String MANAGED_BY_FIELD = ".spec.runPolicy.managedBy";

  /**
   * Root: {@code runPolicy.serviceMode} keeps its value (unset counts as {@code PerReplica}), also when
   * {@code runPolicy} itself is added or removed, which a rule on {@code runPolicy} never sees.
   */
  public static final String SERVICE_MODE_KEPT = "(has(self.spec) && has(self.spec.runPolicy) "
      + "&& has(self.spec.runPolicy.serviceMode) ? self.spec.runPolicy.serviceMode : 'PerReplica') == "
      + "(has(oldSelf.spec) && has(oldSelf.spec.runPolicy) && has(oldSelf.spec.runPolicy.serviceMode) "
      + "? oldSelf.spec.runPolicy.serviceMode : 'PerReplica')";
  public static final String SERVICE_MODE_IMMUTABLE = "spec.runPolicy.serviceMode is immutable: its pods' addresses "
      + "would change under them; create a new job";
  public static final String SERVICE_MODE_FIELD = ".spec.runPolicy.serviceMode";

  /**
   * Spec: no success rules, or the rules, to be followed by {@code .all(r, ...)} (rules that keep
   * {@code runPolicy.successPolicy} to the kind's replica types and counts).
   */
  public static final String SUCCESS_RULES = "!has(self.runPolicy) || !has(self.runPolicy.successPolicy)"
      + " || self.runPolicy.successPolicy.rules";

  /**
   * Spec: no failure rules, or the rules, to be followed by {@code .all(r, ...)} (rules that keep the targets of
   * {@code runPolicy.failurePolicy} to the kind's replica types).
   */
  public static final String FAILURE_RULES = "!has(self.runPolicy) || !has(self.runPolicy.failurePolicy)"
      + " || !has(self.runPolicy.failurePolicy.rules) || self.runPolicy.failurePolicy.rules";

  /** Inside {@code self.all(t, ...)} over the replica-spec map: type {@code t} has a template with containers. */
  public static final String HAS_CONTAINERS = "has(self[t].template) && has(self[t].template.spec)"
      + " && has(self[t].template.spec.containers)";
  /**
   * Replica-spec map: every type has at least one container. The CRD finisher replaces this rule, and
   * {@link #EVERY_CONTAINER_HAS_IMAGE}, with native schema checks (a CEL rule that reads the pod spec through the map
   * is costly, and the API server evaluates it on every status write), and moves a rule written
   * {@code self.all(t, !(HAS_CONTAINERS) || self[t].template.spec.containers<rest>)} to the containers list.
   */
  public static final String EVERY_TYPE_HAS_CONTAINERS = "self.all(t, " + HAS_CONTAINERS
      + " && size(self[t].template.spec.containers) > 0)";
  public static final String NEEDS_CONTAINERS = ": every replica type needs template.spec.containers with at least "
      + "one container";
  /** Replica-spec map: every container has an image. */
  public static final String EVERY_CONTAINER_HAS_IMAGE = "self.all(t, !(" + HAS_CONTAINERS
      + ") || self[t].template.spec.containers.all(c, has(c.image) && c.image != ''))";
  public static final String NEEDS_IMAGES = ": every container in template.spec.containers needs a non-empty image";

  private JobRules() { }
}
