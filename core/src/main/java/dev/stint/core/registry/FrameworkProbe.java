package dev.stint.core.registry;

import dev.stint.spi.TrainingFramework;
import dev.stint.spi.WithControllerIdentity;
import dev.stint.spi.WithSupportingResources;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Creates a plugin's framework and asks it, once, everything the operator asks a framework when it starts, so that a
 * plugin that would break the start is refused before any controller is registered. Each failure names the class and
 * the method.
 */
final class FrameworkProbe {

  private FrameworkProbe() { }

  /** A new instance, through the public no-argument constructor that {@link java.util.ServiceLoader} also needs. */
  static TrainingFramework<?> create(Class<?> type) throws PluginRejected {
    try {
      return (TrainingFramework<?>) type.getConstructor().newInstance();
    } catch (InvocationTargetException e) {
      throw new PluginRejected("the constructor of framework " + type.getName() + " threw " + e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new PluginRejected("framework " + type.getName() + " has no public no-argument constructor");
    } catch (RuntimeException | LinkageError e) {
      throw new PluginRejected("framework " + type.getName() + " cannot be created: " + e);
    }
  }

  /** Calls the start-up methods of a framework and checks their answers. */
  static void check(TrainingFramework<?> framework) throws PluginRejected {
    String type = framework.getClass().getName();
    String name = call(type, "name", framework::name);
    if (name == null || name.isBlank() || !name.equals(name.trim()) || name.contains(",")) {
      throw new PluginRejected("framework " + type + " has an unusable name() '" + name
          + "' (it is used in --frameworks=a,b: no blanks, no commas)");
    }
    Class<?> jobType = call(type, "jobType", framework::jobType);
    if (jobType == null || !CustomResource.class.isAssignableFrom(jobType)) {
      throw new PluginRejected("framework " + name + ": jobType() must be a class extending "
          + CustomResource.class.getName() + ", not " + jobType);
    }
    if (HasMetadata.getGroup(jobType) == null || HasMetadata.getVersion(jobType) == null) {
      throw new PluginRejected("framework " + name + ": jobType() " + jobType.getName()
          + " needs @Group and @Version annotations");
    }
    call(type, "jobType", () -> loadsClassesOf(jobType));
    notEmpty(name, "replicaTypes", call(type, "replicaTypes", framework::replicaTypes));
    notNull(name, "defaults", call(type, "defaults", framework::defaults));
    List<String> missed = MovedMethods.missedBy(framework.getClass());
    if (!missed.isEmpty()) {
      throw new PluginRejected("framework " + name + " declares SPI 1.x methods the engine would not call: "
          + String.join(", ", missed));
    }
    if (framework instanceof WithControllerIdentity identity) {
      notBlank(name, "controllerName", call(type, "controllerName", identity::controllerName));
      notBlank(name, "managedByValue", call(type, "managedByValue", identity::managedByValue));
    }
    if (framework instanceof WithSupportingResources<?> supporting) {
      notNull(name, "supportingResourceTypes",
          call(type, "supportingResourceTypes", supporting::supportingResourceTypes));
    }
  }

  /**
   * Loads the classes a job is read into (its spec and status, their fields' types) that come with the plugin, as
   * registering its kind would: one missing from the jar (a dependency not bundled) is then this plugin's refusal,
   * not a failed start of the whole operator.
   *
   * @return the plugin's classes it loaded
   */
  static Set<Class<?>> loadsClassesOf(Class<?> jobType) {
    ClassLoader plugin = jobType.getClassLoader();
    Set<Class<?>> loaded = new HashSet<>();
    Deque<Type> todo = new ArrayDeque<>(List.of(jobType));
    while (!todo.isEmpty()) {
      Type next = todo.pop();
      if (next instanceof ParameterizedType parameterized) {
        todo.add(parameterized.getRawType());
        todo.addAll(List.of(parameterized.getActualTypeArguments())); // throws TypeNotPresentException
      } else if (next instanceof Class<?> c && c.getClassLoader() == plugin && loaded.add(c)) {
        if (c.getGenericSuperclass() != null) {
          todo.add(c.getGenericSuperclass());
        }
        for (Field field : c.getDeclaredFields()) { // throws NoClassDefFoundError
          todo.add(field.getGenericType());
        }
      }
    }
    return loaded;
  }

  private static <T> T call(String type, String method, Supplier<T> call) throws PluginRejected {
    try {
      return call.get();
    } catch (RuntimeException | LinkageError e) {
      throw new PluginRejected("framework " + type + ": " + method + "() threw " + e);
    }
  }

  private static void notNull(String name, String method, Object value) throws PluginRejected {
    if (value == null) {
      throw new PluginRejected("framework " + name + ": " + method + "() returned null");
    }
  }

  private static void notEmpty(String name, String method, Collection<?> value) throws PluginRejected {
    if (value == null || value.isEmpty()) {
      throw new PluginRejected("framework " + name + ": " + method + "() returned no value");
    }
  }

  private static void notBlank(String name, String method, String value) throws PluginRejected {
    if (value == null || value.isBlank()) {
      throw new PluginRejected("framework " + name + ": " + method + "() returned no value");
    }
  }
}
