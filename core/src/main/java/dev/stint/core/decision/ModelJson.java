package dev.stint.core.decision;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;

/**
 * Deep copies and content hashes of Kubernetes model objects, through plain Jackson: the decision reads and builds
 * objects, it never talks to a cluster, so it needs no client library for this.
 */
final class ModelJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ModelJson() { }

  /** A deep copy, sharing nothing with the original. */
  static <T> T copy(T object, Class<T> type) {
    return MAPPER.convertValue(MAPPER.valueToTree(object), type);
  }

  /** A hash of the object's JSON: equal content, equal hash. */
  static String hash(Object object) {
    try {
      return Integer.toHexString(MAPPER.writeValueAsString(object).hashCode());
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
