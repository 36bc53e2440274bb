package dev.stint.kubeclient;

import io.fabric8.kubernetes.api.model.KubernetesResource;
import java.lang.reflect.Field;
import java.lang.reflect.InaccessibleObjectException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Makes a cached Kubernetes object as small as it can be without changing a value it holds: every empty list and map
 * becomes the JDK's shared immutable empty one, every string is interned, and the maps of strings (labels,
 * annotations, selectors) and the lists become immutable copies without spare capacity.
 *
 * <p>Why: fabric8's model classes start every list and map field as a new {@code ArrayList} or {@code LinkedHashMap}
 * (an {@code additionalProperties} map in every object, a dozen lists in a pod's spec), nearly all of them empty in a
 * cached pod, and every pod repeats the same label keys, namespace, image, node names and condition types as its own
 * copies. At 2000 jobs (8000 pods, 8000 services) those were more than half of the operator's heap (class histograms
 * in docs/benchmarks.md); interned and shared, the same pods take about a third of the memory.
 *
 * <p>A compacted object is read-only: its collections refuse changes. The informer caches hand out their objects to
 * be read; the engine builds every object it writes from a job's template, never from a cached child.
 */
final class CompactObjects {
  /** Per model class, its instance fields that may hold a string, a collection or another model object. */
  private static final ClassValue<Field[]> FIELDS = new ClassValue<>() {
    @Override
    protected Field[] computeValue(Class<?> type) {
      List<Field> fields = new ArrayList<>();
      for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
        for (Field f : c.getDeclaredFields()) {
          if (!Modifier.isStatic(f.getModifiers()) && !f.getType().isPrimitive() && worthVisiting(f.getType())
              && accessible(f)) {
            fields.add(f);
          }
        }
      }
      return fields.toArray(Field[]::new);
    }
  };

  private CompactObjects() {
  }

  /** Compacts {@code object} in place, with everything it holds; returns it. */
  static <T> T compact(T object) {
    if (object != null && isModel(object.getClass())) {
      visit(object);
    }
    return object;
  }

  private static void visit(Object object) {
    for (Field field : FIELDS.get(object.getClass())) {
      try {
        Object value = field.get(object);
        Object compacted = compactValue(value);
        if (compacted != value) {
          field.set(object, compacted);
        }
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("cannot compact " + field, e); // accessible() let only accessible fields in
      }
    }
  }

  /** The value to keep instead of {@code value}: itself, compacted in place, or a smaller equal copy. */
  private static Object compactValue(Object value) {
    if (value instanceof String s) {
      return s.intern();
    }
    if (value instanceof List<?> list) {
      return compactList(list);
    }
    if (value instanceof Map<?, ?> map) {
      return compactMap(map);
    }
    if (value != null && isModel(value.getClass())) {
      visit(value);
    }
    return value;
  }

  private static Object compactList(List<?> list) {
    if (list.isEmpty()) {
      return List.of();
    }
    List<Object> copy = new ArrayList<>(list.size());
    for (Object element : list) {
      if (element == null) {
        return list; // List.of refuses nulls; such a list is rare enough to keep as it is
      }
      copy.add(compactValue(element));
    }
    return List.copyOf(copy);
  }

  private static Object compactMap(Map<?, ?> map) {
    if (map.isEmpty()) {
      return Map.of();
    }
    Map<Object, Object> copy = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (e.getKey() == null || e.getValue() == null) {
        return map; // Map.copyOf refuses nulls
      }
      copy.put(compactValue(e.getKey()), compactValue(e.getValue()));
    }
    return Map.copyOf(copy);
  }

  private static boolean worthVisiting(Class<?> type) {
    return type == String.class || type == Object.class || List.class.isAssignableFrom(type)
        || Map.class.isAssignableFrom(type) || type.isAssignableFrom(List.class) || isModel(type);
  }

  /** Kubernetes' model classes (fabric8's and the frameworks'), which are plain data holders. */
  private static boolean isModel(Class<?> type) {
    return KubernetesResource.class.isAssignableFrom(type) && !type.isEnum();
  }

  private static boolean accessible(Field field) {
    try {
      field.setAccessible(true);
      return true;
    } catch (InaccessibleObjectException | SecurityException e) {
      return false;
    }
  }
}
