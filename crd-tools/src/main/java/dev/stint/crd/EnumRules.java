package dev.stint.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a CEL rule that only lists the values a string may take, {@code self in ['a', 'b']}, into the schema's
 * {@code enum}.
 *
 * <p>Why: the API server evaluates every CEL rule of a custom resource on every write, its status writes included,
 * while an {@code enum} is a check its schema validation makes anyway, at next to no cost (measured with
 * {@code bench/apicost.sh -mode status}). The refusal then reads in the API server's own words and names the field and
 * the values: {@code spec.runPolicy.cleanPodPolicy: Unsupported value: "Sometimes": supported values: "", "None",
 * "Running", "All"}. The annotation on the model stays the one place the values are written.
 *
 * <p>Only a rule of exactly that form on a node of type string is rewritten, and only when the node has no enum of
 * its own; any other rule stays as it is.
 */
final class EnumRules {
  private static final Pattern LITERAL = Pattern.compile("'([^'\\\\]*)'");
  private static final Pattern VALUE_LIST = Pattern.compile(
      "self in \\[\\s*('[^'\\\\]*'(?:\\s*,\\s*'[^'\\\\]*')*)\\s*]");

  private EnumRules() { }

  /** Rewrites every such rule in the schema tree, in place; returns how many rules became enums. */
  static int apply(JSONSchemaProps root) {
    int[] rewritten = {0};
    SchemaTree.walk(root, (path, node, parent) -> rewritten[0] += rewrite(node));
    return rewritten[0];
  }

  private static int rewrite(JSONSchemaProps node) {
    List<ValidationRule> rules = node.getXKubernetesValidations();
    if (rules == null || !"string".equals(node.getType()) || (node.getEnum() != null && !node.getEnum().isEmpty())) {
      return 0;
    }
    List<ValidationRule> kept = new ArrayList<>();
    List<String> values = null;
    for (ValidationRule rule : rules) {
      List<String> listed = values == null ? valuesListed(rule.getRule()) : null;
      if (listed != null) {
        values = listed;
      } else {
        kept.add(rule);
      }
    }
    if (values == null) {
      return 0;
    }
    node.setEnum(values.stream().<JsonNode>map(TextNode::valueOf).toList());
    node.setXKubernetesValidations(kept.isEmpty() ? null : kept);
    return 1;
  }

  /** The values of a rule {@code self in ['a', 'b']}, in its order; null for any other rule. */
  static List<String> valuesListed(String rule) {
    Matcher list = VALUE_LIST.matcher(rule == null ? "" : rule.strip());
    if (!list.matches()) {
      return null;
    }
    List<String> values = new ArrayList<>();
    Matcher literal = LITERAL.matcher(list.group(1));
    while (literal.find()) {
      values.add(literal.group(1));
    }
    return values;
  }
}
