package dev.stint.operator;

import dev.stint.operator.OperatorOptions.ApiRateLimit;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * {@code --kube-api-qps} and {@code --kube-api-burst}: a token bucket in front of every request of the API client,
 * as client-go's rate limiter. fabric8 7.9 has none of its own (its {@code maxConcurrentRequests} bounds requests in
 * flight, not their rate). A request that finds the bucket empty waits, on the calling thread, until its token is
 * due; a burst of up to {@code burst} requests goes at once.
 */
final class ApiRateLimiter implements Interceptor {
  /** The interceptor's name in the HTTP client. */
  static final String NAME = "stint-rate-limit";

  private final double nanosPerToken;
  private final double capacity;
  private final LongSupplier nanoTime;
  private double tokens;
  private long refilledAt;

  /** A limiter with a full bucket; {@code nanoTime} is {@link System#nanoTime} but in tests. */
  ApiRateLimiter(ApiRateLimit limit, LongSupplier nanoTime) {
    if (!limit.limited()) {
      throw new IllegalArgumentException("no limit to enforce");
    }
    this.nanosPerToken = TimeUnit.SECONDS.toNanos(1) / (double) limit.qps();
    this.capacity = limit.burst() > 0 ? limit.burst() : limit.qps();
    this.nanoTime = nanoTime;
    this.tokens = capacity;
    this.refilledAt = nanoTime.getAsLong();
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    long wait = reserve();
    if (wait > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // the request goes now; its caller sees the interrupt
      }
    }
  }

  /** Takes a token, and returns how long to wait until it is due (0: at once). Waiting requests queue in order. */
  synchronized long reserve() {
    long now = nanoTime.getAsLong();
    tokens = Math.min(capacity, tokens + (now - refilledAt) / nanosPerToken);
    refilledAt = now;
    tokens -= 1;
    return tokens >= 0 ? 0 : (long) Math.ceil(-tokens * nanosPerToken);
  }
}
