package dev.stint.operator;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.HttpClient;
import java.lang.reflect.InvocationTargetException;
import java.security.Provider;
import java.security.Security;
import java.util.Locale;
import java.util.Map;

/**
 * Which of fabric8's HTTP clients, and which TLS, the operator's client uses.
 *
 * <p>The shipped jar holds the JDK's client only, and it is used unless {@code STINT_HTTP_CLIENT} names another that
 * the jar holds (the {@code http-*} profiles of operator/pom.xml build such jars). The choice is explicit, never left
 * to fabric8's ServiceLoader, which picks at random between two factories of equal priority. The figures that chose
 * the JDK's client are in docs/benchmarks.md ("HTTP clients").
 *
 * @param name           what {@code STINT_HTTP_CLIENT} said ({@code jdk} when unset)
 * @param factoryClass   the fabric8 factory of that client
 * @param tlsProvider    {@code STINT_TLS_PROVIDER}: {@code conscrypt} puts Conscrypt first among the JVM's security
 *                       providers, so the JDK client's TLS runs in BoringSSL; empty for the JVM's own
 */
record HttpClientChoice(String name, String factoryClass, String tlsProvider) {
  static final String CLIENT_ENV = "STINT_HTTP_CLIENT";
  static final String TLS_ENV = "STINT_TLS_PROVIDER";

  private static final Map<String, String> FACTORIES = Map.of(
      "jdk", "dev.stint.kubeclient.JdkClientFactory",
      "jdk-http1", "dev.stint.kubeclient.Http1JdkClientFactory",
      "jdk-streams", "dev.stint.kubeclient.StreamedJdkClientFactory",
      "vertx", "io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory",
      "vertx-openssl", "dev.stint.operator.OpenSslVertxClientFactory",
      "vertx5", "io.fabric8.kubernetes.client.vertx5.Vertx5HttpClientFactory",
      "okhttp", "io.fabric8.kubernetes.client.okhttp.OkHttpClientFactory");
  private static final String CONSCRYPT = "org.conscrypt.Conscrypt";

  /** The choice the environment makes; an unknown name is refused with the names known. */
  static HttpClientChoice from(Map<String, String> env) {
    String name = env.getOrDefault(CLIENT_ENV, "").trim().toLowerCase(Locale.ROOT);
    name = name.isEmpty() ? "jdk" : name;
    String factory = FACTORIES.get(name);
    if (factory == null) {
      throw new IllegalArgumentException(CLIENT_ENV + "=" + name + " is not a client Stint knows; one of "
          + new java.util.TreeSet<>(FACTORIES.keySet()));
    }
    String tls = env.getOrDefault(TLS_ENV, "").trim().toLowerCase(Locale.ROOT);
    if (!tls.isEmpty() && !tls.equals("conscrypt")) {
      throw new IllegalArgumentException(TLS_ENV + "=" + tls + ": only conscrypt is known (unset: the JVM's own)");
    }
    return new HttpClientChoice(name, factory, tls);
  }

  /** The factory for a client of {@code config}, after installing the TLS provider if one was chosen. */
  HttpClient.Factory factory(Config config) {
    if (tlsProvider.equals("conscrypt")) {
      Security.insertProviderAt((Provider) invoke(load(CONSCRYPT, "-Ptls-conscrypt"), "newProvider"), 1);
    }
    if (name.equals("vertx-openssl")) {
      load(FACTORIES.get("vertx"), profileOf(name)); // this class's parent
      return new OpenSslVertxClientFactory(config);
    }
    return (HttpClient.Factory) invoke(load(factoryClass, profileOf(name)), null);
  }

  private static String profileOf(String client) {
    return "-Phttp-" + client.replace("-openssl", "");
  }

  private static Class<?> load(String className, String profile) {
    try {
      return Class.forName(className);
    } catch (ClassNotFoundException | NoClassDefFoundError e) {
      throw new IllegalArgumentException("this jar has no " + className + ": build one with `mvn -pl operator -am "
          + "package -DskipTests " + profile + "`");
    }
  }

  /** A new instance of {@code type}, or what its static {@code factoryMethod} returns. */
  private static Object invoke(Class<?> type, String factoryMethod) {
    try {
      return factoryMethod == null ? type.getConstructor().newInstance() : type.getMethod(factoryMethod).invoke(null);
    } catch (ReflectiveOperationException e) {
      Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
      throw new IllegalStateException("cannot make " + type.getName() + ": " + cause, cause);
    }
  }
}
