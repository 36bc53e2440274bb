package dev.stint.core.metrics;

import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Counts the Kubernetes client's requests, as a fabric8 HTTP interceptor: {@code stint_kube_api_requests_total} by
 * {@code verb} (get, list, watch, create, update, patch, delete, deletecollection, as the API server names them),
 * {@code resource} (with its subresource: {@code pods}, {@code pytorchjobs/status}; empty outside the resource API)
 * and {@code code} (the HTTP status, or {@code error} when no answer came), and
 * {@code stint_kube_api_request_duration_seconds} by verb and resource, until the response's headers.
 *
 * <p>Every attempt counts: a request the client retries after a 429 or a lost connection counts once per attempt,
 * as the API server's own {@code apiserver_request_total} does. fabric8 tells interceptors of a connection failure
 * only when it is about to retry, so the last attempt of a request that never got an answer is not counted (the
 * client makes up to eleven by default, {@code requestRetryBackoffLimit}).
 */
public final class ApiRequestMetrics implements Interceptor {
  /** The interceptor's name in the HTTP client (adding another of the same name replaces it). */
  public static final String INTERCEPTOR_NAME = "stint-metrics";
  static final String REQUESTS = "stint.kube.api.requests";
  static final String DURATION = "stint.kube.api.request.duration";

  private final MeterRegistry registry;
  /** When each request in flight was sent; weak, so that a request that never gets an answer is not kept. */
  private final Map<HttpRequest, Long> sentAt = Collections.synchronizedMap(new WeakHashMap<>());
  /** The meters by their tags' values: looked up once each, not built and registered again per request. */
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();
  private final Map<String, Timer> timers = new ConcurrentHashMap<>();

  public ApiRequestMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /**
   * Counts the requests of the clients {@code builder} builds in {@code metrics}. This sets the builder's HTTP client
   * builder consumer: a caller that needs one of its own adds the interceptor there instead, under
   * {@link #INTERCEPTOR_NAME}.
   */
  public static KubernetesClientBuilder install(KubernetesClientBuilder builder, StintMetrics metrics) {
    ApiRequestMetrics interceptor = new ApiRequestMetrics(metrics.registry());
    return builder.withHttpClientBuilderConsumer(http -> http.addOrReplaceInterceptor(INTERCEPTOR_NAME, interceptor));
  }

  /** Called with the request as sent, just before it is. */
  @Override
  public AsyncBody.Consumer<List<ByteBuffer>> consumer(AsyncBody.Consumer<List<ByteBuffer>> consumer,
                                                       HttpRequest request) {
    sentAt.put(request, System.nanoTime());
    return consumer;
  }

  @Override
  public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    Long sent = sentAt.remove(request);
    String verb = verb(request.method(), request.uri());
    String resource = resource(request.uri());
    count(verb, resource, Integer.toString(response.code()));
    if (sent != null) {
      timers.computeIfAbsent(verb + ' ' + resource, key -> Timer.builder(DURATION)
          .description("Seconds from sending a request to the Kubernetes API to its answer's headers")
          .tags("verb", verb, "resource", resource)
          .serviceLevelObjectives(StintMetrics.buckets(StintMetrics.REQUEST_BUCKETS_SECONDS))
          .register(registry))
          .record(System.nanoTime() - sent, TimeUnit.NANOSECONDS);
    }
  }

  @Override
  public void afterConnectionFailure(HttpRequest request, Throwable failure) {
    sentAt.remove(request);
    count(verb(request.method(), request.uri()), resource(request.uri()), "error");
  }

  private void count(String verb, String resource, String code) {
    counters.computeIfAbsent(verb + ' ' + resource + ' ' + code, key -> Counter.builder(REQUESTS)
        .description("Requests to the Kubernetes API, by verb, resource and answer")
        .tags("verb", verb, "resource", resource, "code", code)
        .register(registry))
        .increment();
  }

  /** The API server's name for the request's verb. */
  static String verb(String method, URI uri) {
    String[] rest = resourcePath(uri);
    boolean collection = rest.length == 1;
    return switch (method.toUpperCase(Locale.ROOT)) {
      case "GET" -> isWatch(uri) ? "watch" : collection ? "list" : "get";
      case "POST" -> "create";
      case "PUT" -> "update";
      case "PATCH" -> "patch";
      case "DELETE" -> collection ? "deletecollection" : "delete";
      default -> method.toLowerCase(Locale.ROOT);
    };
  }

  /** The resource and subresource the request is about: {@code pods}, {@code pytorchjobs/status}; "" if none. */
  static String resource(URI uri) {
    String[] rest = resourcePath(uri);
    if (rest.length == 0) {
      return "";
    }
    return rest.length > 2 ? rest[0] + "/" + rest[2] : rest[0];
  }

  /**
   * The path after the group, version and namespace: {@code [resource]} for a collection, {@code [resource, name]}
   * or {@code [resource, name, subresource]} for one object; empty outside {@code /api} and {@code /apis}.
   */
  private static String[] resourcePath(URI uri) {
    String[] segments = Arrays.stream(uri.getRawPath().split("/")).filter(s -> !s.isEmpty()).toArray(String[]::new);
    int start;
    if (segments.length > 0 && segments[0].equals("api")) {
      start = 2;
    } else if (segments.length > 0 && segments[0].equals("apis")) {
      start = 3;
    } else {
      return new String[0];
    }
    // namespaces/<ns>/<resource>...: a namespaced resource; namespaces or namespaces/<ns> alone: the namespace itself
    if (segments.length > start + 2 && segments[start].equals("namespaces")) {
      start += 2;
    }
    return start >= segments.length ? new String[0] : Arrays.copyOfRange(segments, start, segments.length);
  }

  private static boolean isWatch(URI uri) {
    String query = uri.getRawQuery();
    return query != null
        && Arrays.stream(query.split("&")).anyMatch(p -> p.equals("watch=true") || p.equals("watch=1"));
  }
}
