package dev.stint.core.reconciler;

import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Wraps a framework so that anything its code throws while a job is reconciled arrives as a {@link FrameworkFailure}
 * naming the framework and the method, and the reconciler can tell a framework's failure (which fails the job) from
 * the engine's own (which JOSDK retries). Callbacks the framework hands back, such as its {@code SuccessPolicy} and
 * {@code JobMessages}, are wrapped the same way.
 *
 * <p>A dynamic proxy rather than a hand-written decorator: it forwards every SPI method, including default methods
 * added later, to the framework's own implementation, so an override can never be bypassed by a forgotten forward.
 * {@link RuntimeException}s and {@link LinkageError}s (a plugin built against another SPI, a class missing from its
 * jar) count as the framework's failure; other errors, such as running out of memory, are not the job's fault and pass
 * through unchanged.
 *
 * @param target the framework, or a callback it handed back
 * @param framework the framework's name, for the failure
 * @param prefix what comes before the method's name in the failure ({@code successPolicy().} for a callback's)
 */
record GuardedFramework(Object target, String framework, String prefix) implements InvocationHandler {
  private static final String SPI_PACKAGE = TrainingFramework.class.getPackageName();

  /**
   * The framework, guarded; {@code framework.name()} is read once, now. The guard implements every SPI interface the
   * framework implements, so a check for an optional capability interface sees what the framework offers.
   */
  @SuppressWarnings("unchecked")
  static <J extends TrainingJob<?>> TrainingFramework<J> guard(TrainingFramework<J> framework) {
    return (TrainingFramework<J>) proxy(TrainingFramework.class, framework, framework.name(), "");
  }

  private static Object proxy(Class<?> type, Object target, String framework, String prefix) {
    Set<Class<?>> interfaces = new LinkedHashSet<>();
    interfaces.add(type);
    spiInterfaces(target.getClass(), interfaces);
    return Proxy.newProxyInstance(type.getClassLoader(), interfaces.toArray(Class<?>[]::new),
        new GuardedFramework(target, framework, prefix));
  }

  private static void spiInterfaces(Class<?> type, Set<Class<?>> found) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      for (Class<?> i : c.getInterfaces()) {
        if (SPI_PACKAGE.equals(i.getPackageName()) && found.add(i)) {
          spiInterfaces(i, found);
        }
      }
    }
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (method.getDeclaringClass() == Object.class) {
      return objectMethod(proxy, method, args);
    }
    String call = prefix + method.getName() + "()";
    Object result;
    try {
      result = method.invoke(target, args);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException || cause instanceof LinkageError) {
        throw new FrameworkFailure(framework, call, cause);
      }
      throw cause;
    }
    return isSpiCallback(method.getReturnType(), result)
        ? proxy(method.getReturnType(), result, framework, call + ".") : result;
  }

  /** A returned SPI interface ({@code SuccessPolicy}, {@code JobMessages}) holds framework code called later. */
  private static boolean isSpiCallback(Class<?> type, Object result) {
    return result != null && type.isInterface() && SPI_PACKAGE.equals(type.getPackageName());
  }

  private Object objectMethod(Object proxy, Method method, Object[] args) {
    return switch (method.getName()) {
      case "equals" -> proxy == args[0];
      case "hashCode" -> System.identityHashCode(proxy);
      default -> "guarded " + target;
    };
  }
}
