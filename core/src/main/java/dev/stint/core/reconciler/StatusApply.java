package dev.stint.core.reconciler;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.stint.kubeclient.LeanWrites;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;

/**
 * One server-side apply of a job's {@code /status}, reading of the answer only its resource version.
 *
 * <p>fabric8's typed patch costs twice what the write needs: with no object in hand it first GETs the job (one more
 * request per status write), and it parses the answer, the whole job with its pod templates, into objects. The
 * engine needs neither: it knows the job, and of the answer only the new resource version, under which
 * {@link StatusWriter} caches the job as written. So the patch goes out as a {@link LeanWrites} request, which asks
 * for the job's metadata only, and a streaming parser reads {@code metadata.resourceVersion} from it.
 */
final class StatusApply {
  private static final JsonFactory JSON = new JsonFactory();

  private final LeanWrites writes;
  private final String fieldManager;

  StatusApply(KubernetesClient client, String fieldManager) {
    this.writes = new LeanWrites(client);
    this.fieldManager = fieldManager;
  }

  /**
   * Applies {@code body} (JSON) to the status of the named job, forcing conflicts.
   *
   * @return the job's resource version after the write, or null if the answer has none
   * @throws io.fabric8.kubernetes.client.KubernetesClientException with the API server's code and status if refused
   */
  String apply(Class<? extends HasMetadata> type, String namespace, String name, String body) {
    String group = HasMetadata.getGroup(type);
    String path = (group == null || group.isEmpty() ? "/api/" : "/apis/" + group + "/") + HasMetadata.getVersion(type)
        + "/namespaces/" + namespace + "/" + HasMetadata.getPlural(type) + "/" + name + "/status?fieldManager="
        + fieldManager + "&force=true";
    return resourceVersion(writes.send("PATCH", path, "application/apply-patch+yaml", body));
  }

  /** The top-level {@code metadata.resourceVersion} of a JSON object, without building the object. */
  static String resourceVersion(String json) {
    try (JsonParser parser = JSON.createParser(json)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        if ("metadata".equals(field) && value == JsonToken.START_OBJECT) {
          return fieldOf(parser, "resourceVersion");
        }
        parser.skipChildren();
      }
      return null;
    } catch (IOException e) {
      return null;
    }
  }

  private static String fieldOf(JsonParser parser, String wanted) throws IOException {
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = parser.currentName();
      parser.nextToken();
      if (wanted.equals(field)) {
        return parser.getValueAsString();
      }
      parser.skipChildren();
    }
    return null;
  }
}
