package dev.stint.core.registry;

import dev.stint.spi.WithControllerIdentity;
import dev.stint.spi.WithElasticReplicas;
import dev.stint.spi.WithFailureTolerance;
import dev.stint.spi.WithLaunchOrder;
import dev.stint.spi.WithMessages;
import dev.stint.spi.WithPodNames;
import dev.stint.spi.WithReplicaDefaults;
import dev.stint.spi.WithSupportingResources;
import dev.stint.spi.WithValidation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The methods SPI 1.x declared on {@code TrainingFramework} that SPI 2.0 moved to capability interfaces. A framework
 * that still declares one without implementing its interface would have it silently ignored by the engine, so it is
 * refused with a message naming what to implement; the same table words the refusal of a plugin built against 1.x.
 */
public final class MovedMethods {
  private static final List<Class<?>> CAPABILITIES = List.of(WithValidation.class, WithPodNames.class,
      WithReplicaDefaults.class, WithLaunchOrder.class, WithFailureTolerance.class, WithMessages.class,
      WithSupportingResources.class, WithElasticReplicas.class, WithControllerIdentity.class);

  /** Each capability method's name and its interface, in the order above and by name within an interface. */
  private static final Map<String, Class<?>> INTERFACE_OF = new LinkedHashMap<>();

  static {
    for (Class<?> capability : CAPABILITIES) {
      Arrays.stream(capability.getDeclaredMethods()).filter(m -> !m.isSynthetic()).map(Method::getName).sorted()
          .forEach(name -> INTERFACE_OF.put(name, capability));
    }
  }

  private MovedMethods() { }

  /** Every move, as {@code validate() -> WithValidation}, for the refusal of a plugin built against SPI 1.x. */
  static String all() {
    return INTERFACE_OF.entrySet().stream().map(e -> e.getKey() + "() to " + e.getValue().getSimpleName())
        .collect(Collectors.joining(", "));
  }

  /**
   * The moves a framework class missed: the public methods it declares under a moved name whose interface it does not
   * implement, as {@code implement WithPodNames for podName()}; empty when there are none. The operator refuses such
   * a framework; {@code stint-testkit}'s contract test asserts there are none.
   */
  public static List<String> missedBy(Class<?> type) {
    TreeSet<String> missed = new TreeSet<>();
    for (Method method : type.getMethods()) {
      Class<?> capability = INTERFACE_OF.get(method.getName());
      if (capability != null && !Modifier.isStatic(method.getModifiers()) && !capability.isAssignableFrom(type)) {
        missed.add("implement " + capability.getSimpleName() + " for " + method.getName() + "()");
      }
    }
    return List.copyOf(missed);
  }
}
