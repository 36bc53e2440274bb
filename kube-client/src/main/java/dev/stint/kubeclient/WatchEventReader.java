package dev.stint.kubeclient;

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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decodes the watch events of pods, services and the registered job kinds straight into their classes, without their
 * {@code metadata.managedFields}, and of a pod's spec without what {@link SlimItemStore} drops from it (volumes, and
 * the containers' environment, commands and mounts).
 *
 * <p>fabric8 reads a watch event's object into a JSON tree, to learn its kind, then converts the tree into the
 * object, managed fields and all (which the item store then drops). For a pod of the benchmark that is 115 KiB
 * allocated and about 85 µs of C1-compiled CPU per event; read straight into the class, its managed fields cut
 * out of the text first and the spec's dropped fields skipped, 22 KiB and 37 µs ({@code bench/decode.sh};
 * docs/benchmarks.md, "Decoding watch events" and "Less of the operator's CPU per watch event"). A job's events are
 * read whole but for their managed fields: its pod templates are what its pods are made from. The API server writes
 * an event's {@code type}, then its object's {@code kind} and {@code apiVersion} first (in that order for built-in
 * kinds, the other way round for custom resources), so a fixed prefix says which class to read; any other message
 * (another kind, an {@code ERROR} status, another writer's field order) is left to fabric8.
 */
final class WatchEventReader {
  private static final String TYPE = "{\"type\":\"";
  private static final String OBJECT = "\",\"object\":{";
  private static final String MANAGED_FIELDS = "\"managedFields\":[";

  /** Reads pods and services, skipping what the item store drops from them. */
  private final ObjectMapper slim;
  /** Reads the registered kinds whole but for their managed fields. */
  private final ObjectMapper whole;
  /** fabric8's configuration of {@link #whole}: told of the registered kinds too, for fields typed as any resource. */
  private final KubernetesSerialization wholeSerialization;
  /** The prefixes of pods and services, which a registered kind never takes over. */
  private final Map<String, ObjectReader> builtIn;
  /** Readers by the prefix that names their kind ({@link #prefixes}); replaced whole when a kind is registered. */
  private volatile Map<String, ObjectReader> readers;
  /**
   * Parsers of messages whose managed fields were cut out: those keep the field names they meet in the factory's
   * shared table, as Jackson does by default, since what is left of an object repeats the same few names.
   */
  private final JsonFactory withoutManagedFields = JsonFactory.builder().build();

  /** Reads with mappers configured as fabric8 configures its own, on copies of {@code factory}. */
  WatchEventReader(JsonFactory factory) {
    slim = new ObjectMapper(factory.copy());
    configure(slim);
    // what SlimItemStore drops from every cached pod anyway: skipped by the parser, never built
    ignore(slim, PodSpec.class, SlimItemStore.DROPPED_POD_SPEC_FIELDS);
    ignore(slim, Container.class, SlimItemStore.DROPPED_CONTAINER_FIELDS);
    whole = new ObjectMapper(factory.copy());
    wholeSerialization = configure(whole);
    Map<String, ObjectReader> known = new HashMap<>();
    for (Class<? extends HasMetadata> kind : List.of(Pod.class, Service.class)) {
      ObjectReader reader = readerOf(slim, kind);
      prefixes(kind).forEach(prefix -> known.put(prefix, reader));
    }
    builtIn = Map.copyOf(known);
    readers = builtIn;
  }

  /**
   * Reads the watch events of {@code kind} too. A class that does not name both its group and its version is left to
   * fabric8, as is a kind that is a pod or a service; of two classes of one kind, the last registered is read, as
   * fabric8 reads it.
   */
  synchronized void register(Class<? extends HasMetadata> kind) {
    if (HasMetadata.getGroup(kind) == null || HasMetadata.getVersion(kind) == null) {
      return;
    }
    wholeSerialization.registerKubernetesResource(kind);
    Map<String, ObjectReader> known = new HashMap<>(readers);
    ObjectReader reader = readerOf(whole, kind);
    prefixes(kind).stream().filter(prefix -> !builtIn.containsKey(prefix)).forEach(prefix -> known.put(prefix, reader));
    readers = Map.copyOf(known);
  }

  /**
   * Configures {@code mapper} as fabric8 configures its own (its modules and settings), then without managed fields.
   * Each mapper has a factory of its own: a factory's parsers decode with the last mapper made on it.
   */
  private static KubernetesSerialization configure(ObjectMapper mapper) {
    KubernetesSerialization serialization = new KubernetesSerialization(mapper, true);
    mapper.addMixIn(ObjectMeta.class, WithoutManagedFields.class);
    mapper.registerModule(new BlackbirdModule());
    ClientSerialization.toleratesNewerFields(mapper);
    UnreadableObjects.install(mapper);
    return serialization;
  }

  private static void ignore(ObjectMapper mapper, Class<?> type, List<String> fields) {
    String[] names = fields.toArray(String[]::new);
    mapper.configOverride(type).setIgnorals(JsonIgnoreProperties.Value.forIgnoredProperties(names));
  }

  private static ObjectReader readerOf(ObjectMapper mapper, Class<?> kind) {
    return mapper.readerFor(mapper.getTypeFactory().constructParametricType(Event.class, kind));
  }

  /** How the API server begins an object of {@code kind}: kind first (built-in kinds) or apiVersion first. */
  static List<String> prefixes(Class<? extends HasMetadata> kind) {
    String name = "\"kind\":\"" + HasMetadata.getKind(kind) + "\",";
    String version = "\"apiVersion\":\"" + HasMetadata.getApiVersion(kind) + "\",";
    return List.of(name + version, version + name);
  }

  /** The event, if {@code message} is one this reader knows; empty for fabric8 to read. */
  Optional<WatchEvent> read(String message) {
    ObjectReader reader = readerOf(message);
    if (reader == null) {
      return Optional.empty();
    }
    try {
      Event<?> event = read(reader, message);
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
      // deserializers that read a tree first (Quantity's) ask the parser for its codec
      parser.setCodec(reader.getFactory().getCodec());
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

  /** The reader of the message's object when its prefix is one the API server writes for a known kind. */
  private ObjectReader readerOf(String message) {
    if (!message.startsWith(TYPE)) {
      return null;
    }
    int typeEnd = message.indexOf('"', TYPE.length());
    if (typeEnd < 0 || !message.startsWith(OBJECT, typeEnd)) {
      return null;
    }
    int kindStart = typeEnd + OBJECT.length();
    for (Map.Entry<String, ObjectReader> kind : readers.entrySet()) {
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
