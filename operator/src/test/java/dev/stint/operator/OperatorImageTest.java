package dev.stint.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The three descriptions of the operator's image agree: the root Dockerfile, the Jib build (profile image of
 * operator/pom.xml) and the Deployment of deploy/ that runs it. Base images cannot be pulled where the tests run, so
 * neither image is built here; e2e RbacIT runs the Deployment's command from a copy of this layout.
 */
class OperatorImageTest {
  private static final Path ROOT = Path.of(System.getProperty("stint.root", "..")).toAbsolutePath().normalize();
  private static final JibConfiguration JIB = JibConfiguration.ofTheOperator();
  private static final String LAUNCHER = "/opt/stint/bin/stint";
  private static final String JAR = "/opt/stint/lib/stint-operator.jar";
  private static final String UID = "10001";

  static String dockerfile;
  static PodSpec pod;
  static Container container;

  @BeforeAll
  static void read() throws Exception {
    dockerfile = Files.readString(ROOT.resolve("Dockerfile"));
    try (InputStream in = Files.newInputStream(ROOT.resolve("deploy/base/deployment.yaml"))) {
      pod = Serialization.unmarshal(in, Deployment.class).getSpec().getTemplate().getSpec();
    }
    container = pod.getContainers().get(0);
  }

  private static String dockerfileLine(String instruction) {
    Matcher m = Pattern.compile("(?m)^" + instruction + " (.+)$").matcher(dockerfile);
    assertThat(m.find()).as("the Dockerfile has %s", instruction).isTrue();
    return m.group(1).trim();
  }

  @Test
  void theLauncherIsTheEntrypointAndRunTheCommandEverywhere() throws Exception {
    assertThat(dockerfileLine("ENTRYPOINT")).isEqualTo("[\"" + LAUNCHER + "\"]");
    assertThat(dockerfileLine("CMD")).isEqualTo("[\"run\"]");
    assertThat(JIB.value("container/entrypoint")).isEqualTo(LAUNCHER);
    assertThat(JIB.value("container/args")).isEqualTo("run");
    assertThat(container.getCommand()).containsExactly(LAUNCHER);
    assertThat(container.getArgs()).first().isEqualTo("run");
  }

  @Test
  void theJarIsWhereStintJarSaysInBothImages() throws Exception {
    assertThat(dockerfile).containsPattern("(?m)^ENV STINT_JAR=" + JAR + "$");
    assertThat(dockerfile).contains("operator/target/stint-operator.jar " + JAR);
    assertThat(JIB.value("container/environment/STINT_JAR")).isEqualTo(JAR);
    assertThat(JIB.value("extraDirectories/paths/path[into='/opt/stint/lib']/includes"))
        .isEqualTo("stint-operator.jar");
    assertThat(JIB.value("extraDirectories/paths/path[into='/opt/stint/bin']/includes")).isEqualTo("stint");
    assertThat(JIB.value("extraDirectories/permissions/permission[file='" + LAUNCHER + "']/mode")).isEqualTo("755");
  }

  @Test
  void bothImagesHaveAnEmptyPluginsDirectoryAndTheSameWorkingDirectory() throws Exception {
    assertThat(dockerfile).contains("mkdir -p /opt/stint/plugins");
    assertThat(JIB.value("extraDirectories/paths/path[into='/opt/stint']/from"))
        .isEqualTo("${project.basedir}/src/image");
    try (var files = Files.list(ROOT.resolve("operator/src/image/plugins"))) {
      assertThat(files.map(f -> f.getFileName().toString())).containsExactly(".gitkeep");
    }
    assertThat(JIB.value("extraDirectories/paths/path[into='/opt/stint']/excludes")).isEqualTo("**/.gitkeep");
    assertThat(dockerfileLine("WORKDIR")).isEqualTo("/opt/stint");
    assertThat(JIB.value("container/workingDirectory")).isEqualTo("/opt/stint");
    assertThat(container.getArgs()).contains("--plugins-dir=/opt/stint/plugins");
  }

  @Test
  void theImageUserIsTheDeploymentsNonRootUser() throws Exception {
    assertThat(dockerfileLine("USER")).isEqualTo(UID + ":" + UID);
    assertThat(dockerfile).contains("--uid " + UID).contains("--gid " + UID);
    assertThat(JIB.value("container/user")).isEqualTo(UID + ":" + UID);
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(Long.parseLong(UID));
    assertThat(pod.getSecurityContext().getRunAsGroup()).isEqualTo(Long.parseLong(UID));
  }

  @Test
  void theJvmHasAWritableTmpOnTheReadOnlyRootFilesystem() {
    assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(container.getVolumeMounts()).anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo("/tmp"));
    String tmpVolume = container.getVolumeMounts().stream().filter(m -> m.getMountPath().equals("/tmp")).findFirst()
        .orElseThrow().getName();
    assertThat(pod.getVolumes()).anySatisfy(v -> {
      assertThat(v.getName()).isEqualTo(tmpVolume);
      assertThat(v.getEmptyDir()).isNotNull();
    });
  }

  @Test
  void theMemoryLimitLeavesRoomOutsideTheHeap() {
    String heap = container.getEnv().stream().filter(e -> e.getName().equals("STINT_HEAP")).findFirst()
        .orElseThrow().getValue();
    long heapMi = Long.parseLong(heap.replace("m", ""));
    long limitMi = container.getResources().getLimits().get("memory").getNumericalAmount().longValue() >> 20;
    assertThat(limitMi - heapMi).as("limit %s Mi for a %s heap: metaspace, code cache, threads", limitMi, heap)
        .isGreaterThanOrEqualTo(256);
  }
}
