package dev.stint.testkit;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The validation of a CRD's first version evaluated offline, on create, the way the API server does it for what the
 * tables of the CRD tests need: every {@code x-kubernetes-validations} rule that does not read {@code oldSelf} (with
 * Google's CEL for Java, standard macros and functions: the rules use nothing else), plus {@code minimum},
 * {@code maximum}, {@code minProperties}, {@code maxProperties}, {@code minItems}, {@code maxItems} and {@code enum}.
 * A broken rule is reported by its message (which names its field), a broken bound or enum as the API server words it,
 * with the field path ({@code spec.pytorchReplicaSpecs.Worker.replicas}).
 *
 * <p>It is a fast check of the rules' logic in a unit test; whether the API server accepts the CRD and enforces the
 * same is what the integration tests on a real API server prove.
 */
public final class CrdRules {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final CelCompiler COMPILER = CelCompilerFactory.standardCelCompilerBuilder()
      .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
      .addVar("self", SimpleType.DYN)
      .build();
  private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder().build();

  private final JSONSchemaProps root;
  private final Map<String, CelRuntime.Program> programs = new HashMap<>();

  private CrdRules(JSONSchemaProps root) {
    this.root = root;
  }

  /** The rules of the first version of a CRD given as YAML. */
  public static CrdRules of(String crdYaml) {
    CustomResourceDefinition crd = SERIALIZATION.unmarshal(crdYaml, CustomResourceDefinition.class);
    return new CrdRules(crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema());
  }

  /** The errors creating this object (YAML or JSON) would meet; empty when it would be accepted. */
  public List<String> errors(String manifest) {
    Object object = longs(SERIALIZATION.unmarshal(manifest, Map.class));
    List<String> errors = new ArrayList<>();
    validate("", root, object, errors);
    return errors;
  }

  private void validate(String path, JSONSchemaProps schema, Object value, List<String> errors) {
    if (schema == null || value == null) return;
    if (value instanceof Long number) {
      if (schema.getMaximum() != null && number > schema.getMaximum()) {
        errors.add(path + ": should be less than or equal to " + schema.getMaximum().longValue());
      }
      if (schema.getMinimum() != null && number < schema.getMinimum()) {
        errors.add(path + ": should be greater than or equal to " + schema.getMinimum().longValue());
      }
    }
    if (value instanceof String text && schema.getEnum() != null && !schema.getEnum().isEmpty()
        && schema.getEnum().stream().noneMatch(allowed -> text.equals(allowed.asText()))) {
      errors.add(path + ": Unsupported value: \"" + text + "\": supported values: " + String.join(", ",
          schema.getEnum().stream().map(allowed -> "\"" + allowed.asText() + "\"").toList()));
    }
    if (value instanceof Map<?, ?> map) {
      if (schema.getMaxProperties() != null && map.size() > schema.getMaxProperties()) {
        errors.add(path + ": must have at most " + schema.getMaxProperties() + " items");
      }
      if (schema.getMinProperties() != null && map.size() < schema.getMinProperties()) {
        errors.add(path + ": must have at least " + schema.getMinProperties() + " items");
      }
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        String key = String.valueOf(entry.getKey());
        if (schema.getProperties() != null && schema.getProperties().containsKey(key)) {
          validate(child(path, key), schema.getProperties().get(key), entry.getValue(), errors);
        } else if (schema.getAdditionalProperties() != null) {
          validate(child(path, key), schema.getAdditionalProperties().getSchema(), entry.getValue(), errors);
        }
      }
    }
    if (value instanceof List<?> list) {
      if (schema.getMinItems() != null && list.size() < schema.getMinItems()) {
        errors.add(path + ": should have at least " + schema.getMinItems() + " items");
      }
      if (schema.getMaxItems() != null && list.size() > schema.getMaxItems()) {
        errors.add(path + ": must have at most " + schema.getMaxItems() + " items");
      }
    }
    if (value instanceof List<?> list && schema.getItems() != null) {
      for (int i = 0; i < list.size(); i++) {
        validate(path + "[" + i + "]", schema.getItems().getSchema(), list.get(i), errors);
      }
    }
    if (schema.getXKubernetesValidations() != null) {
      for (ValidationRule rule : schema.getXKubernetesValidations()) {
        if (rule.getRule().contains("oldSelf")) continue;
        try {
          Object result = program(rule.getRule()).eval(Map.of("self", value));
          if (!Boolean.TRUE.equals(result)) errors.add(rule.getMessage());
        } catch (CelEvaluationException e) {
          errors.add((path.isEmpty() ? "<root>" : path) + ": " + rule.getRule() + ": evaluation failed: "
              + e.getMessage());
        }
      }
    }
  }

  private CelRuntime.Program program(String rule) {
    return programs.computeIfAbsent(rule, r -> {
      try {
        CelAbstractSyntaxTree ast = COMPILER.compile(r).getAst();
        return RUNTIME.createProgram(ast);
      } catch (CelValidationException | CelEvaluationException e) {
        throw new IllegalArgumentException("CEL rule does not compile: " + r + "\n" + e.getMessage(), e);
      }
    });
  }

  private static String child(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  /** JSON numbers as CEL sees integers: Long, in maps and lists all the way down. */
  private static Object longs(Object value) {
    if (value instanceof Integer i) return i.longValue();
    if (value instanceof Short s) return s.longValue();
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> copy = new LinkedHashMap<>();
      map.forEach((k, v) -> copy.put(String.valueOf(k), longs(v)));
      return copy;
    }
    if (value instanceof List<?> list) {
      return list.stream().map(CrdRules::longs).toList();
    }
    return value;
  }
}
