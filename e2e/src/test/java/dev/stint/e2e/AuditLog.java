package dev.stint.e2e;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The API server's audit log of the local cluster ({@code e2e/cluster.sh} records the requests of deploy/'s
 * ServiceAccount only, at level Metadata). A test marks where it starts and reads the requests made after the mark.
 */
final class AuditLog {
  static final String OPERATOR_USER = "system:serviceaccount:stint-system:stint";

  /**
   * One request: what was asked and how it was answered.
   *
   * @param apiGroup "" for the core group
   * @param resource null for a non-resource URL (discovery, /version)
   * @param subresource "" when none
   * @param namespace "" when cluster-wide
   * @param name "" for a collection
   * @param code the HTTP status of the response (101 for a watch's upgrade, 200 for its start otherwise)
   * @param forbidden whether authorization (RBAC) refused it; a 403 of admission (a namespace being deleted, a
   *     quota) is not
   * @param received when the API server received it (by this machine's clock, which the test shares)
   * @param message the response status's message, "" when none
   */
  record Request(String user, String verb, String apiGroup, String resource, String subresource, String namespace,
                 String name, int code, String uri, boolean forbidden, Instant received, String message) {
    private static final Set<String> WRITES = Set.of("create", "update", "patch", "delete", "deletecollection");

    /** Whether it asked to change something (a create, update, patch or delete of any object). */
    boolean write() {
      return WRITES.contains(verb);
    }

    /**
     * Whether the API server could have carried it out: it answered it (2xx) or judged it against the stored state
     * (4xx), or timed out (504) after it may have. Any other 5xx failed before it took effect: a request whose body
     * never came all the way (a client that gave it up after its headers) is answered 500 with the read's error.
     */
    boolean answered() {
      return code < 500 || code == 504;
    }

    /** {@code verb group/resource/subresource in namespace}, as a message names it. */
    String describe() {
      String what = (apiGroup.isEmpty() ? "" : apiGroup + "/") + (resource == null ? uri : resource)
          + (subresource.isEmpty() ? "" : "/" + subresource) + (name.isEmpty() ? "" : " " + name);
      return verb + " " + what + (namespace.isEmpty() ? "" : " in " + namespace) + " -> " + code;
    }
  }

  private final Path file;
  private final long mark;

  private long scanned;
  private boolean forbiddenSeen;

  private AuditLog(Path file, long mark) {
    this.file = file;
    this.mark = mark;
    this.scanned = mark;
  }

  /** The log from its current end on: later reads see only the requests made after this call. */
  static AuditLog fromNow() {
    Path file = LocalCluster.kubeconfig().resolveSibling("logs").resolve("audit.log");
    try {
      return new AuditLog(file, Files.exists(file) ? Files.size(file) : 0);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The requests of {@link #OPERATOR_USER} since the mark, one per request (its last recorded stage). */
  List<Request> operatorRequests() {
    return requestsOf(OPERATOR_USER);
  }

  /**
   * The requests of {@code user} since the mark, one per request (its last recorded stage): users the audit policy
   * logs are {@link #OPERATOR_USER} and the replicas of group {@code stint:replicas} ({@code e2e/cluster.sh}).
   */
  List<Request> requestsOf(String user) {
    Map<String, Request> byId = new LinkedHashMap<>();
    for (String line : linesSinceMark()) {
      if (line.isBlank()) {
        continue;
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> event = Serialization.unmarshal(line, Map.class);
      Request request = request(event);
      if (user.equals(request.user())) {
        byId.put((String) event.get("auditID"), request);
      }
    }
    return new ArrayList<>(byId.values());
  }

  /**
   * Whether authorization refused a request since the mark: a cheap scan of what was written since the last call,
   * for a wait to stop at once (the full account comes from {@link #operatorRequests}).
   */
  synchronized boolean anyForbidden() {
    String text = read(scanned);
    scanned += text.getBytes(StandardCharsets.UTF_8).length;
    forbiddenSeen |= text.contains("\"authorization.k8s.io/decision\":\"forbid\"") && text.contains(OPERATOR_USER);
    return forbiddenSeen;
  }

  private List<String> linesSinceMark() {
    String text = read(mark);
    return text.isEmpty() ? List.of() : List.of(text.split("\n"));
  }

  /** The complete lines from {@code offset} on: a line being written as we read is left for the next read. */
  private String read(long offset) {
    try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
      long length = in.length();
      byte[] bytes = new byte[(int) Math.max(0, length - offset)];
      in.seek(Math.min(offset, length));
      in.readFully(bytes);
      String text = new String(bytes, StandardCharsets.UTF_8);
      int end = text.lastIndexOf('\n');
      return end < 0 ? "" : text.substring(0, end + 1);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the audit log " + file + ": " + e);
    }
  }

  @SuppressWarnings("unchecked")
  private static Request request(Map<String, Object> event) {
    Map<String, Object> user = (Map<String, Object>) event.getOrDefault("user", Map.of());
    Map<String, Object> ref = (Map<String, Object>) event.getOrDefault("objectRef", Map.of());
    Map<String, Object> response = (Map<String, Object>) event.getOrDefault("responseStatus", Map.of());
    Map<String, Object> annotations = (Map<String, Object>) event.getOrDefault("annotations", Map.of());
    Number code = (Number) response.getOrDefault("code", 0);
    boolean forbidden = "forbid".equals(annotations.get("authorization.k8s.io/decision"));
    return new Request((String) user.get("username"), (String) event.get("verb"), text(ref, "apiGroup"),
        ref.containsKey("resource") ? text(ref, "resource") : null, text(ref, "subresource"), text(ref, "namespace"),
        text(ref, "name"), code.intValue(), (String) event.get("requestURI"), forbidden,
        Instant.parse((String) event.get("requestReceivedTimestamp")), text(response, "message"));
  }

  private static String text(Map<String, Object> map, String key) {
    Object value = map.get(key);
    return value == null ? "" : value.toString();
  }
}
