package dev.stint.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.util.HashMap;
import java.util.Map;

/** The {@code CrdHints} a kind set on its CRD as annotations, taken off the CRD as they are read: none reach a cluster. */
final class HintAnnotations {

  private HintAnnotations() { }

  /** The values of these hints, by name, each removed from the CRD; a hint not set is absent from the map. */
  static Map<String, String> take(CustomResourceDefinition crd, String... hints) {
    Map<String, String> annotations = crd.getMetadata().getAnnotations();
    Map<String, String> taken = new HashMap<>();
    if (annotations == null) return taken;
    for (String hint : hints) {
      String value = annotations.remove(hint);
      if (value != null) taken.put(hint, value);
    }
    return taken;
  }
}
