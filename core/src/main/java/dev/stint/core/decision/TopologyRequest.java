package dev.stint.core.decision;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a replica template asks of Kueue's Topology-Aware Scheduling through Kueue's podset annotations, read as
 * Kueue v0.17.0 reads them for its own integrations ({@code jobframework.NewPodSetTopologyRequest(...).Build()},
 * checked as its webhooks check them, {@code jobframework.ValidateTASPodSetRequest} and
 * {@code ValidatePodSetGroupingTopology}). The first of required, preferred and unconstrained wins; a slice needs
 * its size; a group counts only with required or preferred. Pure: the Workload's {@code topologyRequest}
 * ({@link #toWorkloadField}) and the validation of a queued job both come from here, so plugin kinds get it with no
 * code of their own.
 *
 * @param unconstrained null when the annotation is absent
 * @param sliceSize null unless both slice annotations are present
 */
public record TopologyRequest(String required, String preferred, Boolean unconstrained, String sliceRequired,
                              Integer sliceSize, String groupName) {

  static final String PREFIX = "kueue.x-k8s.io/";
  public static final String REQUIRED = PREFIX + "podset-required-topology";
  public static final String PREFERRED = PREFIX + "podset-preferred-topology";
  public static final String UNCONSTRAINED = PREFIX + "podset-unconstrained-topology";
  public static final String SLICE_REQUIRED = PREFIX + "podset-slice-required-topology";
  public static final String SLICE_SIZE = PREFIX + "podset-slice-size";
  public static final String SLICE_CONSTRAINTS = PREFIX + "podset-slice-required-topology-constraints";
  public static final String GROUP_NAME = PREFIX + "podset-group-name";
  /** The pod label Kueue's ungater orders ranks by; Kueue's Kubeflow and MPI integrations name this one. */
  public static final String POD_INDEX_LABEL = "training.kubeflow.org/replica-index";

  // a label key: an optional DNS-subdomain prefix and a name of at most 63 characters
  private static final Pattern NAME = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)");
  private static final Pattern PREFIX_PART = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  /** A template's request; the empty request when it has no annotation of Kueue's ({@link #none()}). */
  public static TopologyRequest of(Map<String, String> annotations) {
    Map<String, String> a = annotations == null ? Map.of() : annotations;
    boolean required = a.containsKey(REQUIRED);
    boolean preferred = !required && a.containsKey(PREFERRED);
    boolean unconstrained = !required && !preferred && a.containsKey(UNCONSTRAINED);
    Integer size = a.containsKey(SLICE_REQUIRED) ? integer(a.get(SLICE_SIZE)) : null;
    return new TopologyRequest(required ? a.get(REQUIRED) : null, preferred ? a.get(PREFERRED) : null,
        unconstrained ? bool(a.get(UNCONSTRAINED)) : null,
        size == null ? null : a.get(SLICE_REQUIRED), size,
        (required || preferred) ? a.get(GROUP_NAME) : null);
  }

  public boolean none() {
    return required == null && preferred == null && unconstrained == null && sliceRequired == null;
  }

  /** Whether the podSet names its own placement (else an admission by topology places it as unconstrained). */
  public boolean explicit() {
    return required != null || preferred != null || unconstrained != null;
  }

  /**
   * The Workload's {@code podSets[].topologyRequest}, in Kueue's field order. Kueue's own integrations set the pod
   * index label whether or not a template asks for anything, so that an admission by topology (which a ClusterQueue
   * of topology flavors gives every Workload) can place pods by rank; so does Stint.
   */
  public Map<String, Object> toWorkloadField() {
    Map<String, Object> field = new LinkedHashMap<>();
    putIfSet(field, "required", required);
    putIfSet(field, "preferred", preferred);
    putIfSet(field, "unconstrained", unconstrained);
    field.put("podIndexLabel", POD_INDEX_LABEL);
    putIfSet(field, "podSetGroupName", groupName);
    putIfSet(field, "podSetSliceRequiredTopology", sliceRequired);
    putIfSet(field, "podSetSliceSize", sliceSize);
    return field;
  }

  private static void putIfSet(Map<String, Object> field, String key, Object value) {
    if (value != null) {
      field.put(key, value);
    }
  }

  /**
   * What Kueue's webhook would refuse in one template's annotations, each message naming the annotation.
   *
   * @param field the path of the annotations, e.g. {@code spec.pytorchReplicaSpecs.Worker.template.metadata.annotations}
   */
  public static List<String> errors(String field, Map<String, String> annotations) {
    List<String> errors = new ArrayList<>();
    if (annotations == null) {
      return errors;
    }
    long levels = List.of(REQUIRED, PREFERRED, UNCONSTRAINED).stream().filter(annotations::containsKey).count();
    if (levels > 1) {
      errors.add(field + ": must not hold more than one of " + REQUIRED + ", " + PREFERRED + ", " + UNCONSTRAINED);
    }
    for (String key : List.of(REQUIRED, PREFERRED, SLICE_REQUIRED)) {
      if (annotations.containsKey(key) && !labelKey(annotations.get(key))) {
        errors.add(at(field, key) + ": must be a node label key, not \"" + annotations.get(key) + "\"");
      }
    }
    String unconstrained = annotations.get(UNCONSTRAINED);
    if (unconstrained != null && bool(unconstrained) == null) {
      errors.add(at(field, UNCONSTRAINED) + ": must be a boolean value, not \"" + unconstrained + "\"");
    }
    sliceErrors(field, annotations, errors);
    if (annotations.containsKey(GROUP_NAME)) {
      groupErrors(field, annotations, errors);
    }
    return errors;
  }

  private static void sliceErrors(String field, Map<String, String> annotations, List<String> errors) {
    boolean slice = annotations.containsKey(SLICE_REQUIRED);
    String size = annotations.get(SLICE_SIZE);
    if (size != null) {
      Integer value = integer(size);
      if (value == null || value < 1) {
        errors.add(at(field, SLICE_SIZE) + ": must be a number of 1 or more, not \"" + size + "\"");
      }
      if (!slice) {
        errors.add(at(field, SLICE_SIZE) + ": may not be set without " + SLICE_REQUIRED);
      }
    } else if (slice) {
      errors.add(at(field, SLICE_SIZE) + ": must be set with " + SLICE_REQUIRED);
    }
    if (annotations.containsKey(SLICE_CONSTRAINTS)) {
      errors.add(at(field, SLICE_CONSTRAINTS) + ": Kueue's multi-layer slices (alpha, off by default) are not "
          + "read by Stint; use " + SLICE_REQUIRED + " with " + SLICE_SIZE);
    }
  }

  private static void groupErrors(String field, Map<String, String> annotations, List<String> errors) {
    String key = at(field, GROUP_NAME);
    if (annotations.get(GROUP_NAME).matches("\\d+")) {
      errors.add(key + ": must not be a number");
    }
    if (annotations.containsKey(SLICE_SIZE) || annotations.containsKey(SLICE_REQUIRED)) {
      errors.add(key + ": may not be set with " + SLICE_REQUIRED + " or " + SLICE_SIZE);
    }
    if (!annotations.containsKey(REQUIRED) && !annotations.containsKey(PREFERRED)) {
      errors.add(key + ": may not be set without " + REQUIRED + " or " + PREFERRED);
    }
  }

  /**
   * What Kueue refuses in the groups of a job's podSets: a group is exactly two podSets, one of them of one pod,
   * both required or both preferred at the same level.
   *
   * @param requests each replica type's request, in the kind's order
   * @param counts each replica type's pods
   * @param fieldOf the annotations' path of a replica type
   */
  public static List<String> groupErrors(Map<String, TopologyRequest> requests, Map<String, Integer> counts,
                                         java.util.function.Function<String, String> fieldOf) {
    Map<String, List<String>> groups = new LinkedHashMap<>();
    requests.forEach((type, r) -> {
      if (r.groupName() != null) {
        groups.computeIfAbsent(r.groupName(), g -> new ArrayList<>()).add(type);
      }
    });
    List<String> errors = new ArrayList<>();
    groups.forEach((group, types) -> {
      String where = String.join(" and ", types.stream().map(t -> at(fieldOf.apply(t), GROUP_NAME)).toList());
      if (types.size() != 2) {
        errors.add(where + ": group " + group + " must hold exactly 2 replica types, not " + types.size());
        return;
      }
      TopologyRequest first = requests.get(types.get(0));
      TopologyRequest second = requests.get(types.get(1));
      if (counts.getOrDefault(types.get(0), 0) != 1 && counts.getOrDefault(types.get(1), 0) != 1) {
        errors.add(where + ": in group " + group + " one replica type must have exactly 1 replica");
      }
      if (!java.util.Objects.equals(first.required(), second.required())
          || !java.util.Objects.equals(first.preferred(), second.preferred())) {
        errors.add(where + ": group " + group + " must ask for the same required or preferred topology");
      }
    });
    return errors;
  }

  private static String at(String field, String key) {
    return field + "[" + key + "]";
  }

  private static boolean labelKey(String value) {
    if (value == null || value.isEmpty() || value.length() > 317) {
      return false;
    }
    int slash = value.indexOf('/');
    String name = slash < 0 ? value : value.substring(slash + 1);
    String prefix = slash < 0 ? null : value.substring(0, slash);
    return NAME.matcher(name).matches() && name.length() <= 63
        && (prefix == null || prefix.length() <= 253 && PREFIX_PART.matcher(prefix).matches());
  }

  /** Go's {@code strconv.ParseBool}, which Kueue parses the annotation with; null when it is not a boolean. */
  private static Boolean bool(String value) {
    return switch (value == null ? "" : value) {
      case "1", "t", "T", "TRUE", "true", "True" -> Boolean.TRUE;
      case "0", "f", "F", "FALSE", "false", "False" -> Boolean.FALSE;
      default -> null;
    };
  }

  private static Integer integer(String value) {
    try {
      return value == null ? null : Integer.valueOf(value);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
