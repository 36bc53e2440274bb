package dev.stint.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Writes {@code docs/api-reference.md}: every field of the built-in kinds' CRDs ({@code crds/}), with its type and
 * limits, its description (what {@code kubectl explain} shows) and whether Stint adds it to the upstream schema. Where
 * a field comes from is not in the CRD: the checked-in list {@code api-fields.txt} beside this class says it, and a
 * field that list does not name stops the page from being written ({@link #unlisted}). Fields under a field Stint
 * adds are Stint's; an upstream field is listed path by path, so that a field Stint adds under an upstream one (as
 * {@code spec.runPolicy.podsWaitingTimeoutSeconds}) cannot pass for upstream's.
 *
 * <p>{@code ApiReferenceTest} (this module) fails while the page differs from {@link #page}, and writes it with
 * {@value #REFRESH_PROPERTY}{@code =true}: see {@link #REFRESH}.
 */
public final class ApiReference {

  /** The system property that makes {@code ApiReferenceTest} write the page instead of comparing it. */
  public static final String REFRESH_PROPERTY = "stint.apiReference.update";

  /** The command that rewrites the page from the checked-in CRDs, for messages and the page's own header. */
  public static final String REFRESH = "mvn -B -pl crd-tools -am test -Dtest=ApiReferenceTest "
      + "-Dsurefire.failIfNoSpecifiedTests=false -D" + REFRESH_PROPERTY + "=true";

  /** The list of where each field comes from, a resource beside this class. */
  public static final String LISTING_RESOURCE = "api-fields.txt";

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private ApiReference() { }

  /** Where a field comes from. */
  public enum Origin {
    /** The upstream schema: the Kubeflow training operator v1.9, or the MPI Operator v2beta1 for MPIJob. */
    UPSTREAM,
    /** Stint adds it. */
    STINT
  }

  /**
   * One line of {@code api-fields.txt}.
   *
   * @param kubernetesType for a field of a Kubernetes type shown as one row, that type ({@code PodTemplateSpec
   *     (core/v1)}); null for a field shown field by field
   */
  public record Listing(Origin origin, String path, String kubernetesType) { }

  /**
   * One field of a kind's CRD.
   *
   * @param path from the object's root, {@code [*]} for every item of a list or value of a map
   * @param required whether its parent requires it
   * @param origin where it comes from; null when the list names it nowhere
   * @param kubernetesType the Kubernetes type it is shown as, or null
   */
  public record Field(String path, JSONSchemaProps schema, boolean required, Origin origin, String kubernetesType) {

    /** Whether Stint adds this field (or a field it is under). */
    public boolean stint() {
      return origin == Origin.STINT;
    }

    /** The schema's description, or empty. */
    public String description() {
      return schema.getDescription() == null ? "" : schema.getDescription().strip();
    }
  }

  /** The list {@code api-fields.txt}, by path, in its order. */
  public static Map<String, Listing> listings() {
    try (InputStream in = ApiReference.class.getResourceAsStream(LISTING_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(LISTING_RESOURCE + " is missing beside " + ApiReference.class.getName());
      }
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads a list: one field a line, {@code upstream <path>} or {@code stint <path>}, then {@code : <Kubernetes type>}
   * for a field shown as that type; {@code #} starts a comment.
   */
  public static Map<String, Listing> parse(String text) {
    Map<String, Listing> out = new LinkedHashMap<>();
    int number = 0;
    for (String raw : text.split("\n", -1)) {
      number++;
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] typed = line.split(" : ", 2);
      String[] words = typed[0].strip().split("\\s+");
      if (words.length != 2 || !(words[0].equals("upstream") || words[0].equals("stint"))) {
        throw new IllegalArgumentException(LISTING_RESOURCE + " line " + number + ": expected 'upstream <path>' or "
            + "'stint <path>', optionally followed by ' : <Kubernetes type>': " + raw);
      }
      Origin origin = words[0].equals("stint") ? Origin.STINT : Origin.UPSTREAM;
      String type = typed.length == 2 ? typed[1].strip() : null;
      if (out.put(words[1], new Listing(origin, words[1], type)) != null) {
        throw new IllegalArgumentException(LISTING_RESOURCE + " line " + number + ": " + words[1] + " is listed twice");
      }
    }
    return out;
  }

  /** The CRDs of a directory ({@code crds/}): every {@code *.yml}, in the page's order (version, then kind). */
  public static List<CustomResourceDefinition> crds(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      List<CustomResourceDefinition> out = new ArrayList<>();
      for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".yml")).sorted().toList()) {
        try (InputStream in = Files.newInputStream(file)) {
          out.add(SERIALIZATION.unmarshal(in, CustomResourceDefinition.class));
        }
      }
      out.sort(Comparator.comparing((CustomResourceDefinition c) -> version(c).getName())
          .thenComparing(ApiReference::kind));
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every field of a CRD's one version, depth first in the schema's order; a Kubernetes type's fields left out. */
  public static List<Field> fields(CustomResourceDefinition crd, Map<String, Listing> listings) {
    List<Field> out = new ArrayList<>();
    children("", version(crd).getSchema().getOpenAPIV3Schema(), false, listings, out);
    return out;
  }

  private static void children(String path, JSONSchemaProps node, boolean underStint, Map<String, Listing> listings,
                               List<Field> out) {
    if (node.getProperties() != null) {
      List<String> required = node.getRequired() == null ? List.of() : node.getRequired();
      for (Map.Entry<String, JSONSchemaProps> e : node.getProperties().entrySet()) {
        String child = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
        Listing listing = listings.get(child);
        Origin origin = underStint ? Origin.STINT : listing == null ? null : listing.origin();
        String type = listing == null ? null : listing.kubernetesType();
        out.add(new Field(child, e.getValue(), required.contains(e.getKey()), origin, type));
        if (type == null) {
          children(child, e.getValue(), origin == Origin.STINT, listings, out);
        }
      }
    }
    JSONSchemaProps values = SchemaTree.mapValues(node);
    if (values != null) {
      children(path + "[*]", values, underStint, listings, out);
    }
    JSONSchemaProps items = SchemaTree.arrayItems(node);
    if (items != null) {
      children(path + "[*]", items, underStint, listings, out);
    }
  }

  /** {@code <Kind> <path>} of every field the list names nowhere: the page cannot say where it comes from. */
  public static List<String> unlisted(List<CustomResourceDefinition> crds, Map<String, Listing> listings) {
    List<String> out = new ArrayList<>();
    for (CustomResourceDefinition crd : crds) {
      fields(crd, listings).stream().filter(f -> f.origin() == null).forEach(f -> out.add(kind(crd) + " " + f.path()));
    }
    return out;
  }

  /**
   * What is wrong with the list itself: a path no CRD has (a field removed or renamed), and an upstream path under a
   * field Stint adds (which makes it Stint's).
   */
  public static List<String> staleListings(List<CustomResourceDefinition> crds, Map<String, Listing> listings) {
    Map<String, Field> seen = new LinkedHashMap<>();
    for (CustomResourceDefinition crd : crds) {
      fields(crd, listings).forEach(f -> seen.putIfAbsent(f.path(), f));
    }
    List<String> out = new ArrayList<>();
    for (Listing listing : listings.values()) {
      Field field = seen.get(listing.path());
      if (field == null) {
        out.add(listing.path() + ": no CRD has it");
      } else if (listing.origin() == Origin.UPSTREAM && field.stint()) {
        out.add(listing.path() + ": listed upstream, but it is under a field Stint adds");
      }
    }
    return out;
  }

  /** The page. */
  public static String page(List<CustomResourceDefinition> crds, Map<String, Listing> listings) {
    List<String> unlisted = unlisted(crds, listings);
    if (!unlisted.isEmpty()) {
      throw new IllegalArgumentException("fields that " + LISTING_RESOURCE + " does not say are upstream's or "
          + "Stint's: " + String.join(", ", unlisted));
    }
    StringBuilder page = new StringBuilder();
    page.append("# API reference\n\n");
    page.append("<!-- Generated from crds/*.yml by dev.stint.crd.ApiReference, which marks the fields that "
        + "crd-tools/src/main/resources/dev/stint/crd/" + LISTING_RESOURCE + " lists as Stint's. Do not edit: "
        + "ApiReferenceTest fails while this page differs. Refresh it with\n     " + REFRESH + " -->\n\n");
    page.append("""
        Every field of the kinds Stint serves, as its CRDs in [crds/](../crds) declare them: the type, the limits \
        the API server enforces, and the description that `kubectl explain` shows. Stint serves the upstream \
        schemas (the Kubeflow training operator v1.9's for PyTorchJob and TFJob, the MPI Operator's v2beta1 for \
        MPIJob) and only adds optional fields: the column *from* marks those as **Stint** (every field under one of \
        them is Stint's too). What Stint does differently with upstream's own fields, and the conditions it adds \
        (`PartiallySucceeded`, `PodsWaiting`, `ReplicaFailure`), are in \
        [differences-from-upstream.md](differences-from-upstream.md).

        A path starts at the object's root; `[*]` stands for every item of a list or every value of a map (in a \
        map of replica types, each type: `spec.pytorchReplicaSpecs[*].replicas` is \
        `spec.pytorchReplicaSpecs.Worker.replicas` for the Workers). A field of a Kubernetes type, such as a pod \
        template, is one row naming the type; `kubectl explain` shows its fields.

        """);
    page.append(crds.stream().map(c -> "[" + kind(c) + "](#" + kind(c).toLowerCase(Locale.ROOT) + ")")
        .collect(Collectors.joining(" · ", "", "\n\n")));
    appendAdditions(page, crds, listings);
    for (CustomResourceDefinition crd : crds) {
      appendKind(page, crd, listings);
    }
    return page.toString().stripTrailing() + "\n";
  }

  private static void appendAdditions(StringBuilder page, List<CustomResourceDefinition> crds,
                                      Map<String, Listing> listings) {
    page.append("## What Stint adds\n\n");
    page.append("The fields Stint adds to the upstream schemas, with the fields under them; each kind's table below "
        + "has every field.\n\n");
    page.append("| field | kinds | description |\n| --- | --- | --- |\n");
    for (Listing listing : listings.values()) {
      if (listing.origin() != Origin.STINT) {
        continue;
      }
      Set<String> kinds = new LinkedHashSet<>();
      String description = null;
      for (CustomResourceDefinition crd : crds) {
        for (Field f : fields(crd, listings)) {
          if (f.path().equals(listing.path())) {
            kinds.add(kind(crd));
            description = description == null ? f.description() : description;
          }
        }
      }
      if (kinds.isEmpty()) {
        continue;
      }
      String kindsCell = kinds.size() == crds.size() ? "every kind" : String.join(", ", kinds);
      page.append("| `").append(listing.path()).append("` | ").append(kindsCell).append(" | ")
          .append(cell(description)).append(" |\n");
    }
    page.append('\n');
  }

  private static void appendKind(StringBuilder page, CustomResourceDefinition crd, Map<String, Listing> listings) {
    String kind = kind(crd);
    var names = crd.getSpec().getNames();
    String plural = names.getPlural();
    page.append("## ").append(kind).append("\n\n");
    page.append('`').append(crd.getSpec().getGroup()).append('/').append(version(crd).getName())
        .append("`, `kubectl get ").append(plural).append('`');
    if (names.getShortNames() != null && !names.getShortNames().isEmpty()) {
      page.append(" (or ").append(names.getShortNames().stream().map(s -> "`" + s + "`")
          .collect(Collectors.joining(", "))).append(')');
    }
    String file = plural + "." + crd.getSpec().getGroup() + "-" + version(crd).getName() + ".yml";
    page.append("; CRD [crds/").append(file).append("](../crds/").append(file).append(").\n\n");
    page.append("| field | type | from | description |\n| --- | --- | --- | --- |\n");
    for (Field f : fields(crd, listings)) {
      page.append("| `").append(f.path()).append("` | ").append(typeCell(f)).append(" | ")
          .append(f.stint() ? "**Stint**" : "upstream").append(" | ").append(cell(f.description())).append(" |\n");
    }
    page.append('\n');
  }

  /** The type and what the schema bounds: {@code `integer`, 0 to 10000}. */
  static String typeCell(Field f) {
    JSONSchemaProps s = f.schema();
    List<String> parts = new ArrayList<>();
    parts.add(f.kubernetesType() != null ? cell(f.kubernetesType()) : "`" + type(s) + "`");
    if (f.required()) {
      parts.add("required");
    }
    if (s.getDefault() != null) {
      parts.add("default `" + s.getDefault() + "`");
    }
    if (f.kubernetesType() == null) {
      if (s.getEnum() != null && !s.getEnum().isEmpty()) {
        parts.add("one of " + s.getEnum().stream().map(v -> "`" + (v.isTextual() && v.asText().isEmpty() ? "\"\""
            : cell(v.asText())) + "`").collect(Collectors.joining(", ")));
      }
      numberRange(parts, s);
      range(parts, number(s.getMinLength()), number(s.getMaxLength()), " characters");
      range(parts, number(s.getMinItems()), number(s.getMaxItems()), " items");
      range(parts, number(s.getMinProperties()), number(s.getMaxProperties()), " entries");
    }
    return String.join(", ", parts);
  }

  /** {@code string}, {@code integer}, {@code []string}, {@code map[string]integer}, {@code int-or-string}. */
  static String type(JSONSchemaProps s) {
    if (Boolean.TRUE.equals(s.getXKubernetesIntOrString())) {
      return "int-or-string";
    }
    if ("array".equals(s.getType())) {
      JSONSchemaProps items = SchemaTree.arrayItems(s);
      return "[]" + (items == null ? "any" : type(items));
    }
    JSONSchemaProps values = SchemaTree.mapValues(s);
    if ("object".equals(s.getType()) && values != null) {
      return "map[string]" + type(values);
    }
    return s.getType() == null ? "any" : s.getType();
  }

  /** An int32's own bounds say "int32"; only a bound narrower than the type's is written as a number. */
  private static void numberRange(List<String> parts, JSONSchemaProps s) {
    boolean int32 = s.getMaximum() != null && s.getMaximum() == Int32Bounds.MAX
        && (s.getMinimum() == null || s.getMinimum() >= Int32Bounds.MIN);
    if (int32) parts.add("int32");
    Double min = int32 && s.getMinimum() != null && s.getMinimum() == Int32Bounds.MIN ? null : s.getMinimum();
    range(parts, number(min), int32 ? null : number(s.getMaximum()), "");
  }

  private static void range(List<String> parts, String min, String max, String unit) {
    if (min != null && max != null) {
      parts.add(min + " to " + max + unit);
    } else if (min != null) {
      parts.add("at least " + min + unit);
    } else if (max != null) {
      parts.add("at most " + max + unit);
    }
  }

  private static String number(Number n) {
    return n == null ? null : new BigDecimal(n.toString()).stripTrailingZeros().toPlainString();
  }

  /** Text for a table cell: on one line, with {@code |} escaped and {@code <} written so as not to open a tag. */
  static String cell(String text) {
    if (text == null) {
      return "";
    }
    return text.strip().replaceAll("\\s*\\R\\s*", " ").replace("|", "\\|").replace("<", "&lt;");
  }

  /** The kind a CRD serves. */
  public static String kind(CustomResourceDefinition crd) {
    return crd.getSpec().getNames().getKind();
  }

  private static CustomResourceDefinitionVersion version(CustomResourceDefinition crd) {
    List<CustomResourceDefinitionVersion> versions = crd.getSpec().getVersions();
    if (versions.size() != 1) {
      throw new IllegalArgumentException(crd.getMetadata().getName() + ": expected one version, found "
          + versions.size());
    }
    return versions.get(0);
  }
}
