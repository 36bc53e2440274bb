package dev.stint.core.decision;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Deep copies and content hashes of Kubernetes model objects, through plain Jackson: the decision reads and builds
 * objects, it never talks to a cluster, so it needs no client library for this.
 */
final class ModelJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ModelJson() { }

  /** A deep copy, sharing nothing with the original: written to a buffer of tokens and read back, no text between. */
  static <T> T copy(T object, Class<T> type) {
    try (TokenBuffer tokens = new TokenBuffer(MAPPER, false)) {
      MAPPER.writeValue(tokens, object);
      try (JsonParser parser = tokens.asParserOnFirstToken()) {
        return MAPPER.readValue(parser, type);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
