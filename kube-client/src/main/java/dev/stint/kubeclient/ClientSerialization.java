package dev.stint.kubeclient;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.module.blackbird.BlackbirdModule;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Optional;

/**
 * The JSON (de)serialization of the operator's client: fabric8's own, except that field names are not canonicalized.
 *
 * <p>Jackson keeps every field name it reads in a symbol table that its parsers share, and a parser copies that table
 * the first time it meets a name the table lacks. The names in a pod's {@code managedFields} are mostly unique
 * ({@code k:{"uid":"<owner>"}}, {@code k:{"ip":"10.0.3.7"}}), so nearly every watch event and list of pods met new
 * ones, and copied the table (arrays of 111 232 ints, 435 KB, in a JFR old-object sample at N = 2000) only to decode
 * managed fields the item store then drops. Without canonicalization a parser allocates each name it reads instead:
 * a few bytes a name, garbage at once.
 */
public final class ClientSerialization {
  private ClientSerialization() {
  }

  /**
   * fabric8's serialization on a mapper whose parsers keep no shared table of field names, reading the watch events
   * of pods, services and every kind registered on it ({@link KubernetesSerialization#registerKubernetesResource(Class)},
   * as the operator registers each job kind) with a {@link WatchEventReader}. An object watched through this client
   * lacks its managed fields, and a pod also what the informer caches drop (its volumes, its containers' environment,
   * commands and mounts), so a watch that needs them must use another client.
   */
  public static KubernetesSerialization create() {
    JsonFactory factory = JsonFactory.builder().disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES).build();
    WatchEventReader events = new WatchEventReader(factory);
    ObjectMapper mapper = new ObjectMapper(factory);
    KubernetesSerialization serialization = new KubernetesSerialization(mapper, true) {
      @Override
      @SuppressWarnings("unchecked")
      public <T> T unmarshal(String str, Class<T> type) {
        if (type == WatchEvent.class) {
          Optional<WatchEvent> event = events.read(str);
          if (event.isPresent()) {
            return (T) event.get();
          }
        }
        return super.unmarshal(str, type);
      }

      @Override
      public void registerKubernetesResource(Class<? extends KubernetesResource> type) {
        super.registerKubernetesResource(type);
        if (HasMetadata.class.isAssignableFrom(type)) {
          events.register(type.asSubclass(HasMetadata.class));
        }
      }
    };
    // after fabric8's modules: Jackson runs the last module's bean changes first, and Blackbird only speeds up
    // properties it sees before fabric8 wraps them
    mapper.registerModule(new BlackbirdModule());
    toleratesNewerFields(mapper);
    UnreadableObjects.install(mapper);
    return serialization;
  }

  /**
   * A field that the job classes lack is skipped, not an error. The API server prunes what a CRD does not declare, so
   * an unknown field reaches the operator only when the CRDs are newer than it: after a rollback, or from a plugin's
   * newer CRD. Jackson's default (fail) made one such job stop the whole kind from being listed, and so served
   * (issue 47's rollback finding). fabric8's own model classes collect unknown fields instead; Stint's keep none.
   */
  static void toleratesNewerFields(ObjectMapper mapper) {
    mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  }

  /** {@code builder} with this serialization. */
  public static KubernetesClientBuilder on(KubernetesClientBuilder builder) {
    return builder.withKubernetesSerialization(create());
  }
}
