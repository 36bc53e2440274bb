package dev.stint.core.decision;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The API server's rules for label and annotation keys and label values, checked on a replica template before any
 * child is made from it. Without this a bad template label is refused on the child, in the child's words: an MPI
 * launcher's on its Job ({@code spec.template.labels}), which names no field the user wrote.
 */
final class MetadataSyntax {
  static final int MAX_NAME = 63;
  static final int MAX_PREFIX = 253;
  static final int MAX_ANNOTATIONS_BYTES = 256 * 1024;
  private static final Pattern NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  private static final Pattern DNS_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  private MetadataSyntax() { }

  /** What is wrong with the labels at {@code field}, one message per fault, each naming the field. */
  static List<String> labelErrors(String field, Map<String, String> labels) {
    List<String> errors = new ArrayList<>();
    if (labels == null) {
      return errors;
    }
    labels.forEach((key, value) -> {
      keyError(key).ifPresent(e -> errors.add(field + ": Invalid value: " + quoted(key) + ": " + e));
      valueError(value).ifPresent(e -> errors.add(field + ": Invalid value: " + quoted(value) + ": " + e));
    });
    return errors;
  }

  /** What is wrong with the annotations at {@code field}: their keys (lower-cased, as the API server does) and size. */
  static List<String> annotationErrors(String field, Map<String, String> annotations) {
    List<String> errors = new ArrayList<>();
    if (annotations == null) {
      return errors;
    }
    long bytes = 0;
    for (Map.Entry<String, String> e : annotations.entrySet()) {
      String key = e.getKey();
      keyError(key == null ? null : key.toLowerCase(Locale.ROOT))
          .ifPresent(m -> errors.add(field + ": Invalid value: " + quoted(key) + ": " + m));
      bytes += utf8(key) + utf8(e.getValue());
    }
    if (bytes > MAX_ANNOTATIONS_BYTES) {
      errors.add(field + ": Too long: must have at most " + MAX_ANNOTATIONS_BYTES + " bytes, not " + bytes);
    }
    return errors;
  }

  /** A qualified name: an optional DNS subdomain prefix and a slash, then a name of at most 63 characters. */
  static Optional<String> keyError(String key) {
    if (key == null || key.isEmpty()) {
      return Optional.of("name part must be non-empty");
    }
    String[] parts = key.split("/", -1);
    if (parts.length > 2) {
      return Optional.of("a qualified name must have at most one '/'");
    }
    String name = parts[parts.length - 1];
    if (parts.length == 2) {
      String prefix = parts[0];
      if (prefix.isEmpty()) {
        return Optional.of("prefix part must be non-empty");
      }
      if (prefix.length() > MAX_PREFIX || !DNS_SUBDOMAIN.matcher(prefix).matches()) {
        return Optional.of("prefix part must be a lower-case DNS subdomain of at most " + MAX_PREFIX
            + " characters");
      }
    }
    if (name.isEmpty()) {
      return Optional.of("name part must be non-empty");
    }
    return nameError("name part ", name);
  }

  /** A label value: empty, or a name of at most 63 characters. */
  static Optional<String> valueError(String value) {
    return value == null || value.isEmpty() ? Optional.empty() : nameError("", value);
  }

  private static Optional<String> nameError(String what, String name) {
    if (name.length() > MAX_NAME) {
      return Optional.of(what + "must be no more than " + MAX_NAME + " characters");
    }
    if (!NAME.matcher(name).matches()) {
      return Optional.of(what + "must consist of alphanumeric characters, '-', '_' or '.', and must start "
          + "and end with an alphanumeric character");
    }
    return Optional.empty();
  }

  private static String quoted(String s) {
    String shown = s == null ? "" : s;
    return "\"" + (shown.length() > 80 ? shown.substring(0, 80) + "..." : shown) + "\"";
  }

  private static long utf8(String s) {
    return s == null ? 0 : s.getBytes(StandardCharsets.UTF_8).length;
  }
}
