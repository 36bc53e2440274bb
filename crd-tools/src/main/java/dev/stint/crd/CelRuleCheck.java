package dev.stint.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks offline the placement rules of {@code x-kubernetes-validations} that make the API server refuse a CRD:
 *
 * <ul>
 *   <li><b>bounded iteration</b>: every list or map that a rule iterates with a macro ({@code all}, {@code exists},
 *       {@code exists_one}, {@code map}, {@code filter}) must have {@code maxItems} / {@code maxProperties}, or the
 *       estimated cost of the rule exceeds the budget. The receiver of each macro is resolved against the schema
 *       (through {@code self}, {@code oldSelf}, field selections, {@code [index]} and variables bound by earlier
 *       macros); a receiver that cannot be resolved is reported too, so every rule stays checkable.</li>
 *   <li><b>transition rules</b>: a rule that reads {@code oldSelf} must not sit below the items of a list that is not
 *       {@code x-kubernetes-list-type: map}, where old and new values cannot be correlated.</li>
 *   <li><b>field paths</b>: a rule's {@code fieldPath} must name a node the schema declares (the API server says
 *       "must be a valid path"); a root rule about {@code .metadata.name} needs the root schema to declare it, which
 *       {@link CrdFinisher} does.</li>
 * </ul>
 *
 * It is a textual check, not a CEL compiler: it does not see iteration through {@code in} or functions such as
 * {@code join}; keep such rules on bounded values by hand.
 */
public final class CelRuleCheck {

  private static final String IDENT = "[A-Za-z_][A-Za-z0-9_]*";
  private static final Pattern MACRO = Pattern.compile(
      "(" + IDENT + "(?:\\s*\\.\\s*" + IDENT + "|\\[[^\\[\\]]*\\])*)"
          + "\\s*\\.\\s*(all|exists_one|exists|map|filter)\\s*\\(\\s*(" + IDENT + ")\\s*,");
  private static final Pattern SEGMENT = Pattern.compile("\\.\\s*(" + IDENT + ")|\\[[^\\[\\]]*\\]");
  private static final Pattern OLD_SELF = Pattern.compile("\\boldSelf\\b");
  private static final Pattern FIELD_PATH_STEP = Pattern.compile("\\.(" + IDENT + ")|\\[[^\\[\\]]*\\]");

  private CelRuleCheck() { }

  /** The violations, each {@code <path>: <rule>: <problem>}; empty when every rule is placed well. */
  public static List<String> violations(JSONSchemaProps root) {
    List<String> violations = new ArrayList<>();
    check("", root, false, violations);
    return violations;
  }

  private static void check(String path, JSONSchemaProps node, boolean uncorrelatable, List<String> violations) {
    if (node == null) return;
    String where = SchemaTree.display(path);
    if (node.getXKubernetesValidations() != null) {
      for (ValidationRule rule : node.getXKubernetesValidations()) {
        checkRule(where, node, rule, uncorrelatable, violations);
      }
    }
    if (node.getProperties() != null) {
      node.getProperties().forEach((name, child) -> check(path + "." + name, child, uncorrelatable, violations));
    }
    check(path + "[*]", SchemaTree.mapValues(node), uncorrelatable, violations);
    boolean listMap = "map".equals(node.getXKubernetesListType());
    check(path + "[*]", SchemaTree.arrayItems(node), uncorrelatable || !listMap, violations);
  }

  private static void checkRule(String where, JSONSchemaProps node, ValidationRule validation, boolean uncorrelatable,
                                List<String> violations) {
    String rule = validation.getRule();
    String fieldPath = validation.getFieldPath();
    if (fieldPath != null && !fieldPath.isEmpty() && !declares(node, fieldPath)) {
      violations.add(where + ": " + rule + ": fieldPath " + fieldPath + " is not a field of the schema");
    }
    if (uncorrelatable && OLD_SELF.matcher(rule).find()) {
      violations.add(where + ": " + rule + ": oldSelf below a list that is not x-kubernetes-list-type=map");
    }
    Map<String, JSONSchemaProps> scope = new HashMap<>();
    scope.put("self", node);
    scope.put("oldSelf", node);
    Matcher macro = MACRO.matcher(rule);
    while (macro.find()) {
      String receiver = macro.group(1);
      JSONSchemaProps iterated = resolve(receiver, scope);
      if (iterated == null) {
        violations.add(where + ": " + rule + ": cannot tell from the schema what " + receiver + " iterates");
        continue;
      }
      String bound = boundProblem(iterated);
      if (bound != null) violations.add(where + ": " + rule + ": " + receiver + " " + bound);
      scope.put(macro.group(3), elementOf(iterated));
    }
  }

  /**
   * Whether a {@code fieldPath} ({@code .a.b}, {@code .a['key']}, {@code .a[0]}) names a node of the schema, as the API
   * server requires: fields through {@code properties}, keys through {@code additionalProperties}, indexes through
   * {@code items}.
   */
  static boolean declares(JSONSchemaProps node, String fieldPath) {
    Matcher step = FIELD_PATH_STEP.matcher(fieldPath);
    int at = 0;
    while (node != null && at < fieldPath.length()) {
      if (!step.find(at) || step.start() != at) return false;
      if (step.group(1) != null) {
        node = node.getProperties() == null ? null : node.getProperties().get(step.group(1));
      } else {
        node = index(node);
      }
      at = step.end();
    }
    return node != null;
  }

  /** The schema a path expression refers to, or null when it cannot be resolved. */
  static JSONSchemaProps resolve(String expression, Map<String, JSONSchemaProps> scope) {
    Matcher head = Pattern.compile("^" + IDENT).matcher(expression);
    if (!head.find()) return null;
    JSONSchemaProps node = scope.get(head.group());
    Matcher segment = SEGMENT.matcher(expression);
    int at = head.end();
    while (node != null && at < expression.length()) {
      if (!segment.find(at) || segment.start() != at) return null;
      node = segment.group(1) != null ? select(node, segment.group(1)) : index(node);
      at = segment.end();
    }
    return node;
  }

  private static JSONSchemaProps select(JSONSchemaProps node, String field) {
    if (node.getProperties() != null && node.getProperties().containsKey(field)) return node.getProperties().get(field);
    return SchemaTree.mapValues(node);
  }

  private static JSONSchemaProps index(JSONSchemaProps node) {
    JSONSchemaProps items = SchemaTree.arrayItems(node);
    return items != null ? items : SchemaTree.mapValues(node);
  }

  private static String boundProblem(JSONSchemaProps iterated) {
    if ("array".equals(iterated.getType())) {
      return iterated.getMaxItems() == null ? "is a list without maxItems" : null;
    }
    if (SchemaTree.mapValues(iterated) != null) {
      return iterated.getMaxProperties() == null ? "is a map without maxProperties" : null;
    }
    return "is neither a list nor a map";
  }

  /** What a macro variable stands for: a list's item, or a map's key (a string). */
  private static JSONSchemaProps elementOf(JSONSchemaProps iterated) {
    if ("array".equals(iterated.getType())) return SchemaTree.arrayItems(iterated);
    JSONSchemaProps key = new JSONSchemaProps();
    key.setType("string");
    return key;
  }
}
