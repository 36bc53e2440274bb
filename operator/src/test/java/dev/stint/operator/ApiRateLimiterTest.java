package dev.stint.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.operator.OperatorOptions.ApiRateLimit;
import dev.stint.operator.demo.EmbeddedApiServer;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ApiRateLimiterTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
  private final AtomicLong now = new AtomicLong(1_000 * MS);

  @Test
  void aBurstGoesAtOnceThenRequestsWaitTheirTurn() {
    ApiRateLimiter limiter = new ApiRateLimiter(new ApiRateLimit(10, 2), now::get);

    assertThat(limiter.reserve()).isZero();
    assertThat(limiter.reserve()).isZero();
    assertThat(limiter.reserve()).isEqualTo(100 * MS);
    assertThat(limiter.reserve()).isEqualTo(200 * MS);
  }

  @Test
  void theBucketRefillsWithTimeUpToTheBurst() {
    ApiRateLimiter limiter = new ApiRateLimiter(new ApiRateLimit(10, 2), now::get);
    limiter.reserve();
    limiter.reserve();

    now.addAndGet(10_000 * MS); // long idle: the bucket holds the burst, no more

    assertThat(limiter.reserve()).isZero();
    assertThat(limiter.reserve()).isZero();
    assertThat(limiter.reserve()).isEqualTo(100 * MS);
  }

  @Test
  void withoutABurstTheBucketHoldsOneSecondOfRequests() {
    ApiRateLimiter limiter = new ApiRateLimiter(new ApiRateLimit(3, 0), now::get);

    assertThat(limiter.reserve()).isZero();
    assertThat(limiter.reserve()).isZero();
    assertThat(limiter.reserve()).isZero();
    assertThat(limiter.reserve()).isGreaterThan(0);
  }

  @Test
  void everyRequestOfTheOperatorsClientTakesAToken() {
    ApiRateLimiter limiter = new ApiRateLimiter(new ApiRateLimit(1, 3), now::get); // the clock stands still
    try (EmbeddedApiServer server = EmbeddedApiServer.start();
         KubernetesClient client = ClientConfig.client(new ConfigBuilder(Config.empty()).withMasterUrl(server.url())
             .build(), limiter, null, HttpClientChoice.from(Map.of()))) {
      client.namespaces().list();
      client.pods().inNamespace("default").list();
      client.services().inNamespace("default").list();

      assertThat(limiter.reserve()).as("the burst of 3 is spent").isEqualTo(TimeUnit.SECONDS.toNanos(1));
    }
  }
}
