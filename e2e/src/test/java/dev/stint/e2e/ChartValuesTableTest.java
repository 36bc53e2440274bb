package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * charts/stint/README.md's values table is what {@link ChartValuesTable} makes of values.schema.json and values.yaml,
 * and every value has a description. With {@code -Dstint.writeValuesTable=true} (charts/stint/values-table.sh) it
 * writes the table instead. No tool needed: a plain unit test.
 */
class ChartValuesTableTest {
  private static final Path README = ChartValuesTable.CHART.resolve("README.md");

  @Test
  void theReadmesTableIsMadeFromTheSchemaAndTheDefaults() throws IOException {
    String expected = ChartValuesTable.expectedReadme();
    if (Boolean.getBoolean("stint.writeValuesTable")) {
      Files.writeString(README, expected);
    }

    assertThat(Files.readString(README)).as("charts/stint/README.md (run charts/stint/values-table.sh)")
        .isEqualTo(expected);
  }

  @Test
  void everyValueIsDescribedAndEveryDefaultIsInTheSchema() throws IOException {
    JsonNode schema = new ObjectMapper().readTree(ChartValuesTable.CHART.resolve("values.schema.json").toFile());
    JsonNode values = new ObjectMapper(new YAMLFactory()).readTree(ChartValuesTable.CHART.resolve("values.yaml")
        .toFile());
    List<ChartValuesTable.Row> rows = ChartValuesTable.rows(schema);
    List<String> undescribed = rows.stream().filter(r -> r.schema().path("description").asText().isBlank())
        .map(ChartValuesTable.Row::path).toList();
    List<String> paths = rows.stream().map(ChartValuesTable.Row::path).toList();
    List<String> defaults = new ArrayList<>();
    leaves("", values, paths, defaults);

    assertThat(undescribed).as("values without a description in values.schema.json").isEmpty();
    assertThat(paths).as("rows of the table").containsAll(defaults);
  }

  /** The paths of values.yaml down to the rows of the table (or to its leaves). */
  private static void leaves(String prefix, JsonNode node, List<String> rows, List<String> out) {
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      String path = prefix + field.getKey();
      if (field.getValue().isObject() && !rows.contains(path) && !field.getValue().isEmpty()) {
        leaves(path + ".", field.getValue(), rows, out);
      } else {
        out.add(path);
      }
    }
  }
}
