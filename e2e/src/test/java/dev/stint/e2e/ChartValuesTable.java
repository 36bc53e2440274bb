package dev.stint.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The table of charts/stint/README.md: one row per value, its type and description from values.schema.json and its
 * default from values.yaml, in the schema's order. An object of the schema is a row of its own when it has a
 * description (a Kubernetes type such as podSecurityContext, shown whole), else each of its properties is. Written by
 * charts/stint/values-table.sh; {@link ChartValuesTableTest} fails while the README's table differs.
 */
final class ChartValuesTable {
  static final Path CHART = LocalCluster.ROOT.resolve("charts/stint");
  static final String BEGIN = "<!-- values table: written by values-table.sh from values.schema.json and values.yaml;"
      + " edit those, not this -->";
  static final String END = "<!-- end of values table -->";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  /** Not a value of this chart: Helm's own, passed down by a parent chart. */
  private static final List<String> HELMS = List.of("global");

  /** A row: the value's dotted path, and its node of the schema. */
  record Row(String path, JsonNode schema) {
  }

  private ChartValuesTable() {
  }

  /** The rows of the schema, in its order. */
  static List<Row> rows(JsonNode schema) {
    List<Row> rows = new ArrayList<>();
    collect("", schema.path("properties"), rows);
    return rows;
  }

  private static void collect(String prefix, JsonNode properties, List<Row> rows) {
    for (Map.Entry<String, JsonNode> property : properties.properties()) {
      String path = prefix + property.getKey();
      JsonNode node = property.getValue();
      if (prefix.isEmpty() && HELMS.contains(path)) {
        continue;
      }
      if (node.has("properties") && !node.has("description")) {
        collect(path + ".", node.path("properties"), rows);
      } else {
        rows.add(new Row(path, node));
      }
    }
  }

  /** The markdown table, between its two markers. */
  static String table(JsonNode schema, JsonNode values) throws IOException {
    StringBuilder table = new StringBuilder(BEGIN)
        .append("\n\n| value | type | default | what |\n| --- | --- | --- | --- |\n");
    for (Row row : rows(schema)) {
      JsonNode value = values.at("/" + row.path().replace('.', '/'));
      String defaultValue = value.isMissingNode() ? "" : "`" + JSON.writeValueAsString(value) + "`";
      table.append("| `").append(row.path()).append("` | ").append(cell(type(row.schema()))).append(" | ")
          .append(cell(defaultValue)).append(" | ").append(cell(row.schema().path("description").asText()))
          .append(" |\n");
    }
    return table.append('\n').append(END).toString();
  }

  /** What the schema allows, in words. */
  static String type(JsonNode node) {
    if (node.has("enum")) {
      List<String> values = new ArrayList<>();
      node.path("enum").forEach(v -> values.add(v.isTextual() ? v.asText() : v.toString()));
      return "one of " + String.join(", ", values);
    }
    if (node.path("$ref").asText().endsWith("/stringMap")) {
      return "map of strings";
    }
    List<String> types = new ArrayList<>();
    if (node.path("type").isArray()) {
      node.path("type").forEach(t -> types.add(t.asText()));
    } else {
      types.add(node.path("type").asText());
    }
    return types.stream().filter(t -> !"null".equals(t)).map(t -> "array".equals(t) ? "list" : t)
        .collect(Collectors.joining(" or "));
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
  }

  /** The README with its table replaced by {@code table}. */
  static String withTable(String readme, String table) {
    int begin = readme.indexOf(BEGIN);
    int end = readme.indexOf(END);
    if (begin < 0 || end < begin) {
      throw new IllegalStateException("charts/stint/README.md has no table between " + BEGIN + " and " + END);
    }
    return readme.substring(0, begin) + table + readme.substring(end + END.length());
  }

  /** The README as it should be. */
  static String expectedReadme() throws IOException {
    return withTable(Files.readString(CHART.resolve("README.md")), table(
        JSON.readTree(CHART.resolve("values.schema.json").toFile()), YAML.readTree(CHART.resolve("values.yaml")
            .toFile())));
  }
}
