package dev.stint.crd;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CelRuleCheckTest {

  private static final String REPLICAS = """
      type: object
      properties:
        specs:
          type: object
          %s
          additionalProperties:
            type: object
            properties:
              containers:
                type: array
                %s
                items: {type: object, properties: {name: {type: string}, ports: {type: array, items: {type: integer}}}}
          x-kubernetes-validations:
          - rule: "%s"
            message: m
      """;

  /** Iteration must be bounded (maxProperties, maxItems) so that the rule's cost estimate fits the budget. */
  static Stream<Arguments> rules() {
    return Stream.of(
        Arguments.of("bounded map and list", REPLICAS.formatted("maxProperties: 2", "maxItems: 8",
            "self.all(t, self[t].containers.exists(c, c.name == 'main'))"), List.of()),
        Arguments.of("no iteration at all", REPLICAS.formatted("", "", "!has(self.Master) || size(self) > 0"),
            List.of()),
        Arguments.of("unbounded map", REPLICAS.formatted("", "maxItems: 8", "self.all(t, t != '')"),
            List.of(".specs: self.all(t, t != ''): self is a map without maxProperties")),
        Arguments.of("unbounded list through a map key", REPLICAS.formatted("maxProperties: 2", "",
            "self.all(t, self[t].containers.all(c, has(c.name)))"),
            List.of(".specs: self.all(t, self[t].containers.all(c, has(c.name))): self[t].containers is a list "
                + "without maxItems")),
        Arguments.of("unbounded list through a bound variable", REPLICAS.formatted("maxProperties: 2", "maxItems: 8",
            "self.all(t, self[t].containers.all(c, c.ports.all(p, p > 0)))"),
            List.of(".specs: self.all(t, self[t].containers.all(c, c.ports.all(p, p > 0))): c.ports is a list "
                + "without maxItems")),
        Arguments.of("receiver the schema does not have", REPLICAS.formatted("maxProperties: 2", "maxItems: 8",
            "self.all(t, self[t].sidecars.all(s, true))"),
            List.of(".specs: self.all(t, self[t].sidecars.all(s, true)): cannot tell from the schema what "
                + "self[t].sidecars iterates")));
  }

  /** oldSelf only where the API server can correlate the old object with the new one. */
  static Stream<Arguments> transitionRules() {
    String items = """
        type: object
        properties:
          list:
            type: array
            maxItems: 4
            %s
            items:
              type: object
              properties: {id: {type: string}, q: {type: string}}
              x-kubernetes-validations:
              - {rule: "self.q == oldSelf.q", message: m}
        """;
    return Stream.of(
        Arguments.of("below an atomic list", items.formatted(""),
            List.of(".list[*]: self.q == oldSelf.q: oldSelf below a list that is not x-kubernetes-list-type=map")),
        Arguments.of("below a list-map", items.formatted(
            "x-kubernetes-list-type: map\n    x-kubernetes-list-map-keys: [id]"), List.of()));
  }

  /** A rule's fieldPath must name a field of the schema. */
  static Stream<Arguments> fieldPaths() {
    String schema = """
        type: object
        properties:
          %s
          spec:
            type: object
            properties:
              specs: {type: object, maxProperties: 2, additionalProperties: {type: object, properties: {n: {type: integer}}}}
        x-kubernetes-validations:
        - {rule: "true", message: m, fieldPath: "%s"}
        """;
    String metadata = "metadata: {type: object, properties: {name: {type: string}}}";
    return Stream.of(
        Arguments.of("a field", schema.formatted("", ".spec.specs"), List.of()),
        Arguments.of("through a map key", schema.formatted("", ".spec.specs['Worker'].n"), List.of()),
        Arguments.of("a field the schema lacks", schema.formatted("", ".spec.other"),
            List.of("<root>: true: fieldPath .spec.other is not a field of the schema")),
        Arguments.of("metadata.name undeclared, as the generator leaves it",
            schema.formatted("", ".metadata.name"),
            List.of("<root>: true: fieldPath .metadata.name is not a field of the schema")),
        Arguments.of("metadata.name declared", schema.formatted(metadata, ".metadata.name"), List.of()));
  }

  /** Each rule as the API server would judge it: its cost bounded, oldSelf where it correlates, fieldPath real. */
  @ParameterizedTest(name = "{0}")
  @MethodSource({"rules", "transitionRules", "fieldPaths"})
  void findsWhatTheApiServerRefuses(String name, String schema, List<String> violations) {
    assertThat(CelRuleCheck.violations(TestCrds.schema(schema))).containsExactlyElementsOf(violations);
  }
}
