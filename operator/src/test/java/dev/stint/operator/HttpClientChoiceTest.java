package dev.stint.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stint.kubeclient.Http1JdkClientFactory;
import dev.stint.kubeclient.JdkClientFactory;
import dev.stint.kubeclient.StreamedJdkClientFactory;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class HttpClientChoiceTest {
  @ParameterizedTest
  @CsvSource(nullValues = "-", value = {
      // STINT_HTTP_CLIENT, the factory chosen
      "-,              dev.stint.kubeclient.JdkClientFactory",
      "'',             dev.stint.kubeclient.JdkClientFactory",
      "JDK,            dev.stint.kubeclient.JdkClientFactory",
      "jdk-http1,      dev.stint.kubeclient.Http1JdkClientFactory",
      "jdk-streams,    dev.stint.kubeclient.StreamedJdkClientFactory",
      "vertx,          io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory",
      "vertx-openssl,  dev.stint.operator.OpenSslVertxClientFactory",
      "vertx5,         io.fabric8.kubernetes.client.vertx5.Vertx5HttpClientFactory",
      "' okhttp ',     io.fabric8.kubernetes.client.okhttp.OkHttpClientFactory",
  })
  void theEnvironmentNamesTheClient(String name, String factory) {
    Map<String, String> env = name == null ? Map.of() : Map.of(HttpClientChoice.CLIENT_ENV, name);
    assertThat(HttpClientChoice.from(env).factoryClass()).isEqualTo(factory);
  }

  @Test
  void theDefaultIsTheJdkClientWhateverElseTheClassPathHolds() {
    // the test class path holds the Vert.x client too: ServiceLoader would pick either
    assertThat(HttpClientChoice.from(Map.of()).factory(Config.empty())).isExactlyInstanceOf(JdkClientFactory.class);
    assertThat(HttpClientChoice.from(Map.of(HttpClientChoice.CLIENT_ENV, "vertx")).factory(Config.empty()))
        .isExactlyInstanceOf(VertxHttpClientFactory.class);
    assertThat(HttpClientChoice.from(Map.of(HttpClientChoice.CLIENT_ENV, "jdk-http1")).factory(Config.empty()))
        .isExactlyInstanceOf(Http1JdkClientFactory.class);
    assertThat(HttpClientChoice.from(Map.of(HttpClientChoice.CLIENT_ENV, "jdk-streams")).factory(Config.empty()))
        .isExactlyInstanceOf(StreamedJdkClientFactory.class);
    assertThat(HttpClientChoice.from(Map.of(HttpClientChoice.CLIENT_ENV, "vertx-openssl")).factory(Config.empty()))
        .isExactlyInstanceOf(OpenSslVertxClientFactory.class);
  }

  @Test
  void aClientTheJarDoesNotHoldNamesTheProfileThatBuildsIt() {
    assertThatThrownBy(() -> HttpClientChoice.from(Map.of(HttpClientChoice.CLIENT_ENV, "okhttp")).factory(Config.empty()))
        .hasMessage("this jar has no io.fabric8.kubernetes.client.okhttp.OkHttpClientFactory: build one with "
            + "`mvn -pl operator -am package -DskipTests -Phttp-okhttp`");
  }

  @Test
  void unknownNamesAreRefusedWithTheKnownOnes() {
    assertThatThrownBy(() -> HttpClientChoice.from(Map.of(HttpClientChoice.CLIENT_ENV, "netty")))
        .hasMessage("STINT_HTTP_CLIENT=netty is not a client Stint knows; one of [jdk, jdk-http1, jdk-streams, okhttp, "
            + "vertx, vertx-openssl, vertx5]");
    assertThatThrownBy(() -> HttpClientChoice.from(Map.of(HttpClientChoice.TLS_ENV, "openssl")))
        .hasMessageStartingWith("STINT_TLS_PROVIDER=openssl: only conscrypt is known");
  }
}
