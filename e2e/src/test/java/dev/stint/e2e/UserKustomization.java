package dev.stint.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A kustomization of the user's, written in a new folder of e2e/target: deploy/ (or one of its overlays) with one of
 * its components, as the component's comment says to use it. Returns the folder relative to the repository, as kustomize is given it.
 */
final class UserKustomization {
  private UserKustomization() { }

  /** deploy/ and the component. */
  static String deployWith(String component) throws IOException {
    return write(component, "");
  }

  /** deploy/ and the component, and the flag its comment says to add to the operator, spelled as it spells it. */
  static String deployWith(String component, String flag) throws IOException {
    return deployWith("deploy", component, flag);
  }

  /** An overlay of deploy/ (or deploy/ itself) and the component, with its flag. */
  static String deployWith(String base, String component, String flag) throws IOException {
    return write(base, component, """
        patches: [{target: {kind: Deployment, name: stint}, patch: '[{"op": "add",
          "path": "/spec/template/spec/containers/0/args/-", "value": "%s"}]'}]
        """.formatted(flag));
  }

  private static String write(String component, String patches) throws IOException {
    return write("deploy", component, patches);
  }

  private static String write(String base, String component, String patches) throws IOException {
    Path dir = Files.createTempDirectory(Files.createDirectories(LocalCluster.ROOT.resolve("e2e/target")),
        component + "-");
    Files.writeString(dir.resolve("kustomization.yaml"), """
        apiVersion: kustomize.config.k8s.io/v1beta1
        kind: Kustomization
        resources: [%s]
        components: [%s]
        """.formatted(dir.relativize(LocalCluster.ROOT.resolve(base)),
        dir.relativize(LocalCluster.ROOT.resolve("deploy/components/" + component))) + patches);
    return LocalCluster.ROOT.relativize(dir).toString();
  }
}
