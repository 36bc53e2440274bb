package dev.stint.pytorch;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code init-pytorch} init container that upstream adds to Worker pods of a job with a Master: it waits until
 * the Master's name resolves, so that workers do not start {@code torch.distributed} before the Master's headless
 * service exists. It gives up after a bounded number of tries (2 s apart) and then fails the pod's start.
 *
 * @param image the image, {@code alpine:3.10} by default (it needs {@code sh}, {@code seq} and {@code nslookup})
 * @param maxTries how many lookups before giving up, 100 by default
 */
record MasterWaitInitContainer(String image, int maxTries) {

  static final String NAME = "init-pytorch";
  static final String DEFAULT_IMAGE = "alpine:3.10";
  static final int DEFAULT_MAX_TRIES = 100;

  MasterWaitInitContainer {
    if (image == null || image.isBlank()) throw new IllegalArgumentException("init container image is empty");
    if (maxTries < 1) throw new IllegalArgumentException("init container max tries must be at least 1: " + maxTries);
  }

  /** The container that waits for {@code masterAddress} (the Master's pod name, resolved via its service). */
  Container waitingFor(String masterAddress) {
    return new ContainerBuilder()
        .withName(NAME)
        .withImage(image)
        .withImagePullPolicy("IfNotPresent")
        .withNewResources()
          .withLimits(resources("100m", "20Mi"))
          .withRequests(resources("50m", "10Mi"))
        .endResources()
        .withCommand(List.of("sh", "-c", script(masterAddress)))
        .build();
  }

  /** The upstream loop: exit 0 as soon as the lookup succeeds, exit 1 after {@code maxTries} failed lookups. */
  String script(String masterAddress) {
    return "err=1;for i in $(seq " + maxTries + "); do if nslookup " + masterAddress
        + "; then err=0 && break; fi;echo waiting for master; sleep 2; done; exit $err";
  }

  private static Map<String, Quantity> resources(String cpu, String memory) {
    Map<String, Quantity> resources = new LinkedHashMap<>();
    resources.put("cpu", new Quantity(cpu));
    resources.put("memory", new Quantity(memory));
    return resources;
  }
}
