package dev.stint.crd;

import dev.stint.spi.api.CrdHints;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Orders the printer columns of every version as the {@link CrdHints#PRINTER_COLUMN_ORDER} hint says, and removes
 * the hint. fabric8's generator sorts columns by JSON path, which would show Kubeflow's {@code NAME STATE AGE} as
 * {@code NAME AGE STATE}.
 */
final class PrinterColumnOrder {

  private PrinterColumnOrder() { }

  static void apply(CustomResourceDefinition crd) {
    String hint = HintAnnotations.take(crd, CrdHints.PRINTER_COLUMN_ORDER).get(CrdHints.PRINTER_COLUMN_ORDER);
    if (hint == null) return;
    List<String> order = Arrays.stream(hint.split(",")).map(String::trim).toList();
    // names not in the hint rank after all listed ones; the sort is stable, so they keep the generator's order
    Comparator<CustomResourceColumnDefinition> byHint = Comparator.comparingInt(column -> {
      int rank = order.indexOf(column.getName());
      return rank < 0 ? order.size() : rank;
    });
    for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
      if (version.getAdditionalPrinterColumns() == null) continue;
      List<CustomResourceColumnDefinition> columns = new ArrayList<>(version.getAdditionalPrinterColumns());
      columns.sort(byHint);
      version.setAdditionalPrinterColumns(columns);
    }
  }
}
