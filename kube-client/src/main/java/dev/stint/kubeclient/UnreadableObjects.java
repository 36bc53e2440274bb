package dev.stint.kubeclient;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.CustomResource;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a custom resource that its class cannot hold as an object with its metadata alone, marked, instead of failing
 * the whole list or watch it came in. fabric8 reads a kind's list in one piece, so one job the operator cannot read
 * (a number beyond its field's 32 bits stored under an older CRD, a field whose type a newer plugin changed) made the
 * informer's list fail, and every job of its kind went unserved until that job was fixed or deleted (client-go and
 * controller-runtime do the same). The marked object carries the reason, naming the field, in the annotation
 * {@link #ANNOTATION}, which exists only in the operator's memory: the engine leaves such a job and its children as
 * they are and says why ({@link #reasonOf}).
 *
 * <p>Each custom resource is copied into a token buffer before it is bound, so that it can be read a second time when
 * binding fails; pods and services, read through their own fabric8 classes, are not. <em>Delete when</em> fabric8's
 * informers skip an item they cannot decode and report it.
 */
public final class UnreadableObjects {

  /** The annotation of an object read without its spec and status, in memory only: why it could not be read. */
  public static final String ANNOTATION = "stint.dev/unreadable";

  private UnreadableObjects() { }

  /** Why {@code object} could not be read, naming the field, or empty when it was read whole. */
  public static Optional<String> reasonOf(HasMetadata object) {
    Map<String, String> annotations = object.getMetadata() == null ? null : object.getMetadata().getAnnotations();
    return Optional.ofNullable(annotations == null ? null : annotations.get(ANNOTATION));
  }

  /** Reads every custom resource class with {@code mapper} this way. */
  static void install(ObjectMapper mapper) {
    SimpleModule module = new SimpleModule("stint-unreadable-objects");
    module.setDeserializerModifier(new BeanDeserializerModifier() {
      @Override
      public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config, BeanDescription bean,
                                                    JsonDeserializer<?> deserializer) {
        return CustomResource.class.isAssignableFrom(bean.getBeanClass())
            ? new Tolerant(deserializer, bean.getBeanClass()) : deserializer;
      }
    });
    mapper.registerModule(module);
  }

  /** "spec.runPolicy.backoffLimit: ..." from Jackson's path and message. */
  static String describe(JacksonException e) {
    StringBuilder path = new StringBuilder();
    if (e instanceof JsonMappingException bound) {
      for (JsonMappingException.Reference step : bound.getPath()) {
        if (step.getFieldName() != null) {
          path.append(path.isEmpty() ? "" : ".").append(step.getFieldName());
        } else if (step.getIndex() >= 0) {
          path.append('[').append(step.getIndex()).append(']');
        }
      }
    }
    String message = e.getOriginalMessage().lines().findFirst().orElse("").strip();
    return path.isEmpty() ? message : path + ": " + message;
  }

  private static final class Tolerant extends DelegatingDeserializer {
    private final Class<?> type;

    Tolerant(JsonDeserializer<?> delegate, Class<?> type) {
      super(delegate);
      this.type = type;
    }

    @Override
    protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
      return new Tolerant(delegate, type);
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      TokenBuffer copy = ctxt.bufferAsCopyOfValue(p);
      try (JsonParser again = copy.asParserOnFirstToken()) {
        return _delegatee.deserialize(again, ctxt);
      } catch (JacksonException e) {
        return marked(copy, ctxt, e);
      }
    }

    /** The object with its metadata alone and the reason; the failure itself when even the metadata is unreadable. */
    private Object marked(TokenBuffer copy, DeserializationContext ctxt, JacksonException failure) throws IOException {
      JsonNode tree;
      try (JsonParser again = copy.asParserOnFirstToken()) {
        tree = ctxt.readTree(again);
      }
      JsonNode metadata = tree.get("metadata");
      if (metadata == null || !metadata.isObject()) throw failure;
      HasMetadata object;
      try {
        object = (HasMetadata) type.getDeclaredConstructor().newInstance();
      } catch (ReflectiveOperationException e) {
        throw failure;
      }
      ObjectMeta meta = ctxt.readTreeAsValue(metadata, ObjectMeta.class);
      Map<String, String> annotations = new HashMap<>(meta.getAnnotations() == null ? Map.of() : meta.getAnnotations());
      annotations.put(ANNOTATION, describe(failure));
      meta.setAnnotations(annotations);
      object.setMetadata(meta);
      return object;
    }
  }
}
