package dev.stint.core.kube;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
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
import java.util.Map;
import java.util.Optional;

/**
 * Decodes the watch events of pods and services straight into {@link Pod} and {@link Service}, without their
 * {@code metadata.managedFields}, and of a pod's spec without what {@link SlimItemStore} drops from it (volumes, and
 * the containers' environment, commands and mounts).
 *
 * <p>fabric8 reads a watch event's object into a JSON tree, to learn its kind, then converts the tree into the
 * object, managed fields and all (which the item store then drops). For a pod of the benchmark that is 115 KiB
 * allocated and about 100 µs of C1-compiled CPU per event; read straight into the class without managed fields, 39
 * KiB and 55 µs ({@code bench/decode.sh}, docs/benchmarks.md "Decoding watch events"). The API server writes an
 * event's {@code type}, then its object's {@code kind} and {@code apiVersion} first, so a fixed prefix says which
 * class to read; any other message (another kind, an {@code ERROR} status, another writer's field order) is left to
 * fabric8.
 */
final class WatchEventReader {
  private static final String TYPE = "{\"type\":\"";
  private static final String OBJECT = "\",\"object\":{";
  private static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
      "\"kind\":\"Pod\",\"apiVersion\":\"v1\",", Pod.class,
      "\"kind\":\"Service\",\"apiVersion\":\"v1\",", Service.class);

  private final Map<Class<?>, ObjectReader> readers;

  /** Reads with a mapper configured as fabric8 configures its own, on a copy of {@code factory}. */
  WatchEventReader(JsonFactory factory) {
    // a factory of its own: a factory's parsers decode with the last mapper made on it, and this one skips fields
    ObjectMapper mapper = new ObjectMapper(factory.copy());
    new KubernetesSerialization(mapper, true); // configures the mapper: fabric8's modules and settings
    mapper.addMixIn(ObjectMeta.class, WithoutManagedFields.class);
    // what SlimItemStore drops from every cached pod anyway: skipped by the parser, never built
    mapper.addMixIn(PodSpec.class, WithoutVolumes.class);
    mapper.addMixIn(Container.class, WithoutWhatTheOperatorWrote.class);
    mapper.registerModule(new BlackbirdModule());
    this.readers = Map.of(
        Pod.class, mapper.readerFor(mapper.getTypeFactory().constructParametricType(Event.class, Pod.class)),
        Service.class, mapper.readerFor(mapper.getTypeFactory().constructParametricType(Event.class, Service.class)));
  }

  /** The event, if {@code message} is one this reader knows; empty for fabric8 to read. */
  Optional<WatchEvent> read(String message) {
    Class<?> kind = kindOf(message);
    if (kind == null) {
      return Optional.empty();
    }
    try {
      Event<?> event = readers.get(kind).readValue(message);
      return Optional.of(new WatchEvent(event.object, event.type));
    } catch (JsonProcessingException e) {
      return Optional.empty(); // fabric8 reads it again and reports what is wrong with it
    }
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

  @JsonIgnoreProperties("volumes")
  abstract static class WithoutVolumes {
  }

  @JsonIgnoreProperties({"env", "envFrom", "command", "args", "volumeMounts"})
  abstract static class WithoutWhatTheOperatorWrote {
  }
}
