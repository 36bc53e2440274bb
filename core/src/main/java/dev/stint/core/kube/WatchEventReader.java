package dev.stint.core.kube;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.module.blackbird.BlackbirdModule;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decodes the watch events of pods and services straight into {@link Pod} and {@link Service}, without their
 * {@code metadata.managedFields}, and of a pod's spec without what {@link SlimItemStore} drops from it (volumes, and
 * the containers' environment, commands and mounts).
 *
 * <p>fabric8 reads a watch event's object into a JSON tree, to learn its kind, then converts the tree into the
 * object, managed fields and all (which the item store then drops). For a pod of the benchmark that is 115 KiB
 * allocated and about 85 µs of C1-compiled CPU per event; read straight into the class, its managed fields cut
 * out of the text first and the spec's dropped fields skipped, 22 KiB and 37 µs ({@code bench/decode.sh};
 * docs/benchmarks.md, "Decoding watch events" and "Less of the operator's CPU per watch event"). The API server
 * writes an event's {@code type}, then its object's {@code kind} and {@code apiVersion} first, so a fixed prefix says
 * which class to read; any other message (another kind, an {@code ERROR} status, another writer's field order) is
 * left to fabric8.
 */
final class WatchEventReader {
  private static final String TYPE = "{\"type\":\"";
  private static final String OBJECT = "\",\"object\":{";
  private static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
      "\"kind\":\"Pod\",\"apiVersion\":\"v1\",", Pod.class,
      "\"kind\":\"Service\",\"apiVersion\":\"v1\",", Service.class);

  private static final String MANAGED_FIELDS = "\"managedFields\":[";

  private final ObjectMapper mapper;
  private final Map<Class<?>, ObjectReader> readers;
  /**
   * Parsers of messages whose managed fields were cut out: those keep the field names they meet in the factory's
   * shared table, as Jackson does by default, since what is left of a pod or a service repeats the same few names.
   */
  private final JsonFactory withoutManagedFields = JsonFactory.builder().build();

  /** Reads with a mapper configured as fabric8 configures its own, on a copy of {@code factory}. */
  WatchEventReader(JsonFactory factory) {
    // a factory of its own: a factory's parsers decode with the last mapper made on it, and this one skips fields
    mapper = new ObjectMapper(factory.copy());
    new KubernetesSerialization(mapper, true); // configures the mapper: fabric8's modules and settings
    mapper.addMixIn(ObjectMeta.class, WithoutManagedFields.class);
    // what SlimItemStore drops from every cached pod anyway: skipped by the parser, never built
    ignore(PodSpec.class, SlimItemStore.DROPPED_POD_SPEC_FIELDS);
    ignore(Container.class, SlimItemStore.DROPPED_CONTAINER_FIELDS);
    mapper.registerModule(new BlackbirdModule());
    this.readers = Map.of(
        Pod.class, mapper.readerFor(mapper.getTypeFactory().constructParametricType(Event.class, Pod.class)),
        Service.class, mapper.readerFor(mapper.getTypeFactory().constructParametricType(Event.class, Service.class)));
  }

  private void ignore(Class<?> type, List<String> fields) {
    String[] names = fields.toArray(String[]::new);
    mapper.configOverride(type).setIgnorals(JsonIgnoreProperties.Value.forIgnoredProperties(names));
  }

  /** The event, if {@code message} is one this reader knows; empty for fabric8 to read. */
  Optional<WatchEvent> read(String message) {
    Class<?> kind = kindOf(message);
    if (kind == null) {
      return Optional.empty();
    }
    try {
      Event<?> event = read(readers.get(kind), message);
      return Optional.of(new WatchEvent(event.object, event.type));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // fabric8 reads it again and reports what is wrong with it
    }
  }

  private Event<?> read(ObjectReader reader, String message) throws IOException {
    int[] cut = managedFields(message);
    if (cut == null) {
      return reader.readValue(message);
    }
    char[] rest = new char[message.length() - (cut[1] - cut[0])];
    message.getChars(0, cut[0], rest, 0);
    message.getChars(cut[1], message.length(), rest, cut[0]);
    try (JsonParser parser = withoutManagedFields.createParser(rest)) {
      parser.setCodec(mapper); // deserializers that read a tree first (Quantity's) ask the parser for its codec
      return reader.readValue(parser);
    }
  }

  /**
   * Where the object's managed fields are in {@code message}, as the API server writes them (compact, a field
   * {@code "managedFields":[...]} of the metadata), with one comma beside them: {@code [start, end)} to cut out so that
   * the rest is valid JSON; null when they are not found so. Cut out as text, they are never tokenized: they were
   * two fifths of a pod's event, and their field names ({@code k:{"uid":"..."}}) are unique to each object.
   */
  static int[] managedFields(String message) {
    int at = message.indexOf(MANAGED_FIELDS);
    if (at <= 0) {
      return null;
    }
    char before = message.charAt(at - 1);
    if (before != ',' && before != '{') {
      return null; // not where a field name starts: inside a string
    }
    int end = endOfArray(message, at + MANAGED_FIELDS.length() - 1);
    if (end < 0) {
      return null;
    }
    if (before == ',') {
      return new int[] {at - 1, end};
    }
    return end < message.length() && message.charAt(end) == ',' ? new int[] {at, end + 1} : new int[] {at, end};
  }

  /** Just past the array or object that opens at {@code open}; -1 if it does not close. */
  private static int endOfArray(String json, int open) {
    int depth = 0;
    boolean inString = false;
    for (int i = open; i < json.length(); i++) {
      char c = json.charAt(i);
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '[' || c == '{') {
        depth++;
      } else if ((c == ']' || c == '}') && --depth == 0) {
        return i + 1;
      }
    }
    return -1;
  }

  /** The class of the message's object when its prefix is one the API server writes for a known kind. */
  static Class<?> kindOf(String message) {
    if (!message.startsWith(TYPE)) {
      return null;
    }
    int typeEnd = message.indexOf('"', TYPE.length());
    if (typeEnd < 0 || !message.startsWith(OBJECT, typeEnd)) {
      return null;
    }
    int kindStart = typeEnd + OBJECT.length();
    for (Map.Entry<String, Class<? extends HasMetadata>> kind : KINDS.entrySet()) {
      if (message.startsWith(kind.getKey(), kindStart)) {
        return kind.getValue();
      }
    }
    return null;
  }

  /** A watch event of a known class; unknown fields of the event itself are ignored. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  static final class Event<T> {
    public String type;
    public T object;
  }

  @JsonIgnoreProperties("managedFields")
  abstract static class WithoutManagedFields {
  }

}
