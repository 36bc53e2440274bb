package dev.stint.spi;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The version of this SPI, {@code MAJOR.MINOR}, and the rule that decides whether an operator can run a plugin built
 * against another version.
 *
 * <p><b>The plugin contract.</b> A plugin jar declares, in its {@code META-INF/MANIFEST.MF}, the SPI version it was
 * compiled against, next to pf4j's plugin id and version:
 *
 * <pre>
 * Plugin-Id: jax
 * Plugin-Version: 0.1.0
 * Stint-Spi-Version: 2.0
 * </pre>
 *
 * An operator implementing SPI {@code M.N} loads a plugin declaring {@code M.K} when {@code K <= N}: minor versions
 * only add (new default methods, new helper types), so a plugin built against an older minor version still links, but
 * one built against a newer minor version may call what this operator lacks. A different major version means a
 * change that breaks plugins; such a plugin is skipped with a log line saying so. A jar without the attribute is
 * skipped too: the operator cannot tell what it was built against.
 *
 * <p><b>History.</b> 1.0: the first SPI. 1.1 added {@code minReplicas} (elastic partial admission with Kueue). 2.0
 * split the 20-method {@code TrainingFramework} into a required core of seven methods and the optional
 * {@code With*} capability interfaces the engine probes for; {@link ContainerEnv}, {@link KubeflowLabels},
 * {@link JobMessages#namespaced}, {@link FrameworkDefaults#templatePort}, {@link SupportingResource#createdOnce},
 * {@code api.CrdHints}, {@code api.JobRules}, and the optional bases {@link AbstractTrainingFramework} and
 * {@code api.KubeflowJobSpec} came in, and later {@link WithJobCarriedReplicas}, {@link WithUpstreamPods} and
 * {@link ReplicaHosts} with {@code runPolicy.serviceMode} (all
 * before 2.0 was first released, so still 2.0). A plugin built against 1.x
 * is refused with a message naming, for each of its methods that moved, the interface to implement; its code changes
 * by an {@code implements} clause and its manifest by {@code Stint-Spi-Version: 2.0}.
 *
 * @param major incremented when a change breaks existing plugins (a method removed or changed, new behaviour asked of
 *     implementations)
 * @param minor incremented when something is only added
 */
public record SpiVersion(int major, int minor) {

  /** The manifest attribute in which a plugin jar declares the SPI version it was compiled against. */
  public static final String MANIFEST_ATTRIBUTE = "Stint-Spi-Version";

  /** The SPI version of this artifact: what the operator it ships with implements. */
  public static final SpiVersion CURRENT = new SpiVersion(2, 0);

  private static final Pattern FORMAT = Pattern.compile("(\\d{1,4})\\.(\\d{1,4})");

  /**
   * Reads a version as a plugin manifest states it ({@code 1.0}).
   *
   * @throws IllegalArgumentException when the text is not {@code MAJOR.MINOR} with whole numbers
   */
  public static SpiVersion parse(String text) {
    Matcher m = FORMAT.matcher(text == null ? "" : text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + text + "' is not a version of the form MAJOR.MINOR, such as "
          + CURRENT);
    }
    return new SpiVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
  }

  /** Whether an operator implementing this version can run a plugin built against {@code pluginVersion}. */
  public boolean runs(SpiVersion pluginVersion) {
    return pluginVersion.major == major && pluginVersion.minor <= minor;
  }

  @Override
  public String toString() {
    return major + "." + minor;
  }
}
