package dev.stint.core.decision;

import dev.stint.core.model.JobLabels;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The children of one job as last observed (from the informer caches): pods, services, supporting objects and the
 * batch Jobs that carry replicas ({@link dev.stint.spi.WithJobCarriedReplicas}), each already filtered to those whose
 * controller owner reference is the job. The pods include those of the carrier Jobs, and stand-ins for carrier Jobs
 * that have no pod ({@link CarrierJobs#observedPods}).
 */
public record Observed(List<Pod> pods, List<Service> services, List<HasMetadata> supporting, List<Job> carriers) {

  public Observed {
    pods = List.copyOf(pods);
    services = List.copyOf(services);
    supporting = List.copyOf(supporting);
    carriers = List.copyOf(carriers);
  }

  public Observed(List<Pod> pods, List<Service> services, List<HasMetadata> supporting) {
    this(pods, services, supporting, List.of());
  }

  public static Observed empty() {
    return new Observed(List.of(), List.of(), List.of());
  }

  /** Pods of one replica type keyed by replica index, oldest first within an index. */
  NavigableMap<Integer, List<Pod>> podsByIndex(String replicaTypeLabel) {
    return pods.stream()
        .filter(p -> replicaTypeLabel.equals(label(p, JobLabels.REPLICA_TYPE)))
        .filter(p -> index(p) >= 0)
        .sorted(Comparator.comparing((Pod p) -> String.valueOf(p.getMetadata().getCreationTimestamp()))
            .thenComparing(p -> p.getMetadata().getName()))
        .collect(Collectors.groupingBy(Observed::index, TreeMap::new, Collectors.toList()));
  }

  Optional<Service> service(String name) {
    return services.stream().filter(s -> name.equals(s.getMetadata().getName())).findFirst();
  }

  static int index(HasMetadata object) {
    String value = label(object, JobLabels.REPLICA_INDEX);
    try {
      return value == null ? -1 : Integer.parseInt(value);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  static String label(HasMetadata object, String key) {
    Map<String, String> labels = object.getMetadata().getLabels();
    return labels == null ? null : labels.get(key);
  }
}
