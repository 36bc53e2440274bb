package dev.stint.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.stint.crd.ApiReference.Field;
import dev.stint.crd.ApiReference.Listing;
import dev.stint.crd.ApiReference.Origin;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/api-reference.md is what {@link ApiReference} makes of the checked-in CRDs (crds/), every field of them is
 * listed as upstream's or Stint's, and every field Stint adds has a description and its row, marked Stint, on the
 * page. With {@code -Dstint.apiReference.update=true} it writes the page instead ({@link ApiReference#REFRESH}).
 * It reads the checked-in CRDs, which each kind's CrdContractTest keeps equal to the generated ones: after changing
 * a description, refresh the CRDs first ({@code -Dstint.crds.update=true}), then the page.
 */
class ApiReferenceTest {
  private static final Path ROOT = Path.of(System.getProperty("stint.root", ".."));
  private static final Path PAGE = ROOT.resolve("docs/api-reference.md");

  private static List<CustomResourceDefinition> crds() {
    return ApiReference.crds(ROOT.resolve("crds"));
  }

  @Test
  void thePageIsWhatTheGeneratorWritesFromTheCrds() throws IOException {
    String expected = ApiReference.page(crds(), ApiReference.listings());
    if (Boolean.getBoolean(ApiReference.REFRESH_PROPERTY)) {
      Files.writeString(PAGE, expected, StandardCharsets.UTF_8);
    }
    assertThat(PAGE).withFailMessage("%s is missing; write it with: %s", PAGE, ApiReference.REFRESH).exists();
    assertThat(Files.readString(PAGE, StandardCharsets.UTF_8).equals(expected))
        .withFailMessage("%s differs from what ApiReference writes from crds/ (refresh the CRDs first if they are "
            + "stale); rewrite it with: %s", PAGE, ApiReference.REFRESH)
        .isTrue();
  }

  @Test
  void theBuiltInKindsAreOnThePage() {
    assertThat(crds()).extracting(ApiReference::kind).containsExactly("PyTorchJob", "TFJob", "MPIJob");
  }

  @Test
  void everyFieldIsListedAsUpstreamsOrStints() {
    assertThat(ApiReference.unlisted(crds(), ApiReference.listings()))
        .as("fields of crds/ that crd-tools/src/main/resources/dev/stint/crd/api-fields.txt does not list as "
            + "'upstream' (a field of the Kubeflow or MPI Operator schema) or 'stint' (a field Stint adds)")
        .isEmpty();
  }

  @Test
  void everyListedFieldIsInSomeCrd() {
    assertThat(ApiReference.staleListings(crds(), ApiReference.listings())).as("api-fields.txt").isEmpty();
  }

  @Test
  void everyFieldStintAddsHasADescriptionAndItsRowMarkedStintOnThePage() throws IOException {
    String page = Files.exists(PAGE) ? Files.readString(PAGE, StandardCharsets.UTF_8) : "";
    for (CustomResourceDefinition crd : crds()) {
      List<Field> stints = ApiReference.fields(crd, ApiReference.listings()).stream().filter(Field::stint).toList();
      assertThat(stints).as("%s: the fields Stint adds", ApiReference.kind(crd))
          .extracting(Field::path).contains("spec.runPolicy.successPolicy", "spec.runPolicy.failurePolicy",
              "spec.runPolicy.podsWaitingTimeoutSeconds", "spec.runPolicy.serviceMode", "status.outcome",
              "status.restarts", "status.suspensions", "status.quickRestarts",
              "status.replicaStatuses[*].failedIndexes");
      assertThat(stints).as("%s: fields Stint adds without a description (@JsonPropertyDescription)",
          ApiReference.kind(crd)).filteredOn(f -> f.description().isBlank()).extracting(Field::path).isEmpty();
      String section = section(page, ApiReference.kind(crd));
      assertThat(stints).as("%s: fields Stint adds without their row, marked Stint, on %s", ApiReference.kind(crd),
          PAGE).filteredOn(f -> !section.contains("\n| `" + f.path() + "` | ")
              || !section.contains("\n| `" + f.path() + "` | " + ApiReference.typeCell(f) + " | **Stint** | "))
          .extracting(Field::path).isEmpty();
    }
  }

  @Test
  void everyUpstreamFieldHasADescriptionToo() {
    // a Kubernetes type (metadata, a pod template) is described by Kubernetes: kubectl explain shows its fields
    for (CustomResourceDefinition crd : crds()) {
      assertThat(ApiReference.fields(crd, ApiReference.listings()))
          .as("%s: fields without a description", ApiReference.kind(crd))
          .filteredOn(f -> f.kubernetesType() == null && f.description().isBlank())
          .extracting(Field::path).isEmpty();
    }
  }

  @Test
  void differencesFromUpstreamNamesEveryFieldStintAddsAndLinksThePage() throws IOException {
    String differences = Files.readString(ROOT.resolve("docs/differences-from-upstream.md"), StandardCharsets.UTF_8);
    assertThat(differences).contains("(api-reference.md");
    // each field Stint adds (not those under it), by its name in a code span: `runPolicy.successPolicy`, `outcome`
    List<String> missing = ApiReference.listings().values().stream()
        .filter(l -> l.origin() == Origin.STINT)
        .map(l -> l.path().substring(l.path().lastIndexOf('.') + 1))
        .filter(name -> !differences.contains("`" + name + "`") && !differences.contains("." + name + "`"))
        .toList();
    assertThat(missing).as("fields Stint adds that docs/differences-from-upstream.md does not name").isEmpty();
  }

  /** The part of the page from the kind's heading to the next one. */
  private static String section(String page, String kind) {
    int start = page.indexOf("\n## " + kind + "\n");
    if (start < 0) {
      return "";
    }
    int end = page.indexOf("\n## ", start + 1);
    return page.substring(start, end < 0 ? page.length() : end);
  }

  // the generator on a small CRD

  private static final String SCHEMA = """
      type: object
      properties:
        metadata:
          type: object
          properties:
            name: {type: string}
        spec:
          type: object
          description: The widget.
          required: [size]
          properties:
            size:
              type: integer
              description: How big | in cm.
              minimum: 1
              maximum: 10
            mode:
              type: string
              description: <Mode> of it.
              enum: ["", Fast, Slow]
            extra:
              type: object
              description: Ours.
              properties:
                level: {type: integer, minimum: -2147483648, maximum: 2147483647}
                rank: {type: integer, minimum: 0, maximum: 2147483647}
                tags:
                  type: array
                  maxItems: 4
                  items: {type: string}
            pods:
              type: object
              description: Pods by name.
              additionalProperties:
                type: object
                properties:
                  template:
                    type: object
                    properties:
                      spec: {type: object}
                  cpu:
                    anyOf: [{type: integer}, {type: string}]
                    x-kubernetes-int-or-string: true
                    description: Its CPU.
      """;

  /** Lists every field of the widget as it should; the tests of a faulty listing change a line or two of it. */
  private static final String LISTING = """
      # a comment
      upstream metadata : ObjectMeta (meta/v1)
      upstream spec
      upstream spec.size
      upstream spec.mode
      stint spec.extra
      upstream spec.pods
      upstream spec.pods[*].template : PodTemplateSpec (core/v1)
      upstream spec.pods[*].cpu
      """;

  private static final Map<String, Listing> LISTINGS = ApiReference.parse(LISTING);

  private static CustomResourceDefinition widget() {
    return TestCrds.crd(SCHEMA);
  }

  @Test
  void fieldsComeDepthFirstAndStopAtAKubernetesType() {
    assertThat(ApiReference.fields(widget(), LISTINGS)).extracting(Field::path, Field::origin).containsExactly(
        tuple("metadata", Origin.UPSTREAM),
        tuple("spec", Origin.UPSTREAM),
        tuple("spec.size", Origin.UPSTREAM),
        tuple("spec.mode", Origin.UPSTREAM),
        tuple("spec.extra", Origin.STINT),
        tuple("spec.extra.level", Origin.STINT),
        tuple("spec.extra.rank", Origin.STINT),
        tuple("spec.extra.tags", Origin.STINT),
        tuple("spec.pods", Origin.UPSTREAM),
        tuple("spec.pods[*].template", Origin.UPSTREAM),
        tuple("spec.pods[*].cpu", Origin.UPSTREAM));
  }

  @Test
  void typesAndLimitsComeFromTheSchema() {
    Map<String, String> cells = ApiReference.fields(widget(), LISTINGS).stream()
        .collect(Collectors.toMap(Field::path, ApiReference::typeCell));
    assertThat(cells).containsEntry("metadata", "ObjectMeta (meta/v1)")
        .containsEntry("spec.size", "`integer`, required, 1 to 10")
        .containsEntry("spec.mode", "`string`, one of `\"\"`, `Fast`, `Slow`")
        .containsEntry("spec.extra.level", "`integer`, int32")
        .containsEntry("spec.extra.rank", "`integer`, int32, at least 0")
        .containsEntry("spec.extra.tags", "`[]string`, at most 4 items")
        .containsEntry("spec.pods", "`map[string]object`")
        .containsEntry("spec.pods[*].cpu", "`int-or-string`");
  }

  @Test
  void anUpstreamFieldUnderAnUpstreamOneMustBeListed() {
    Map<String, Listing> withoutCpu = ApiReference.parse(LISTING.replace("upstream spec.pods[*].cpu\n", ""));
    assertThat(ApiReference.unlisted(List.of(widget()), withoutCpu)).containsExactly("Widget spec.pods[*].cpu");
    assertThatThrownBy(() -> ApiReference.page(List.of(widget()), withoutCpu))
        .hasMessageContaining("Widget spec.pods[*].cpu");
  }

  @Test
  void aListedPathNoCrdHasOrAnUpstreamOneUnderStintsIsStale() {
    Map<String, Listing> stale = ApiReference.parse(LISTING
        .replace("stint spec.extra\n", "upstream spec.gone\nstint spec.extra\nupstream spec.extra.level\n"));
    assertThat(ApiReference.staleListings(List.of(widget()), stale)).containsExactly(
        "spec.gone: no CRD has it", "spec.extra.level: listed upstream, but it is under a field Stint adds");
  }

  @Test
  void theListIsReadStrictly() {
    assertThatThrownBy(() -> ApiReference.parse("upstream spec\nupstream spec\n")).hasMessageContaining("twice");
    assertThatThrownBy(() -> ApiReference.parse("ours spec\n")).hasMessageContaining("line 1");
    assertThat(ApiReference.parse("stint a.b : Thing (x/v1)\n").get("a.b"))
        .isEqualTo(new Listing(Origin.STINT, "a.b", "Thing (x/v1)"));
  }

  @Test
  void thePageMarksStintsFieldsAndEscapesTheCells() {
    String page = ApiReference.page(List.of(widget()), LISTINGS);
    assertThat(page).contains("## What Stint adds")
        .contains("| `spec.extra` | every kind | Ours. |")
        .contains("## Widget\n")
        .contains("| `spec.size` | `integer`, required, 1 to 10 | upstream | How big \\| in cm. |")
        .contains("| `spec.mode` | `string`, one of `\"\"`, `Fast`, `Slow` | upstream | &lt;Mode> of it. |")
        .contains("| `spec.extra.level` | `integer`, int32 | **Stint** |  |")
        .contains("| `spec.pods[*].template` | PodTemplateSpec (core/v1) | upstream |  |")
        .doesNotContain("spec.pods[*].template.spec")
        .contains(ApiReference.REFRESH)
        .endsWith(" |\n");
  }
}
