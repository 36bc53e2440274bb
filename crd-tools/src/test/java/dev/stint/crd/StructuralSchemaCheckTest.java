package dev.stint.crd;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StructuralSchemaCheckTest {

  static Stream<Arguments> schemas() {
    return Stream.of(
        Arguments.of("typed object", "{type: object, properties: {a: {type: string}}}", List.of()),
        Arguments.of("int-or-string",
            "{type: object, properties: {q: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}}}",
            List.of()),
        Arguments.of("preserved unknown fields",
            "{type: object, properties: {raw: {x-kubernetes-preserve-unknown-fields: true}}}", List.of()),
        Arguments.of("untyped field", "{type: object, properties: {a: {description: x}}}",
            List.of(".a: type is missing")),
        Arguments.of("untyped root", "{properties: {a: {type: string}}}", List.of("<root>: type is missing")),
        Arguments.of("properties and additionalProperties",
            "{type: object, properties: {a: {type: string}}, additionalProperties: {type: string}}",
            List.of("<root>: properties and additionalProperties are both set")),
        Arguments.of("array without items", "{type: object, properties: {l: {type: array}}}",
            List.of(".l: array without a single items schema")),
        Arguments.of("untyped map value", "{type: object, additionalProperties: {description: x}}",
            List.of("<root>[*]: type is missing")),
        Arguments.of("type inside a junctor",
            "{type: object, properties: {a: {type: string, anyOf: [{type: string}, {type: integer}]}}}",
            List.of(".a|anyOf[0]: type inside a junctor", ".a|anyOf[1]: type inside a junctor")),
        Arguments.of("description inside a junctor", "{type: object, oneOf: [{required: [a], description: x}]}",
            List.of("<root>|oneOf[0]: description inside a junctor")),
        Arguments.of("unique items", "{type: object, properties: {l: {type: array, uniqueItems: true, items: {type: string}}}}",
            List.of(".l: uniqueItems is not allowed")),
        Arguments.of("root metadata restricted beyond name",
            "{type: object, properties: {metadata: {type: object, properties: {labels: {type: object}}}}}",
            List.of(".metadata.labels: only name and generateName may be restricted in the root metadata")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("schemas")
  void findsWhatTheApiServerRefuses(String name, String schema, List<String> violations) {
    assertThat(StructuralSchemaCheck.violations(TestCrds.schema(schema))).containsExactlyElementsOf(violations);
  }
}
